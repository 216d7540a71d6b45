// The mesh value tools through the MCP door with the official SDK client: mesh_match
// ranks Live partners whose stored skills or tools cover the asked capabilities (self excluded,
// demand traces left, nothing unrelated), mesh_compose plans the fewest partners by greedy set
// cover (ties: trail strength, then probe score), reports gaps and stores the composition; quotas,
// next_step round trips and bad inputs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { deposit } from '../src/traces/store.ts';
import { subjectKey } from '../src/traces/subjects.ts';
import { composedPeers, compositionsOfListing, countCompositionEdges, findComposition } from '../src/mesh/store.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let base: string;
let client: Client;

type Structured = Record<string, any>;
type Result = { isError?: boolean; structuredContent: Structured };

/** A tools/call on `via` (default: the anonymous client). */
async function call(name: string, args: Record<string, unknown>, via = client): Promise<Result> {
  return (await via.callTool({ name, arguments: args })) as unknown as Result;
}
const ok = async (name: string, args: Record<string, unknown>, via = client) => {
  const r = await call(name, args, via);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.structuredContent)}`);
  assert.equal(r.structuredContent.ok, true);
  return r.structuredContent;
};
const fails = async (name: string, args: Record<string, unknown>) => {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent.error as { code: string; message: string; field?: string; details?: any };
};
/** Feeds a next_step back into tools/call, as an agent would. */
const follow = (next: { tool: string; args: Record<string, unknown> }) => ok(next.tool, next.args);

interface Item {
  name: string;
  title?: string;
  description: string;
  params?: { name: string; required: boolean; description?: string }[];
  tags?: string[];
}

/** An SDK client; with `headers` (an owner token) on every request. */
async function connectClient(headers?: Record<string, string>): Promise<Client> {
  const c = new Client({ name: 'mesh-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), headers ? { requestInit: { headers } } : undefined));
  await c.listTools(); // the client then checks every result against the tool's outputSchema
  return c;
}

/** Publishes a listing and makes it Live (or another lane) with the given skills or tools. */
async function seed(url: string, kind: 'agent' | 'mcp', name: string, items: Item[], probeScore: number, lane: 'active' | 'failed' = 'active'): Promise<string> {
  const res = await postJson(app, '/api/publish', { url });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = clock.now().toISOString();
  const capabilities = JSON.stringify({ names: items.map((i) => i.name), items: items.map((i) => ({ params: [], ...i })) });
  await setListingState(
    app,
    id,
    { lane, kind, name, description: `${name}, a ${kind === 'agent' ? 'A2A agent' : 'MCP server'} for tests`, capabilities, live_since: lane === 'active' ? now : null, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: probeScore, probed_at: now },
    now,
  );
  return id;
}

const ids = {} as Record<'office' | 'mailer' | 'pixel' | 'polyglot' | 'weather' | 'ghost', string>;

before(async () => {
  app = await startApp({ clock, env: { SEARCH_POLL_MS: '0' } });
  base = await app.listen();
  client = await connectClient();
  const text = { name: 'text', required: true, description: 'The text to translate' };
  ids.office = await seed(
    'https://office.example.org/mcp',
    'mcp',
    'Office Suite',
    [
      { name: 'translate_text', description: 'Translate text between languages', params: [text, { name: 'target_lang', required: true }, { name: 'formality', required: false }] },
      { name: 'send_email', description: 'Send an email message to a recipient', params: [{ name: 'to', required: true }, { name: 'subject', required: true }, { name: 'body', required: true }] },
      { name: 'summarize_document', description: 'Summarize a long document into key points', params: [{ name: 'document', required: true }] },
    ],
    60,
  );
  ids.mailer = await seed(
    'https://mailer.example.org/mcp',
    'mcp',
    'Mailer',
    [
      { name: 'send_email', description: 'Send an email to anyone', params: [{ name: 'to', required: true }, { name: 'body', required: true }] },
      { name: 'resize_image', description: 'Resize an image to a given width and height', params: [{ name: 'image_url', required: true }] },
    ],
    80,
  );
  ids.pixel = await seed('https://pixel.example.org/mcp', 'mcp', 'Pixel', [{ name: 'resize_image', description: 'Resize or crop an image', params: [{ name: 'image_url', required: true }, { name: 'width', required: true }] }], 70);
  ids.polyglot = await seed(
    'https://polyglot.example.org/.well-known/agent-card.json',
    'agent',
    'Polyglot',
    [{ name: 'translate', title: 'Translate text', description: 'Translates short texts into French, German or Spanish', tags: ['translation'] }],
    90,
  );
  ids.weather = await seed('https://weather.example.org/mcp', 'mcp', 'Weather', [{ name: 'get_forecast', description: 'Weather forecast for a city', params: [{ name: 'city', required: true }] }], 95);
  ids.ghost = await seed('https://ghost.example.org/mcp', 'mcp', 'Ghost Mailer', [{ name: 'send_email', description: 'Send an email' }], 99, 'failed');
  await app.services.search.poll();
});
after(async () => {
  await client.close();
  await app.close();
});

/** Each test starts on a new UTC day: fresh allowances. */
const newDay = () => clock.advance(DAY_MS);

test(`mesh_match and mesh_compose are listed as tools with schemas (${engine})`, async () => {
  const { tools } = await client.listTools();
  for (const name of ['mesh_match', 'mesh_compose']) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, name);
    assert.ok((tool.description ?? '').length > 100);
    assert.ok(tool.inputSchema.properties && 'capabilities' in tool.inputSchema.properties);
    assert.ok(tool.outputSchema);
  }
});

test(`mesh_match ranks covering Live partners first, excludes self, leaves demand traces (${engine})`, async () => {
  newDay();
  const r = await ok('mesh_match', { capabilities: ['send email', 'resize image'], agent_name: 'matcher' });
  const order = r.hits.map((h: Structured) => h.listing_id);
  assert.equal(order[0], ids.mailer, 'the partner covering both comes first');
  assert.deepEqual(new Set(order.slice(1)), new Set([ids.office, ids.pixel]));
  assert.ok(!order.includes(ids.weather), 'no unrelated hit');
  assert.ok(!order.includes(ids.ghost), 'a listing that is not Live is never offered');
  const top = r.hits[0];
  assert.deepEqual(top.matched, ['send email', 'resize image']);
  assert.equal(top.covers, 2);
  assert.equal(top.kind, 'mcp');
  assert.equal(top.url, 'https://mailer.example.org/mcp');
  assert.deepEqual(top.via.map((v: Structured) => v.tool), ['send_email', 'resize_image']);
  assert.equal(top.score_parts.probe_score, 80);
  assert.equal(top.score_parts.trail_strength, 0);
  assert.ok(top.score_parts.relevance > 0 && top.score_parts.relevance <= 100);
  const send = top.calls.find((c: Structured) => c.params.name === 'send_email');
  assert.deepEqual(send, {
    protocol: 'mcp',
    endpoint: 'https://mailer.example.org/mcp',
    method: 'tools/call',
    capability: 'send email',
    params: { name: 'send_email', arguments: { to: '<to>', body: '<body>' } },
    parameters: [
      { name: 'to', required: true },
      { name: 'body', required: true },
    ],
  });
  // Between partners that cover one each, the score parts order them: Pixel (probe 70) vs Office (60).
  assert.ok(r.hits[1].score >= r.hits[2].score);
  assert.equal(r.meter.event_id, 'mesh_match');
  assert.equal(r.meter.used_today, 1);
  assert.equal(r.demand_traces, 2);

  // Self is excluded: the mailer asking for the same gets the others. A listing_id alone never
  // chooses who pays: without the mailer's owner token the call is the caller's own (its address).
  const stranger = await ok('mesh_match', { capabilities: ['send email', 'resize image'], listing_id: ids.mailer });
  assert.ok(!stranger.hits.some((h: Structured) => h.listing_id === ids.mailer));
  assert.equal(stranger.meter.subject.kind, 'address');
  assert.match(stranger.meter.subject.note, /owner token/);
  // With the owner token it spends the listing's own allowance.
  const mailer = await connectClient(asOwner(await ownListing(app, ids.mailer)));
  const self = await ok('mesh_match', { capabilities: ['send email', 'resize image'], listing_id: ids.mailer }, mailer).finally(() => mailer.close());
  assert.ok(!self.hits.some((h: Structured) => h.listing_id === ids.mailer));
  assert.equal(self.excluded, ids.mailer);
  assert.deepEqual([self.meter.subject.kind, self.meter.subject.label, self.meter.used_today], ['listing', ids.mailer, 1], 'the owner spends its listing\'s allowance');

  // A demand trace per capability, deposited by the caller in the metered transaction (the stranger's under its address).
  const demand = await app.sql.selectFrom('trace_deposits').select(['subject_key', 'depositor', 'intensity']).where('channel', '=', 'demand').where('depositor', '=', `listing:${ids.mailer}`).execute();
  assert.deepEqual(demand.map((d) => d.subject_key).sort(), ['cap:resize image', 'cap:send email']);
  const byAddress = await app.sql.selectFrom('trace_deposits').select('subject_key').where('channel', '=', 'demand').where('depositor', 'like', 'addr:%').execute();
  assert.deepEqual(byAddress.map((d) => d.subject_key).sort(), ['cap:resize image', 'cap:send email']);
  const named = await app.sql.selectFrom('trace_deposits').select('depositor').where('channel', '=', 'demand').where('depositor', 'like', 'name:%:matcher').execute();
  assert.equal(named.length, 2);
  const field = await app.sql.selectFrom('trace_field').select(['subject_key', 'deposits']).where('channel', '=', 'demand').where('subject_key', '=', 'cap:send email').executeTakeFirstOrThrow();
  assert.ok(field.deposits >= 2);

  // The A2A agent is offered with a message/send call; one string is split at commas.
  const tr = await ok('mesh_match', { capabilities: 'translate text, summarize document', agent_name: 'matcher' });
  assert.deepEqual(tr.capabilities, ['translate text', 'summarize document']);
  assert.equal(tr.hits[0].listing_id, ids.office, 'covers both');
  const agent = tr.hits.find((h: Structured) => h.listing_id === ids.polyglot);
  assert.ok(agent, 'the translating agent is a partner');
  assert.deepEqual(agent.matched, ['translate text']);
  assert.equal(agent.calls[0].protocol, 'a2a');
  assert.equal(agent.calls[0].method, 'message/send');
  assert.equal(agent.calls[0].params.message.parts[0].kind, 'text');
  assert.match(agent.calls[0].params.message.parts[0].text, /"translate"/);
  const agentsOnly = await ok('mesh_match', { capabilities: ['translate text'], kind: 'agent', agent_name: 'matcher' });
  assert.deepEqual(agentsOnly.hits.map((h: Structured) => h.listing_id), [ids.polyglot]);

  // next_step is valid input for mesh_compose.
  assert.equal(r.next_step.tool, 'mesh_compose');
  assert.deepEqual(r.next_step.args.capabilities, ['send email', 'resize image']);
  assert.deepEqual(new Set(r.next_step.args.candidates), new Set(order));
  const composed = await follow(r.next_step);
  assert.deepEqual(composed.steps.map((s: Structured) => s.listing_id), [ids.mailer]);
  assert.deepEqual(composed.gaps, []);
});

test(`mesh_match never returns unrelated hits; its next_step searches the registry (${engine})`, async () => {
  newDay();
  const r = await ok('mesh_match', { capabilities: ['book a flight'], agent_name: 'lonely' });
  assert.equal(r.count, 0);
  assert.deepEqual(r.hits, []);
  assert.deepEqual(r.uncovered, ['book a flight']);
  // "send sms" is not "send email": a shared word is not coverage.
  const sms = await ok('mesh_match', { capabilities: ['send sms'], agent_name: 'lonely' });
  assert.equal(sms.count, 0, JSON.stringify(sms.hits));
  assert.equal(r.next_step.tool, 'ard_search');
  const searched = await follow(r.next_step);
  assert.equal(searched.query, 'book a flight');
  // Demand is left even when nothing matches (list_opportunities reads it later).
  const demand = await app.sql.selectFrom('trace_field').select('deposits').where('channel', '=', 'demand').where('subject_key', '=', 'cap:book a flight').executeTakeFirst();
  assert.equal(demand?.deposits, 1);
});

test(`mesh_match with only a listing_id returns partners that complement it (${engine})`, async () => {
  newDay();
  // Fresh demand for translation and email; the translating agent lacks email.
  await ok('mesh_match', { capabilities: ['send email', 'translate text'], agent_name: 'wants' });
  const r = await ok('mesh_match', { listing_id: ids.polyglot });
  assert.equal(r.complementary.rule, 'demand');
  assert.ok(r.capabilities.includes('send email'));
  assert.ok(!r.capabilities.includes('translate text'), 'what it covers itself is not asked for');
  assert.ok(!r.hits.some((h: Structured) => h.listing_id === ids.polyglot));
  assert.ok(r.hits.some((h: Structured) => h.listing_id === ids.mailer));
  assert.equal(r.demand_traces, 0, 'a complementary match asked for nothing itself');
  assert.equal(r.next_step.tool, 'mesh_compose');
  assert.equal(r.next_step.args.listing_id, ids.polyglot);
  const plan = await follow(r.next_step);
  assert.equal(plan.listing_id, ids.polyglot);
  assert.ok(plan.steps.length >= 1);
});

test(`with nothing in demand, complementary partners offer what the listing lacks (${engine})`, async (t) => {
  // A network of its own: no demand traces at all.
  const own = await startApp({ env: { SEARCH_POLL_MS: '0' } });
  t.after(() => own.close());
  const now = own.clock.now().toISOString();
  const put = async (url: string, name: string, tools: string[]) => {
    const id = (await postJson(own, '/api/publish', { url })).body.listing_id as string;
    const items = tools.map((n) => ({ name: n, description: n.replace(/_/g, ' '), params: [] }));
    await setListingState(own, id, { lane: 'active', name, capabilities: JSON.stringify({ names: tools, items }), probe_score: 50, probe_ok: 1, checks_clean: 1, probed_at: now }, now);
    return id;
  };
  const me = await put('https://me.example.org/mcp', 'Me', ['send_email']);
  const other = await put('https://other.example.org/mcp', 'Other', ['send_email', 'resize_image']);
  const third = await put('https://third.example.org/mcp', 'Third', ['resize_image', 'get_forecast']);
  await own.services.search.poll();
  const res = await own.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'mesh_match', arguments: { listing_id: me } } } });
  const r = res.json().result.structuredContent;
  assert.equal(r.complementary.rule, 'supply');
  // Offered by two listings first, then by one; what it has itself (send_email) is left out.
  assert.deepEqual(r.capabilities, ['resize_image', 'get_forecast']);
  assert.deepEqual(r.hits.map((h: Structured) => h.listing_id), [third, other]);
  // A listing never probed has nothing to complement: name the capabilities.
  const bare = (await postJson(own, '/api/publish', { url: 'https://bare.example.org/mcp' })).body.listing_id;
  const err = await own.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'mesh_match', arguments: { listing_id: bare } } } });
  assert.equal(err.json().result.structuredContent.error.field, 'capabilities');
});

test(`mesh_compose covers with the fewest partners, breaks ties by trail then probe score, reports gaps, stores the plan (${engine})`, async () => {
  newDay();
  const capabilities = ['translate text', 'send email', 'summarize document', 'resize image', 'book a flight'];
  const before = await countCompositionEdges(app.services.db.kysely);
  const r = await ok('mesh_compose', { capabilities, agent_name: 'composer' });
  assert.match(r.composition_id, /^cmp_/);
  assert.equal(r.partners, 2, 'one partner covers 3 of 4, one more covers the 4th');
  assert.deepEqual(
    r.steps.map((s: Structured) => [s.step, s.listing_id, s.covers]),
    [
      [1, ids.office, ['translate text', 'send email', 'summarize document']],
      // Mailer and Pixel each cover the one left; no trails yet, so the higher probe score (80 > 70).
      [2, ids.mailer, ['resize image']],
    ],
  );
  assert.deepEqual(r.gaps, ['book a flight']);
  const office = r.steps[0];
  assert.equal(office.kind, 'mcp');
  assert.equal(office.endpoint, 'https://office.example.org/mcp');
  assert.deepEqual(
    office.calls.map((c: Structured) => [c.method, c.params.name, c.params.arguments]),
    [
      ['tools/call', 'translate_text', { text: '<text>', target_lang: '<target_lang>' }],
      ['tools/call', 'send_email', { to: '<to>', subject: '<subject>', body: '<body>' }],
      ['tools/call', 'summarize_document', { document: '<document>' }],
    ],
  );
  assert.equal(r.meter.event_id, 'mesh_compose');

  // Stored, and readable by id, by listing, as peers and as edges.
  const stored = await findComposition(app.services.db.kysely, r.composition_id);
  assert.ok(stored);
  assert.deepEqual(stored.capabilities, capabilities);
  assert.deepEqual(stored.gaps, ['book a flight']);
  assert.deepEqual(stored.steps, r.steps);
  assert.match(stored.owner, /^name:[0-9a-f]+:composer$/);
  const ofMailer = await compositionsOfListing(app.services.db.kysely, ids.mailer, 10);
  assert.ok(ofMailer.some((c) => c.composition_id === r.composition_id && c.role === 'partner'));
  const peers = await composedPeers(app.services.db.kysely, ids.office, 10);
  assert.ok(peers.some((p) => p.listing_id === ids.mailer && p.compositions >= 1));
  const edges = await countCompositionEdges(app.services.db.kysely);
  assert.equal(edges.compositions, before.compositions + 1);
  assert.ok(edges.edges >= 1);

  // Gaps remain: next_step looks for partners for them, as valid mesh_match input, as the same caller.
  assert.equal(r.next_step.tool, 'mesh_match');
  assert.deepEqual(r.next_step.args, { capabilities: ['book a flight'], agent_name: 'composer' });
  const again = await follow(r.next_step);
  assert.equal(again.count, 0);

  // Attraction on Pixel: now the tie for "resize image" goes to the stronger trail.
  await deposit(app.services.db.kysely, { channel: 'attraction', subject: subjectKey({ kind: 'listing', listing_id: ids.pixel }), intensity: 20, body: null, depositor: 'system', at: clock.now() });
  const trail = await ok('mesh_compose', { capabilities: capabilities.slice(0, 4), agent_name: 'composer' });
  assert.deepEqual(
    trail.steps.map((s: Structured) => s.listing_id),
    [ids.office, ids.pixel],
  );
  assert.equal(trail.steps[1].trail_strength, 20);
  assert.deepEqual(trail.gaps, []);
  // No gaps: next_step is the ladder's next rung, used_with on the first two partners, valid input.
  assert.equal(trail.next_step.tool, 'used_with');
  assert.equal(trail.next_step.args.listing_id, trail.steps[0].listing_id);
  assert.equal(trail.next_step.args.composition_id, trail.composition_id);
  const used = await follow(trail.next_step);
  assert.equal(used.next_step.tool, 'execute_compose');
  assert.equal(used.next_step.args.composition_id, trail.composition_id);
  // mesh_match ranks with the trail too: Pixel now beats Office among single-capability partners.
  const m = await ok('mesh_match', { capabilities: ['resize image'], agent_name: 'composer' });
  assert.equal(m.hits[0].listing_id, ids.pixel);
  assert.ok(m.hits[0].score_parts.trail_points > 0);
});

test(`mesh_compose from a goal derives capabilities from Live skills and tools; an owner covers its own part (${engine})`, async () => {
  newDay();
  const r = await ok('mesh_compose', { goal: 'Translate this text into French, then email it to the team', agent_name: 'goal-setter' });
  assert.equal(r.from_goal.length, 2, JSON.stringify(r.from_goal));
  assert.match(r.from_goal[0].capability, /^translate/);
  assert.equal(r.from_goal[1].capability, 'send_email');
  assert.deepEqual(r.gaps, []);
  assert.equal(r.partners, 1, 'the office suite does both');
  assert.equal(r.steps[0].listing_id, ids.office);
  assert.equal(r.goal, 'Translate this text into French, then email it to the team');

  // A need nothing serves stays as its words and becomes a gap.
  const gap = await ok('mesh_compose', { goal: 'resize the image and book a table for dinner', agent_name: 'goal-setter' });
  assert.equal(gap.from_goal[0].capability, 'resize_image');
  assert.equal(gap.from_goal[1].from_listing_id, null);
  assert.deepEqual(gap.gaps, ['book a table for dinner']);
  assert.equal(gap.next_step.tool, 'mesh_match');
  await follow(gap.next_step);

  // The owner (its owner token) covers email itself: only the image needs a partner, and the owner is never a step.
  newDay();
  const office = await connectClient(asOwner(await ownListing(app, ids.office)));
  const owned = await ok('mesh_compose', { capabilities: ['send email', 'resize image'], listing_id: ids.office }, office).finally(() => office.close());
  assert.equal(owned.meter.subject.kind, 'listing');
  assert.equal((await findComposition(app.services.db.kysely, owned.composition_id))?.owner, `listing:${ids.office}`);
  assert.deepEqual(owned.covered_by_self, ['send email']);
  assert.deepEqual(owned.steps.map((s: Structured) => [s.listing_id, s.covers]), [[ids.pixel, ['resize image']]]);
  const ofOffice = await compositionsOfListing(app.services.db.kysely, ids.office, 10);
  assert.equal(ofOffice.find((c) => c.composition_id === owned.composition_id)?.role, 'owner');

  // Explicit candidates: only they are used; one that is not Live is skipped and said so.
  const picked = await ok('mesh_compose', { capabilities: ['resize image', 'translate text'], candidates: [ids.mailer, ids.ghost, ids.polyglot], agent_name: 'picker' });
  assert.deepEqual(picked.steps.map((s: Structured) => s.listing_id).sort(), [ids.mailer, ids.polyglot].sort());
  assert.deepEqual(picked.skipped, [{ listing_id: ids.ghost, reason: 'not Live (lane failed)' }]);
  const a2a = picked.steps.find((s: Structured) => s.listing_id === ids.polyglot);
  assert.equal(a2a.calls[0].method, 'message/send');
  assert.equal(a2a.calls[0].params.message.messageId, `${picked.composition_id}-${a2a.step}`);
});

test(`mesh_compose allows 2 a day, then quota_exhausted until the next day (${engine})`, async () => {
  newDay();
  const args = { capabilities: ['resize image'], agent_name: 'quota' };
  assert.equal((await ok('mesh_compose', args)).meter.remaining, 1);
  assert.equal((await ok('mesh_compose', args)).meter.remaining, 0);
  const err = await fails('mesh_compose', args);
  assert.equal(err.code, 'quota_exhausted');
  assert.equal(err.details.event_id, 'mesh_compose');
  assert.ok(err.details.resets_at);
  const rows = await app.sql.selectFrom('compositions').select('id').where('owner', 'like', 'name:%:quota').execute();
  assert.equal(rows.length, 2, 'the refused call stored nothing');
  newDay();
  assert.equal((await ok('mesh_compose', args)).meter.used_today, 1);
});

test(`bad inputs are clear 400s and 404s that cost nothing (${engine})`, async () => {
  newDay();
  const who = { agent_name: 'careless' };
  let e = await fails('mesh_match', { capabilities: [], ...who });
  assert.equal(e.code, 'invalid_input');
  assert.equal(e.field, 'capabilities');
  e = await fails('mesh_match', { capabilities: ['translate', '  '], ...who });
  assert.equal(e.field, 'capabilities.1');
  e = await fails('mesh_match', { capabilities: ['the server'], ...who });
  assert.equal(e.field, 'capabilities.0');
  e = await fails('mesh_match', { capabilities: Array.from({ length: 11 }, (_, i) => `capability ${i}`), ...who });
  assert.equal(e.code, 'invalid_input');
  assert.match(e.message, /at most 10/);
  e = await fails('mesh_match', { capabilities: ['x'.repeat(201)], ...who });
  assert.equal(e.code, 'invalid_input');
  e = await fails('mesh_match', { ...who });
  assert.equal(e.field, 'capabilities');
  e = await fails('mesh_match', { capabilities: ['translate'], listing_id: 'lst_nope' });
  assert.equal(e.code, 'not_found');
  assert.equal(e.field, 'listing_id');
  e = await fails('mesh_match', { capabilities: ['translate'], limit: 0, ...who });
  assert.equal(e.field, 'limit');
  e = await fails('mesh_match', { capabilities: ['translate'], limit: 'ten', ...who });
  assert.deepEqual([e.field, e.message], ['limit', 'invalid input: limit: must be a whole number 1-100']);
  e = await fails('mesh_compose', { ...who });
  assert.equal(e.field, 'goal');
  e = await fails('mesh_compose', { goal: 'the and of', ...who });
  assert.equal(e.field, 'goal');
  e = await fails('mesh_compose', { capabilities: ['translate'], candidates: [ids.office, 'lst_nope'], ...who });
  assert.equal(e.code, 'not_found');
  assert.equal(e.field, 'candidates.1');
  e = await fails('mesh_compose', { capabilities: ['translate'], listing_id: 'lst_nope' });
  assert.equal(e.code, 'not_found');
  // None of them spent a unit.
  assert.equal((await ok('mesh_match', { capabilities: ['translate'], ...who })).meter.used_today, 1);
  assert.equal((await ok('mesh_compose', { capabilities: ['translate'], ...who })).meter.used_today, 1);
});
