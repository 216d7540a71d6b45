// Answers that agree with the data they show, through the official MCP SDK client over HTTP: one
// listing has one capability hash on every surface; sense_traces `q` finds what traces say, never
// an id; attractor_targets filtered by kind says what the unfiltered data says; sentences name a
// kind or a mark with the right article.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { issueToken } from '../src/access/store.ts';
import { ownerHolder } from '../src/funnel/grant.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let base: string;
let t: Tools;
const owners: Tools[] = [];

before(async () => {
  app = await startApp({ clock });
  base = await app.listen();
  t = await connect(app, { base });
});
after(async () => {
  for (const o of owners) await o.close();
  await t.close();
  await app.close();
});

let n = 0;
/** A Live listing on an owner domain of its own, with skills (agent) or tools (mcp) whose titles differ from their names. */
async function liveListing(kind: 'agent' | 'mcp', items: { name: string; title?: string }[]): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: kind === 'agent' ? `https://agree-${++n}.example/.well-known/agent-card.json` : `https://agree-${++n}.example/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', kind, live_since: now, name: `Agree ${n}`, capabilities: JSON.stringify({ names: items.map((i) => i.name), items }), checks_clean: 1, probe_ok: 1, probe_score: 70 }, now);
  return id;
}

/** An SDK client acting for a listing with its owner token. */
async function ownerOf(listingId: string): Promise<Tools> {
  const o = await connect(app, { base, headers: asOwner(await ownListing(app, listingId)) });
  owners.push(o);
  return o;
}

test(`one listing, one capability hash: capability_hash, match_capability, hyper_index and join_and_contribute agree (${engine})`, async () => {
  const id = await liveListing('mcp', [{ name: 'Render', title: 'Render a page' }, { name: 'merge_pdf', title: 'Merge PDF files' }]);
  // TOOLS.md: lower-case, trim, dedupe, sort, join with "\n", SHA-256 hex, over the tool names.
  const expected = createHash('sha256').update('merge_pdf\nrender').digest('hex');
  const byListing = await t.ok('capability_hash', { listing_id: id });
  const bySet = await t.ok('capability_hash', { capabilities: [' merge_pdf', 'Render', 'render'] });
  const match = await t.ok('match_capability', { capabilities: ['merge pdf'] });
  const hit = match.hits.find((h: any) => h.listing_id === id);
  assert.ok(hit, JSON.stringify(match.hits));
  const hyper = await t.ok('hyper_index', { capability: 'merge_pdf' });
  const edge = hyper.hyperedges.find((e: any) => e.listing_ids.includes(id));
  const joined = await t.ok('join_and_contribute', { listing_id: id });
  assert.deepEqual(
    { capability_hash: byListing.capability_hash, from_set: bySet.capability_hash, match_capability: hit.capability_hash, hyper_index: edge.capability_hash, join_and_contribute: joined.capability_hash },
    { capability_hash: expected, from_set: expected, match_capability: expected, hyper_index: expected, join_and_contribute: expected },
  );
});

test(`attractor_targets by kind says what the data says: listings gained, capabilities did not (${engine})`, async () => {
  clock.set('2026-11-03T12:00:00.000Z'); // earlier deposits are out of the 24 h window
  const [from, to] = [await liveListing('mcp', [{ name: 'search' }]), await liveListing('mcp', [{ name: 'fetch' }])];
  const marked = await (await ownerOf(from)).ok('leave_trace', { listing_id: to, kind: 'attraction', body: 'It fetched every page we asked for, quickly.' });
  assert.equal(marked.deposited.moves, true, JSON.stringify(marked.deposited));
  const all = await t.ok('attractor_targets', {});
  assert.deepEqual(all.targets.map((x: any) => [x.subject_kind, x.id]), [['listing', to]]);
  const caps = await t.ok('attractor_targets', { kind: 'capability' });
  assert.deepEqual(caps.targets, []);
  assert.doesNotMatch(caps.next_step.why, /^No attraction gained/, 'attraction was gained, on a listing');
  assert.match(caps.next_step.why, /capabilit/);
  assert.match(caps.next_step.why, /listing/);
});

test(`sense_traces q searches what traces say (capability names, notes), never listing ids (${engine})`, async () => {
  clock.set('2026-11-05T12:00:00.000Z');
  const id = await liveListing('mcp', [{ name: 'convert' }]); // its joined trace is in the field
  await t.ok('leave_trace', { capability: 'merge pdf', kind: 'attraction', body: 'Merged two hundred files without a hitch.' });
  await t.ok('leave_trace', { capability: 'summarize text', kind: 'demand', body: 'Needs to summarize long PDF reports too.' });
  await t.ok('leave_trace', { capability: 'translate', kind: 'demand', body: 'French to German, mostly legal text.' });

  const tail = id.slice(-6);
  const byId = await t.ok('sense_traces', { q: tail });
  assert.deepEqual(byId.traces, [], `q ${tail} is part of the listing's id, not of anything a trace says`);
  assert.equal((await t.ok('sense_traces', { listing_id: id })).count, 1, 'the listing has its joined trace');

  const pdf = await t.ok('sense_traces', { q: 'pdf' });
  const found = pdf.traces.map((x: any) => [x.subject.capability, x.channel]).sort();
  // merge pdf: by its name (its demand trace is match_capability's, above); summarize text: by its note.
  assert.deepEqual(found, [['merge pdf', 'attraction'], ['merge pdf', 'demand'], ['summarize text', 'demand']]);
  assert.deepEqual((await t.ok('sense_traces', { q: 'PDF', kind: 'demand' })).traces.map((x: any) => x.subject.capability).sort(), ['merge pdf', 'summarize text'], 'case-insensitive, one channel');
  assert.deepEqual((await t.ok('sense_traces', { q: 'legal' })).traces.map((x: any) => x.subject.capability), ['translate']);
});

test(`sentences take the right article: an A2A agent, an MCP server, an outcome (${engine})`, async () => {
  clock.set('2026-11-07T12:00:00.000Z');
  const agent = await liveListing('agent', [{ name: 'plan-trip', title: 'Plan a trip' }]);
  const server = await liveListing('mcp', [{ name: 'echo' }]);
  for (const [id, phrase] of [[agent, 'An A2A agent at'], [server, 'An MCP server at']] as const) {
    const token = await inTransaction(app.services.db.kysely, async (trx) => (await issueToken(trx, id, ownerHolder(id), 'full', clock.now().toISOString(), null)).token);
    const md = (await t.ok('export_skills', { access_token: token })).skill_md as string;
    assert.ok(md.includes(phrase), md.slice(0, 600));
    assert.doesNotMatch(md, /\bA (A2A|MCP)\b/);
  }
  // A second rank-moving outcome from one owner domain on one listing in a day is recorded only, and says why.
  const reporter = await ownerOf(agent);
  await reporter.ok('network_sense', {});
  const first = await reporter.ok('deposit_outcome', { listing_id: server, ok: true, quality: 0.9, body: 'It echoed every message back unchanged.' });
  assert.equal(first.deposited.moves_rank, true, JSON.stringify(first.deposited));
  const second = await reporter.ok('deposit_outcome', { listing_id: server, ok: true, quality: 0.7, body: 'It echoed the second batch back too.' });
  assert.match(second.deposited.why, /already moved \S+ rank today, so an outcome from it moves nothing more/);
});
