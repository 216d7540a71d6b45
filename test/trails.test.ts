// Trails over a fixture graph through the MCP door, with a ManualClock: follow_trail in each mode
// (values decayed by hand-computed half-lives, faded trails not followed), compose_peers,
// attractor_targets, seed_compositions, interop_resolve / interop_session, join_and_contribute,
// the trail rank part in the active order, and endorsements and compositions in the public feed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, getJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { insertListingIfNew } from '../src/listings/store.ts';
import { saveProbeState } from '../src/probe/store.ts';
import { deposit } from '../src/traces/store.ts';
import { subjectKey, type TraceSubject } from '../src/traces/subjects.ts';
import type { Channel } from '../src/traces/channels.ts';
import { insertComposition } from '../src/mesh/store.ts';

type Structured = Record<string, any>;
const clock = new ManualClock('2026-11-01T00:00:00.000Z');
let app: TestApp;
let base: string;
let client: Client;

/** A tools/call on `via` (default: the anonymous client). */
async function call(name: string, args: Record<string, unknown>, via = client) {
  return (await via.callTool({ name, arguments: args })) as unknown as { isError?: boolean; structuredContent: Structured };
}
async function ok(name: string, args: Record<string, unknown>, via = client) {
  const r = await call(name, args, via);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent;
}
async function fails(name: string, args: Record<string, unknown>) {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent.error as { code: string; field?: string };
}

async function seed(host: string, kind: 'agent' | 'mcp', name: string, items: { name: string; description: string; params?: { name: string; required: boolean }[] }[], protocol: string, score = 60): Promise<string> {
  const now = clock.now().toISOString();
  const url = kind === 'mcp' ? `https://${host}/mcp` : `https://${host}/.well-known/agent-card.json`;
  const { row } = await inTransaction(app.services.db.kysely, (trx) => insertListingIfNew(trx, { url, kind, name, submittedName: null, contactEmail: null, source: 'test', rankParts: {} }, now));
  const capabilities = JSON.stringify({ names: items.map((i) => i.name), items: items.map((i) => ({ params: [], ...i })) });
  await setListingState(app, row.id, { lane: 'active', kind, name, description: `${name} for trail tests`, capabilities, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: score, probed_at: now }, now);
  await saveProbeState(app.services.db.kysely, row.id, { target: kind === 'mcp' ? url : `https://${host}/a2a`, protocol });
  return row.id;
}

const put = (subject: TraceSubject, channel: Channel, intensity: number) =>
  deposit(app.services.db.kysely, { channel, subject: subjectKey(subject), intensity, body: null, depositor: 'fixture', at: clock.now() });
const pair = (a: string, b: string): TraceSubject => ({ kind: 'pair', listing_id: a, partner_listing_id: b });

const L = {} as Record<'a' | 'b' | 'c' | 'd' | 'e', string>;

/** An SDK client; with `headers` (an owner token) on every request. */
async function connectClient(headers?: Record<string, string>): Promise<Client> {
  const c = new Client({ name: 'trails-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), headers ? { requestInit: { headers } } : undefined));
  await c.listTools();
  return c;
}

before(async () => {
  app = await startApp({ clock, env: { SEARCH_POLL_MS: '0' } });
  base = await app.listen();
  client = await connectClient();
  L.a = await seed('alpha.example.org', 'mcp', 'Alpha', [{ name: 'send_email', description: 'Send an email message', params: [{ name: 'body', required: true }] }], '2025-11-25');
  L.b = await seed('bravo.example.org', 'agent', 'Bravo', [{ name: 'translate', description: 'Translate text into French' }], 'a2a/1.0');
  L.c = await seed('charlie.example.org', 'mcp', 'Charlie', [{ name: 'resize_image', description: 'Resize an image', params: [{ name: 'image_url', required: true }] }], '2026-07-28');
  L.d = await seed('delta.example.org', 'mcp', 'Delta', [{ name: 'get_forecast', description: 'Weather forecast for a city', params: [{ name: 'city', required: true }] }], '2025-06-18');
  L.e = await seed('echo.example.org', 'mcp', 'Echo', [{ name: 'summarize_document', description: 'Summarize a long document', params: [{ name: 'document', required: true }] }], '2025-11-25');
  await app.services.search.poll();
});
after(async () => {
  await client.close();
  await app.close();
});

test(`follow_trail (hot) walks the strongest decayed pair attraction; faded trails are not followed (${engine})`, async () => {
  await put(pair(L.a, L.b), 'attraction', 20);
  clock.advance(7 * DAY_MS); // one attraction half-life: A-B is worth 10 now
  await put(pair(L.a, L.c), 'attraction', 12);
  await put(pair(L.c, L.d), 'attraction', 4);
  const hot = await ok('follow_trail', { listing_id: L.a, mode: 'hot', steps: 3 });
  assert.deepEqual(hot.path.map((h: Structured) => h.to.id), [L.c, L.d], 'A-C (12) beats the decayed A-B (20 -> 10)');
  assert.deepEqual(hot.path.map((h: Structured) => h.strength), [12, 4]);
  assert.equal(hot.path[0].to.name, 'Charlie');
  assert.equal(hot.ended, 'the trail fades here');
  // From B the only trail is back to A (10 after one half-life), then on to C.
  const fromB = await ok('follow_trail', { listing_id: L.b, steps: 2 });
  assert.deepEqual(fromB.path.map((h: Structured) => [h.to.id, h.strength]), [[L.a, 10], [L.c, 12]]);

  clock.advance(21 * DAY_MS); // three more half-lives: everything / 8
  const later = await ok('follow_trail', { listing_id: L.a, mode: 'hot', steps: 3 });
  assert.deepEqual(later.path.map((h: Structured) => [h.to.id, h.strength]), [[L.c, 1.5], [L.d, 0.5]]);

  clock.advance(70 * DAY_MS); // ten more: 1.5 / 1024 < 0.05, too faint to follow
  const faded = await ok('follow_trail', { listing_id: L.a, mode: 'hot' });
  assert.deepEqual(faded.path, []);
  assert.equal(faded.ended, 'no trail strong enough leads from here');
  assert.equal(faded.next_step.tool, 'attractor_targets');
});

test(`follow_trail in composition, danger and demand modes; bad inputs (${engine})`, async () => {
  clock.advance(DAY_MS);
  const at = clock.now().toISOString();
  const composition = (id: string, members: string[]) => ({
    composition_id: id,
    owner: 'fixture',
    listing_id: members[0]!,
    goal: null,
    capabilities: ['send email', 'resize image'],
    steps: members.slice(1).map((m, i) => ({ step: i + 1, listing_id: m, kind: 'mcp' as const, name: m, endpoint: 'https://x.example.org/mcp', covers: [], calls: [], trail_strength: 0, probe_score: null })),
    gaps: [],
    created_at: at,
  });
  await insertComposition(app.services.db.kysely, composition('cmp_t1', [L.a, L.d]));
  await insertComposition(app.services.db.kysely, composition('cmp_t2', [L.a, L.d, L.e]));
  await insertComposition(app.services.db.kysely, composition('cmp_t3', [L.a, L.c]));
  const comp = await ok('follow_trail', { listing_id: L.a, mode: 'composition', steps: 2 });
  assert.deepEqual(comp.path.map((h: Structured) => [h.to.id, h.strength]), [[L.d, 2], [L.e, 1]]);

  // Danger: among A's partners, the one carrying the most danger now (danger half-life 72 h).
  await put({ kind: 'listing', listing_id: L.c }, 'danger', 8);
  await put({ kind: 'listing', listing_id: L.e }, 'danger', 6);
  clock.advance(72 * HOUR_MS);
  await put({ kind: 'listing', listing_id: L.d }, 'danger', 5);
  const danger = await ok('follow_trail', { listing_id: L.a, mode: 'danger', steps: 1 });
  assert.deepEqual(danger.path.map((h: Structured) => [h.to.id, h.strength]), [[L.d, 5]], 'C (8 -> 4) and E (6 -> 3) decayed below D (5)');

  // Demand: the capability in strongest demand that A lacks, then the Live listing that covers it.
  await put({ kind: 'capability', capability: 'weather forecast' }, 'demand', 6);
  await put({ kind: 'capability', capability: 'send email' }, 'demand', 9);
  const demand = await ok('follow_trail', { listing_id: L.a, mode: 'demand', steps: 2 });
  assert.deepEqual(demand.path.map((h: Structured) => h.to.id), ['weather forecast', L.d], 'A covers send email itself');
  assert.equal(demand.path[0].strength, 6);

  assert.equal((await fails('follow_trail', { mode: 'hot' })).field, 'listing_id');
  assert.equal((await fails('follow_trail', { listing_id: L.a, capability: 'x' })).field, 'listing_id');
  assert.equal((await fails('follow_trail', { listing_id: 'lst_missing' })).code, 'not_found');
  assert.equal((await fails('follow_trail', { listing_id: L.a, steps: 9 })).field, 'steps');

  const peers = await ok('compose_peers', { listing_id: L.a });
  assert.deepEqual(peers.peers.map((p: Structured) => [p.listing_id, p.compositions]).slice(0, 1), [[L.d, 2]]);
});

test(`used_with raises the pair for compose_peers; attractor_targets ranks the last 24 h of gain (${engine})`, async () => {
  clock.advance(2 * DAY_MS);
  const used = await ok('used_with', { listing_id: L.b, partner_listing_id: L.e, capability: 'translate text', agent_name: 'trail-user' });
  assert.equal(used.pair.value, 3);
  const peers = await ok('compose_peers', { listing_id: L.b });
  assert.equal(peers.peers[0].listing_id, L.e);
  assert.equal(peers.peers[0].intensity, 1);
  assert.equal((await fails('used_with', { listing_id: L.b, partner_listing_id: L.b })).field, 'partner_listing_id');

  clock.advance(30 * HOUR_MS);
  await put({ kind: 'listing', listing_id: L.b }, 'attraction', 4);
  clock.advance(HOUR_MS);
  await put({ kind: 'listing', listing_id: L.c }, 'attraction', 12);
  await put({ kind: 'capability', capability: 'resize image' }, 'attraction', 6);
  const targets = await ok('attractor_targets', {});
  assert.deepEqual(targets.targets.map((t: Structured) => [t.id, t.gained_24h]), [[L.c, 12], ['resize image', 6], [L.b, 4]]);
  assert.equal(targets.targets[0].gain_per_hour, 0.5);
  const onlyCaps = await ok('attractor_targets', { kind: 'capability' });
  assert.deepEqual(onlyCaps.targets.map((t: Structured) => t.id), ['resize image']);
  clock.advance(DAY_MS + HOUR_MS);
  assert.deepEqual((await ok('attractor_targets', {})).targets, [], 'nothing gained in the last 24 h');
});

test(`trail strength is a rank part: it orders the active list and decays with the clock (${engine})`, async () => {
  const order = async () => (await getJson(app, '/api/listings/active?limit=100')).body.mcps.map((m: Structured) => m.id) as string[];
  const before = await order();
  await put({ kind: 'listing', listing_id: L.e }, 'attraction', 40);
  const after = await order();
  assert.equal(after[0], L.e, `E leads with its trail: ${JSON.stringify(after)} (was ${JSON.stringify(before)})`);
  const parts = async (id: string) => JSON.parse((await app.sql.selectFrom('listings').select('rank_parts').where('id', '=', id).executeTakeFirstOrThrow()).rank_parts);
  assert.equal((await parts(L.e)).trail, 40);
  clock.advance(28 * DAY_MS); // four half-lives; the sweep refreshes the part
  const { refreshTrailsTask } = await import('../src/traces/tasks.ts');
  await inTransaction(app.services.db.kysely, (trx) => refreshTrailsTask(app.config).run(trx, clock.now()));
  assert.equal((await parts(L.e)).trail, 2.5);
});

test(`interop_resolve says how two listings talk; interop_session plans a run for execute_compose; join_and_contribute (${engine})`, async () => {
  const r = await ok('interop_resolve', { listing_id: L.a, partner_listing_id: L.b });
  assert.equal(r.can_talk, true);
  assert.equal(r.to.protocol, 'a2a/1.0');
  assert.equal(r.first_call.method, 'SendMessage');
  assert.equal(r.first_call.headers['a2a-version'], '1.0');
  assert.equal(r.from.era, 'legacy (initialize, then requests in the session)');
  const toModern = await ok('interop_resolve', { listing_id: L.a, capability: 'resize image' });
  assert.equal(toModern.to.listing_id, L.c);
  assert.equal(toModern.first_call.method, 'tools/call');
  assert.equal(toModern.first_call.body.params.name, 'resize_image');
  const legacy = await ok('interop_resolve', { listing_id: L.b, partner_listing_id: L.d });
  assert.equal(legacy.first_call.method, 'initialize');
  assert.equal(legacy.first_call.body.params.protocolVersion, '2025-06-18');
  assert.equal((await fails('interop_resolve', { listing_id: L.a })).field, 'partner_listing_id');
  assert.equal((await fails('interop_resolve', { listing_id: L.a, capability: 'book a flight to mars' })).code, 'no_partner');

  const session = await ok(r.next_step.tool, { ...r.next_step.args, goal: 'translate the welcome note', agent_name: 'interop' });
  assert.match(session.composition_id, /^iss_/);
  assert.equal(session.steps[0].listing_id, L.b);
  assert.equal(session.steps[0].calls[0].method, 'message/send');
  assert.equal(session.next_step.tool, 'execute_compose');
  clock.advance(2 * HOUR_MS);
  assert.equal((await fails('execute_compose', { ...session.next_step.args, agent_name: 'interop' })).code, 'session_expired');
  await setListingState(app, L.d, { lane: 'failed' }, clock.now().toISOString());
  assert.equal((await fails('interop_session', { listing_id: L.a, partner_listing_id: L.d })).code, 'cannot_talk');

  const joined = await ok('join_and_contribute', { listing_id: L.a });
  assert.equal(joined.listed_now, false);
  assert.equal(joined.joined_trace, true);
  assert.match(joined.capability_hash, /^[0-9a-f]{64}$/);
  assert.equal((await ok('join_and_contribute', { listing_id: L.a })).joined_trace, false, 'once a day');
  const fresh = await ok('join_and_contribute', { url: 'https://newcomer.example.org/mcp' });
  assert.equal(fresh.listed_now, true);
  assert.equal(fresh.lane, 'queued');
  const again = await ok('join_and_contribute', { url: 'https://newcomer.example.org/mcp' });
  assert.equal(again.listing_id, fresh.listing_id);
  assert.equal(again.listed_now, false);
  assert.equal((await fails('join_and_contribute', {})).field, 'url');
});

test(`seed_compositions proposes Live pairs for capabilities asked together; the feed shows endorsements and compositions (${engine})`, async () => {
  clock.advance(DAY_MS);
  const at = clock.now().toISOString();
  for (const id of ['cmp_s1', 'cmp_s2']) {
    await insertComposition(app.services.db.kysely, { composition_id: id, owner: 'fixture', listing_id: null, goal: null, capabilities: ['send email', 'translate text'], steps: [], gaps: [], created_at: at });
  }
  const seeds = await ok('seed_compositions', {});
  const s = seeds.seeds.find((x: Structured) => x.capabilities.join() === 'send email,translate text');
  assert.ok(s, JSON.stringify(seeds));
  assert.equal(s.asked_together >= 2, true);
  assert.deepEqual(s.partners.map((p: Structured) => p.listing_id), [L.a, L.b]);
  assert.equal(s.next_step.tool, 'mesh_compose');
  const mine = await ok('seed_compositions', { listing_id: L.b });
  assert.ok(mine.seeds.every((x: Structured) => x.partners.some((p: Structured) => p.listing_id === L.b)));

  // Endorsing acts for the endorser with its owner token. Alpha and Bravo share one owner domain
  // (example.org): Alpha's endorsement is recorded but moves nothing and never reaches the feed.
  const foxtrot = await seed('foxtrot.example.net', 'mcp', 'Foxtrot', [{ name: 'count_words', description: 'Count the words of a text', params: [{ name: 'text', required: true }] }], '2025-11-25');
  const [alpha, fox] = [await connectClient(asOwner(await ownListing(app, L.a))), await connectClient(asOwner(await ownListing(app, foxtrot)))];
  try {
    assert.equal((await fails('endorse', { listing_id: L.a, partner_listing_id: L.b })).code, 'owner_token_required');
    const sibling = await ok('endorse', { listing_id: L.a, partner_listing_id: L.b, body: 'Bravo translated our notes well.' }, alpha);
    assert.deepEqual([sibling.counted, sibling.moves_rank], [true, false]);
    assert.ok(!(await getJson(app, '/api/feed')).body.items.some((i: Structured) => i.event === 'endorsement.counted'));
    // From a Live listing of another owner domain it counts: the feed shows it.
    const endorsed = await ok('endorse', { listing_id: foxtrot, partner_listing_id: L.b, body: 'Bravo translated our notes well.' }, fox);
    assert.deepEqual([endorsed.counted, endorsed.moves_rank], [true, true]);
  } finally {
    await alpha.close();
    await fox.close();
  }
  const feed = (await getJson(app, '/api/feed')).body;
  const e = feed.items.find((i: Structured) => i.event === 'endorsement.counted');
  assert.deepEqual({ to: e.listing.id, from: e.from_listing_id }, { to: L.b, from: foxtrot });
  assert.ok(!JSON.stringify(feed).includes('translated our notes'), 'no free text in the feed');
  assert.ok(feed.items.some((i: Structured) => i.event === 'composition.planned' && /^iss_/.test(i.composition_id)));
});

test(`trail strength breaks near-ties in search (${engine})`, async () => {
  const items = [{ name: 'convert_currency', description: 'Convert an amount between currencies at todays rate', params: [{ name: 'amount', required: true }] }];
  const one = await seed('twin-one.example.org', 'mcp', 'Currency Twin', items, '2025-11-25', 50);
  const two = await seed('twin-two.example.org', 'mcp', 'Currency Twin', items, '2025-11-25', 50);
  await app.services.search.poll();
  const order = async () => (await ok('search_active', { q: 'convert currency' })).hits.map((h: Structured) => h.listing_id).filter((id: string) => id === one || id === two);
  const [first, second] = await order();
  assert.equal(new Set([first, second]).size, 2);
  await put({ kind: 'listing', listing_id: second }, 'attraction', 10);
  await app.services.search.poll();
  assert.deepEqual(await order(), [second, first], 'the listing with the trail now leads its twin');
});
