// Network economics through the MCP SDK client: network_value, get_acceleration,
// get_exonomics, hyper_index, abundance_rank, zero_mc_pack, s_curve_board, get_platform_cost and
// get_agent_runs, each checked against values worked out by hand on a small fixture network that
// changes across UTC day boundaries moved by the clock. Bad inputs are clear errors. A listing's own
// runs and allowance are read with its owner token (Authorization: Bearer rco_...); without it, a
// caller naming the listing reads its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { insertComposition } from '../src/mesh/store.ts';
import { recordOutcome } from '../src/traces/outcomes.ts';
import { recordEndorsement } from '../src/traces/queries.ts';
import { takeUnit, recordPaidUnit } from '../src/metering/store.ts';
import { grantFor } from '../src/metering/grants.ts';
import { listingSubject } from '../src/metering/caller.ts';
import { networkValueTask } from '../src/economics/tasks.ts';

const clock = new ManualClock('2026-11-01T10:00:00.000Z');
let app: TestApp;
let client: Client;
let base: string;
/** Owners' clients (each with its listing's owner token on the transport), by listing, connected when first needed. */
const owners = new Map<string, Client>();

before(async () => {
  app = await startApp({
    clock,
    env: {
      PROBE_ALLOW_PRIVATE: '1',
      // Unit costs chosen so the estimate reads in whole dollars: $1 a request, $2 a tool call,
      // $3 a probe fetch, $1 a stored row per day (30 per month).
      COST_USD_PER_M_REQUESTS: '1000000',
      COST_USD_PER_M_TOOL_CALLS: '2000000',
      COST_USD_PER_K_PROBE_FETCHES: '3000',
      COST_USD_PER_M_ROWS_MONTH: '30000000',
      USAGE_FLUSH_S: '0',
    },
  });
  base = await app.listen();
  client = new Client({ name: 'economics-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  await client.listTools(); // results are then checked against each tool's outputSchema
});
after(async () => {
  for (const owner of owners.values()) await owner.close();
  await client.close();
  await app.close();
});

type Result = { isError?: boolean; structuredContent?: Record<string, any> };
async function call(name: string, args: Record<string, unknown> = {}, via = client) {
  const r = (await via.callTool({ name, arguments: args })) as Result;
  assert.ok(!r.isError, `${name}: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent!;
}
async function failure(name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent!.error as { code: string; message: string; field?: string };
}
const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-5, `${what}: ${a} != ${b}`);

/** An SDK client that sends the listing's owner token. */
async function ownerOf(listingId: string): Promise<Client> {
  const known = owners.get(listingId);
  if (known) return known;
  const owner = new Client({ name: 'economics-test-owner', version: '1.0.0' });
  await owner.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), { requestInit: { headers: asOwner(await ownListing(app, listingId)) } }));
  await owner.listTools();
  owners.set(listingId, owner);
  return owner;
}

let n = 0;
async function liveListing(name: string, caps: string[]): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: `https://econ-${++n}.example.org/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', live_since: now, name, capabilities: JSON.stringify({ names: caps, items: [] }), checks_clean: 1, probe_ok: 1, probe_score: 70 }, now);
  return id;
}
const ex = () => app.services.db.kysely;
const outcome = (listing: string | null, quality: number, from: string, depositor: string) =>
  recordOutcome(ex(), { listing_id: listing, ok: quality >= 0.5, quality, body: 'worked as planned for the test', from, depositor, at: clock.now().toISOString() });

const ids: Record<'a' | 'b' | 'c' | 'd', string> = { a: '', b: '', c: '', d: '' };
/** value = N (1 + ln(1 + E)) (1 + Q/N), worked out for each day below. */
const V1 = 3 * (1 + Math.log(1 + 3)) * (1 + 1.3 / 3); // N 3, E 3, Q 0.8 + 0.5
const V2 = 4 * (1 + Math.log(1 + 3)) * (1 + 2.3 / 4); // a 4th listing; Q + 1.0
const V3 = 4 * (1 + Math.log(1 + 3)) * (1 + 3.0 / 4); // Q + 0.7

test('day 1: network_value is N, E and Q of the fixture network by the DESIGN.md formula', async () => {
  const empty = await call('network_value');
  assert.equal(empty.value, 0, 'no Active listing: value 0');
  ids.a = await liveListing('Alpha', ['search', 'summarize']);
  ids.b = await liveListing('Beta', ['search', 'translate']);
  ids.c = await liveListing('Gamma', ['Search', 'summarize']);
  // One composition of A with partners B and C: the pairs AB, AC, BC are its 3 edges.
  await insertComposition(ex(), {
    composition_id: 'cmp_econ1',
    owner: `listing:${ids.a}`,
    listing_id: ids.a,
    goal: 'search then summarize',
    capabilities: ['search', 'summarize', 'translate'],
    steps: [ids.b, ids.c].map((id, i) => ({ step: i + 1, listing_id: id, kind: 'mcp' as const, name: 'x', endpoint: 'https://x.example.org/mcp', covers: [], calls: [], trail_strength: 0, probe_score: 70 })),
    gaps: [],
    created_at: clock.now().toISOString(),
  });
  await outcome(ids.b, 0.8, 'mesh_compose', `listing:${ids.a}`);
  await outcome(ids.c, 0.5, 'improve_kernel', `listing:${ids.a}`);
  await recordEndorsement(ex(), { from: ids.a, to: ids.b, day: '2026-11-01', depositor: `listing:${ids.a}`, at: clock.now().toISOString() });

  const v = await call('network_value', { days: 7 });
  assert.deepEqual([v.parts.active, v.parts.edges, v.parts.compositions, v.parts.outcomes], [3, 3, 1, 2]);
  near(v.parts.quality, 1.3, 'Q');
  near(v.value, V1, 'value');
  assert.equal(v.day, '2026-11-01');
  assert.equal(v.history.length, 1, 'one stored point for the day, however often it is measured');
  near(v.history[0].value, V1, 'stored point');
});

test('day boundary: a new UTC day gets its own point, the old one keeps its last measure; acceleration from three days', async () => {
  clock.set('2026-11-01T23:59:30.000Z');
  near((await call('network_value')).value, V1, 'late on day 1, unchanged');
  clock.set('2026-11-02T00:00:30.000Z');
  ids.d = await liveListing('Delta', ['translate']);
  await outcome(ids.d, 1.0, 'mesh_match', 'name:someone');
  // The periodic task stores the day's point too (the same row the tool writes).
  await inTransaction(ex(), (trx) => networkValueTask(app.config).run(trx, clock.now()));
  const day2 = await call('network_value');
  near(day2.value, V2, 'day 2 value');
  assert.deepEqual(day2.history.map((p: any) => p.day), ['2026-11-01', '2026-11-02']);
  near(day2.history[0].value, V1, 'day 1 is kept as measured on day 1');

  clock.set('2026-11-03T09:00:00.000Z');
  await outcome(ids.a, 0.7, 'mesh_compose', 'name:someone');
  const acc = await call('get_acceleration', { days: 7 });
  assert.equal(acc.days.length, 3);
  assert.equal(acc.days[0].velocity, null);
  near(acc.days[1].velocity, V2 - V1, 'velocity day 2');
  near(acc.days[2].velocity, V3 - V2, 'velocity day 3');
  near(acc.days[2].acceleration, V3 - V2 - (V2 - V1), 'acceleration day 3');
  assert.equal(acc.trend, V3 - V2 - (V2 - V1) > 0 ? 'accelerating' : 'decelerating');

  // A missing day is divided out: day 5 after day 3 is a two-day gap.
  clock.set('2026-11-05T09:00:00.000Z');
  await outcome(ids.b, 1.0, 'mesh_compose', 'name:someone');
  const V5 = 4 * (1 + Math.log(4)) * (1 + 4.0 / 4);
  const gap = await call('get_acceleration', { days: 7 });
  near(gap.latest.velocity, (V5 - V3) / 2, 'velocity over a gap');
});

test('get_exonomics: units used, refilled and paid per event and day, outcomes back, value per unit', async () => {
  // A's units are spent from its owner domain's allowance (econ-N.example.org all share example.org); its work is its own.
  const s = listingSubject(ids.a, 'example.org');
  await takeUnit(ex(), s.allowance, '2026-11-05', 'improve_kernel', 3);
  await takeUnit(ex(), s.allowance, '2026-11-05', 'improve_kernel', 3);
  await recordPaidUnit(ex(), s.allowance, '2026-11-05', 'improve_kernel');
  await inTransaction(ex(), (trx) => grantFor(trx, s, 'leave_trace', clock.now())); // +1 mesh_match, +1 network_sense
  await outcome(ids.c, 0.6, 'improve_kernel', s.key);
  const x = await call('get_exonomics', { days: 1 });
  const kernel = x.events.find((e: any) => e.event_id === 'improve_kernel');
  assert.deepEqual([kernel.used, kernel.paid, kernel.paid_cents, kernel.outcomes], [2, 1, 25, 1]);
  near(kernel.value_per_unit, 0.6 / 3, 'quality per unit');
  const match = x.events.find((e: any) => e.event_id === 'mesh_match');
  assert.deepEqual([match.used, match.refilled], [0, 1]);
  assert.equal(x.days.length, 1);
  assert.equal(x.days[0].day, '2026-11-05');
  assert.equal(x.days[0].outcomes.count, 2, 'the two outcomes of day 5');
  near(x.days[0].outcomes.quality, 1.6, 'day 5 quality');
  near(x.totals.value_per_unit, 1.6 / 3, 'day 5 quality per unit');
  const wide = await call('get_exonomics', { days: 7 });
  assert.equal(wide.totals.outcomes, 6, 'every outcome of the week: 2 + 1 + 1 + 2');
  const only = await call('get_exonomics', { days: 7, event_id: 'mesh_compose' });
  assert.deepEqual(only.events.map((e: any) => [e.event_id, e.outcomes]), [['mesh_compose', 3]]);
});

test('hyper_index: capabilities with their listings and neighbours, co-occurring sets, filter', async () => {
  const h = await call('hyper_index');
  assert.deepEqual([h.listings, h.vertex_count, h.hyperedge_count], [4, 3, 3]);
  assert.deepEqual(h.capabilities.map((c: any) => [c.capability, c.listings]), [['search', 3], ['summarize', 2], ['translate', 2]]);
  assert.deepEqual(h.capabilities[0].co_occurs, [{ capability: 'summarize', listings: 2 }, { capability: 'translate', listings: 1 }]);
  assert.deepEqual(h.hyperedges.map((e: any) => [e.capabilities, e.listings]), [[['search', 'summarize'], 2], [['search', 'translate'], 1], [['translate'], 1]]);
  const t = await call('hyper_index', { capability: ' Translate ' });
  assert.equal(t.capability, 'translate');
  assert.deepEqual(t.capabilities[0].listing_ids.sort(), [ids.b, ids.d].sort());
  assert.equal(t.hyperedges.length, 2);
  const e = await failure('hyper_index', { capability: 'teleport' });
  assert.deepEqual([e.code, e.field], ['not_found', 'capability']);
});

test('abundance_rank: outcomes, endorsements and compositions served, by hand', async () => {
  const r = await call('abundance_rank');
  // B: 0.8 + 1.0 quality, 1 endorsement, 1 composition; C: 0.5 + 0.6, 1 composition; D: 1.0; A: 0.7.
  assert.deepEqual(r.ranks.map((x: any) => [x.listing_id, x.score]), [
    [ids.b, 3.8],
    [ids.c, 2.1],
    [ids.d, 1],
    [ids.a, 0.7],
  ]);
  assert.deepEqual((await call('abundance_rank', { kind: 'agent' })).ranks, []);
});

test('s_curve_board: cumulative adopters per product and listings per day, with a fit once there are enough days', async () => {
  const s = await call('s_curve_board', { days: 10 });
  const kernel = s.curves.find((c: any) => c.curve === 'product:kernel');
  assert.deepEqual(kernel.days.map((d: any) => [d.day, d.cumulative]), [['2026-11-05', 1]]);
  assert.equal(kernel.fit, null);
  assert.equal(kernel.phase, 'seed');
  const listings = s.curves.find((c: any) => c.curve === 'listings');
  assert.deepEqual(listings.days.map((d: any) => d.cumulative), [3, 4, 4, 4, 4]);
  assert.ok(listings.fit, 'five days: a fit');
  assert.ok(listings.fit.k >= 4);
  assert.equal(listings.phase, 'saturation', 'no growth for three days: saturated');
});

test('get_agent_runs: a listing\'s compositions and outcomes, for its owner; unknown listing is a 404', async () => {
  // Without A's owner token, naming A reads the caller's own runs (none), with a note saying why.
  const stranger = await call('get_agent_runs', { listing_id: ids.a });
  assert.equal(stranger.caller.kind, 'address');
  assert.equal(stranger.caller.listing_id, undefined);
  assert.match(stranger.caller.note, /owner token/);
  assert.deepEqual([stranger.compositions, stranger.outcomes], [[], []]);
  const r = await call('get_agent_runs', { listing_id: ids.a }, await ownerOf(ids.a));
  assert.equal(r.caller.listing_id, ids.a);
  assert.deepEqual(r.compositions.map((c: any) => [c.composition_id, c.role, c.partners]), [['cmp_econ1', 'owner', [ids.b, ids.c]]]);
  assert.equal(r.outcomes.length, 4, 'three deposited by A, one reported on A');
  assert.deepEqual(r.today.map((u: any) => [u.event_id, u.used, u.paid]).sort(), [['improve_kernel', 2, 1], ['mesh_match', 0, 0], ['network_sense', 0, 0]]);
  const partner = await call('get_agent_runs', { listing_id: ids.b }, await ownerOf(ids.b));
  assert.deepEqual(partner.compositions.map((c: any) => c.role), ['partner']);
  const e = await failure('get_agent_runs', { listing_id: 'lst_nope' });
  assert.deepEqual([e.code, e.field], ['not_found', 'listing_id']);
});

test('zero_mc_pack: always-free events and the caller\'s free units left today, demos of Live listings', async () => {
  // Without A's owner token: the caller's own allowance, untouched today.
  const mine = await call('zero_mc_pack', { listing_id: ids.a });
  assert.equal(mine.always_free[0].remaining_today, 10);
  assert.equal(mine.free_allowances.find((a: any) => a.event_id === 'improve_kernel').remaining_today, 3);
  // A's owner: the allowance of A's owner domain.
  const p = await call('zero_mc_pack', { listing_id: ids.a }, await ownerOf(ids.a));
  assert.deepEqual(p.always_free.map((a: any) => a.event_id), ['network_sense', 'collab_talk']);
  assert.equal(p.always_free[0].remaining_today, 11, '10 free + 1 refill');
  const kernel = p.free_allowances.find((a: any) => a.event_id === 'improve_kernel');
  assert.equal(kernel.remaining_today, 1, '3 free, 2 used');
  assert.equal(p.demos.length, 3, 'the 4 Live listings are MCPs: the top 3');
  assert.ok(p.links.discovery.startsWith(app.config.publicBaseUrl));
});

test('get_platform_cost: requests, tool calls and probe fetches counted where they happen, rows, estimate from unit costs', async () => {
  const first = await call('get_platform_cost', { days: 7 });
  await call('hyper_index');
  await call('hyper_index');
  // The app's prober probes Rollcall's own card on loopback: real outbound fetches, counted.
  const report = await app.services.probe.prober.probe(`${base}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(report.kind, 'agent', JSON.stringify(report));
  const second = await call('get_platform_cost', { days: 7 });
  assert.equal(second.totals.tool_calls - first.totals.tool_calls, 3, 'two hyper_index calls and this get_platform_cost');
  assert.ok(second.totals.requests - first.totals.requests >= 3, `the first call and two tool calls: ${JSON.stringify([first.totals, second.totals])}`);
  assert.ok(second.totals.probe_fetches - first.totals.probe_fetches >= 1, `the probe fetched the card: ${JSON.stringify([first.totals, second.totals])}`);
  assert.equal(second.top_tools.find((t: any) => t.tool === 'hyper_index').calls, 5, 'three earlier (one refused) and two now');
  const t = second.totals;
  assert.deepEqual(second.estimate_usd, {
    requests: t.requests,
    tool_calls: 2 * t.tool_calls,
    probe_fetches: 3 * t.probe_fetches,
    storage: t.rows * 7,
    total: t.requests + 2 * t.tool_calls + 3 * t.probe_fetches + t.rows * 7,
  });
  assert.equal(second.storage.tables.find((x: any) => x.table === 'econ_network_value')?.rows, 4, 'four stored days (1, 2, 3, 5)');
  // The next UTC day starts its own counts.
  clock.set('2026-11-06T00:00:10.000Z');
  const next = await call('get_platform_cost', { days: 2 });
  assert.deepEqual(next.days.map((d: any) => d.day), ['2026-11-05', '2026-11-06']);
  assert.equal(next.days[1].tool_calls, 1);
});

test('bad inputs are clear errors naming the field', async () => {
  for (const [tool, args, field] of [
    ['network_value', { days: 0 }, 'days'],
    ['get_acceleration', { days: 1000 }, 'days'],
    ['hyper_index', { limit: 'many' }, 'limit'],
    ['abundance_rank', { kind: 'robot' }, 'kind'],
    ['s_curve_board', { days: -1 }, 'days'],
    ['get_platform_cost', { days: 1.5 }, 'days'],
  ] as const) {
    const e = await failure(tool, args);
    assert.equal(e.code, 'invalid_input', `${tool} ${JSON.stringify(e)}`);
    assert.equal(e.field, field, `${tool} ${JSON.stringify(e)}`);
  }
  const extra = await failure('network_value', { dayz: 3 });
  assert.deepEqual([extra.code, extra.field], ['unknown_argument', 'dayz'], 'an unknown argument is refused, so a typo is not silently ignored');
  const e = await failure('get_exonomics', { event_id: 'nope' });
  assert.deepEqual([e.code, e.field], ['unknown_event', 'event_id']);
});
