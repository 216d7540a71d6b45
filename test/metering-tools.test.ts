// The metering read tools through the MCP door: list_event_pricing (SPEC.md 2.6 with the
// caller's usage), get_reciprocity (SPEC.md 8.2 with grants used), cost_model (free, refills,
// beyond, cost) and get_incentives (badge, talk, refills, un-endorsed Live partners). Each answer
// changes with the state it reads, bad input is a clear 400, and every next_step runs as given.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { installTestTool, TEST_TOOL } from './helpers/metered-tool.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { grantFor } from '../src/metering/grants.ts';
import { subjectOfListing, addressHash, type Subject } from '../src/metering/caller.ts';
import { deposit } from '../src/traces/store.ts';
import { subjectKey } from '../src/traces/subjects.ts';
import type { RefillAction } from '../src/metering/refills.ts';

installTestTool();

let app: TestApp;
const clock = new ManualClock('2026-11-01T12:00:00.000Z');
const NOW = '2026-11-01T12:00:00.000Z';
before(async () => {
  app = await startApp({ clock });
});
after(() => app.close());

type Result = { isError?: boolean; structuredContent: Record<string, any> };
let rpcId = 0;
let addr = 0;
const newAddress = () => `192.0.2.${++addr}`;

async function call(name: string, args: Record<string, unknown>, address = '192.0.2.250', headers: Record<string, string> = {}): Promise<Result> {
  const res = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    remoteAddress: address,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().result as Result;
}
const ok = (r: Result) => {
  assert.ok(!r.isError, JSON.stringify(r.structuredContent));
  return r.structuredContent;
};
const failure = (r: Result) => {
  assert.equal(r.isError, true, JSON.stringify(r.structuredContent));
  return r.structuredContent.error as { code: string; message: string; field?: string; details?: any };
};

/** Feeds a result's next_step back into tools/call, as a client would: it must run. */
async function followNextStep(result: Record<string, any>, address: string, headers: Record<string, string> = {}) {
  const step = result.next_step as { tool: string; args: Record<string, unknown>; why: string };
  assert.ok(step && typeof step.tool === 'string' && typeof step.why === 'string', JSON.stringify(result.next_step));
  return ok(await call(step.tool, step.args, address, headers));
}

const addressSubject = (address: string): Subject => ({ key: `addr:${addressHash(address)}`, allowance: `addr:${addressHash(address)}`, kind: 'address', label: 'x' });
const grant = (subject: Subject, action: RefillAction) => inTransaction(app.services.db.kysely, (trx) => grantFor(trx, subject, action, clock.now()));

let listings = 0;
const urlOf = (n: number) => `https://metering-${n}.example.org/mcp`;
async function liveListing(name?: string): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: urlOf(++listings) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  await setListingState(app, id, { lane: 'active', live_since: NOW, ...(name ? { name } : {}), checks_clean: 1, probe_ok: 1, probe_score: 80 }, NOW);
  return id;
}

test('list_event_pricing: the SPEC 2.6 catalog with every field and the caller\'s usage, which moves with metered calls', async () => {
  const address = newAddress();
  const first = ok(await call('list_event_pricing', {}, address));
  assert.equal(first.events.length, 11);
  const fields = ['event_id', 'product', 'unit', 'title', 'description', 'free_per_day', 'price_usd', 'price_cents', 'base_price_cents', 'feedback_driven', 'always_free'];
  for (const e of first.events) for (const f of fields) assert.ok(f in e, `${e.event_id}.${f}`);
  const match = first.events.find((e: any) => e.event_id === 'mesh_match');
  assert.deepEqual([match.free_per_day, match.price_cents, match.price_usd, match.always_free, match.feedback_driven], [5, 10, 0.1, false, false]);
  assert.deepEqual(match.usage, { used: 0, refills: 0, paid: 0, remaining: 5, cap: 5, free_base: 0, refills_used: 0 });
  assert.equal(match.daily_cap, undefined, 'a paid-for event has an allowance, not a cap');
  const sense = first.events.find((e: any) => e.event_id === 'network_sense');
  assert.deepEqual([sense.always_free, sense.daily_cap], [true, 10]);
  assert.match(sense.daily_cap_note, /never charged.*10 calls a day.*leave_trace.*daily_cap_reached/);
  assert.equal(first.caller.kind, 'address');
  assert.equal(first.resets_at, '2026-11-02T00:00:00.000Z');
  assert.deepEqual(first.x402, { enabled: false });
  assert.equal(first.next_step.tool, 'cost_model');
  await followNextStep(first, address);

  for (let i = 0; i < 5; i++) ok(await call(TEST_TOOL, {}, address));
  await grant(addressSubject(address), 'leave_trace');
  const after = ok(await call('list_event_pricing', {}, address));
  const m = after.events.find((e: any) => e.event_id === 'mesh_match');
  assert.deepEqual(m.usage, { used: 5, refills: 1, paid: 0, remaining: 1, cap: 6, free_base: 5, refills_used: 0 });
  assert.deepEqual(after.events.find((e: any) => e.event_id === 'network_sense').usage, { used: 0, refills: 1, paid: 0, remaining: 11, cap: 11, free_base: 0, refills_used: 0 });
  ok(await call(TEST_TOOL, {}, address));
  const spent = ok(await call('list_event_pricing', {}, address));
  assert.equal(spent.events.find((e: any) => e.event_id === 'mesh_match').usage.remaining, 0);
  assert.equal(spent.next_step.tool, 'get_reciprocity', 'a spent event points to the refills');
  await followNextStep(spent, address);
  // The next UTC day starts over.
  clock.advance(12 * 3600 * 1000);
  try {
    const tomorrow = ok(await call('list_event_pricing', {}, address));
    assert.deepEqual(tomorrow.events.find((e: any) => e.event_id === 'mesh_match').usage, { used: 0, refills: 0, paid: 0, remaining: 5, cap: 5, free_base: 0, refills_used: 0 });
  } finally {
    clock.set(NOW);
  }
});

test('list_event_pricing reads without spending: an agent name asked about is not counted against the address', async () => {
  const address = newAddress();
  for (let i = 0; i < 8; i++) {
    const r = ok(await call('list_event_pricing', { agent_name: `reader-${i}` }, address));
    assert.equal(r.caller.kind, 'name');
  }
  const named = await app.sql.selectFrom('meter_names').selectAll().where('address', '=', addressHash(address)).execute();
  assert.equal(named.length, 0);
  const bad = failure(await call('list_event_pricing', { listing_id: 7 }, address));
  assert.equal(bad.code, 'invalid_input');
  assert.equal(bad.field, 'listing_id');
});

test('get_reciprocity: the SPEC 8.2 table with grants used and left today, and what counts as honest', async () => {
  const address = newAddress();
  const r = ok(await call('get_reciprocity', {}, address));
  assert.deepEqual(
    r.refills.map((x: any) => [x.action, x.events, x.max_per_day, x.grants_today, x.grants_left_today]),
    [
      ['leave_feedback', ['improve_kernel', 'run_loop_tick', 'mesh_match', 'collab_session_open'], 3, 0, 3],
      ['leave_trace', ['mesh_match', 'network_sense'], 5, 0, 5],
      ['endorse', ['mesh_match', 'collab_session_step'], 3, 0, 3],
      ['deposit_outcome', ['improve_kernel', 'run_loop_tick', 'collab_session_step'], 3, 0, 3],
      ['connector_onboard', ['improve_kernel', 'collab_session_open'], 1, 0, 1],
    ],
  );
  for (const x of r.refills) {
    assert.ok(x.honest_when.length > 10, x.action);
    assert.ok(x.refused_when.length > 10, x.action);
  }
  assert.match(r.refills[0].honest_when, /real feedback/);
  const subject = addressSubject(address);
  for (let i = 0; i < 4; i++) await grant(subject, 'endorse');
  const after = ok(await call('get_reciprocity', {}, address));
  const endorse = after.refills.find((x: any) => x.action === 'endorse');
  assert.deepEqual([endorse.grants_today, endorse.grants_left_today], [3, 0], 'capped at 3 a day');
  await followNextStep(after, address);
});

test('cost_model: per event free left, refills reachable, units beyond and their cost; always-free costs 0 and waits', async () => {
  const address = newAddress();
  const r = ok(await call('cost_model', { mix: { improve_kernel: 5, mesh_compose: 5, network_sense: 20, collab_session_close: 1 } }, address));
  const by = Object.fromEntries(r.events.map((e: any) => [e.event_id, e]));
  // improve_kernel: 3 free; refills leave_feedback 3 + deposit_outcome 3 + connector_onboard 1 = 7 reachable.
  assert.deepEqual([by.improve_kernel.free_left, by.improve_kernel.refills_reachable, by.improve_kernel.covered_by_refills, by.improve_kernel.units_beyond, by.improve_kernel.cost_cents], [3, 7, 2, 0, 0]);
  assert.deepEqual(by.improve_kernel.refill_with, ['leave_feedback', 'deposit_outcome', 'connector_onboard']);
  // mesh_compose: 2 free, no refill adds it: 3 beyond at 20 cents.
  assert.deepEqual([by.mesh_compose.free_left, by.mesh_compose.refills_reachable, by.mesh_compose.units_beyond, by.mesh_compose.cost_cents], [2, 0, 3, 60]);
  assert.match(by.mesh_compose.note, /x402 is off on this server/);
  // network_sense: always free: 10 free + 5 leave_trace refills, 5 beyond that cost nothing and wait.
  assert.deepEqual([by.network_sense.units_beyond, by.network_sense.cost_cents, by.network_sense.always_free], [5, 0, true]);
  assert.match(by.network_sense.note, /always free.*wait for the reset/);
  // A tool that spends two events.
  assert.deepEqual(r.tools.collab_session_close, ['collab_converge', 'collab_package']);
  assert.equal(by.collab_package.planned, 1);
  assert.deepEqual([r.total.planned, r.total.units_beyond, r.total.cost_cents, r.total.cost_usd], [32, 8, 60, 0.6]);
  assert.equal(r.next_step.tool, 'get_reciprocity');
  await followNextStep(r, address);

  // It reads the caller's real day: after two compose units are used, none is left.
  const subject = addressSubject(address);
  const { metered } = await import('../src/metering/run.ts');
  const ctx = { ...app.services, caller: { address }, requestId: 'x', response: { headers: {}, meta: {} } };
  for (let i = 0; i < 2; i++) await metered(ctx, {}, 'mesh_compose', async () => 1);
  const later = ok(await call('cost_model', { mix: { mesh_compose: 1 } }, address));
  assert.deepEqual([later.events[0].free_left, later.events[0].units_beyond, later.total.cost_cents], [0, 1, 20]);
  assert.equal(later.caller.kind, subject.kind);
  await followNextStep(later, address);
});

test('cost_model refuses what it cannot plan with a clear 400 naming the field', async () => {
  const unknown = failure(await call('cost_model', { mix: { improve_kernel: 1, search_active: 2, nonsense: 1 } }));
  assert.equal(unknown.code, 'unknown_tool');
  assert.equal(unknown.field, 'mix.search_active');
  assert.match(unknown.message, /search_active, nonsense/);
  assert.deepEqual(
    unknown.details.map((d: any) => d.field),
    ['mix.search_active', 'mix.nonsense'],
  );
  for (const mix of [{}, { improve_kernel: -1 }, { improve_kernel: 1.5 }, 'improve_kernel']) {
    const bad = failure(await call('cost_model', { mix }));
    assert.equal(bad.code, 'invalid_input', JSON.stringify(mix));
    assert.match(bad.field ?? '', /^mix/);
  }
  assert.equal(failure(await call('cost_model', {})).field, 'mix');
});

test('with x402 on, pricing and cost_model say the units beyond are payable', async () => {
  const paying = await startApp({ clock, env: { X402_ENABLED: '1', X402_FACILITATOR_URL: 'http://127.0.0.1:9/', X402_PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' } });
  try {
    const res = await paying.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_event_pricing', arguments: {} } } });
    const pricing = res.json().result.structuredContent;
    assert.equal(pricing.x402.enabled, true);
    assert.equal(pricing.x402.network, 'base-sepolia');
    const improve = pricing.events.find((e: any) => e.event_id === 'improve_kernel');
    assert.deepEqual([improve.x402_payable, improve.x402_amount], [true, '250000']);
    assert.equal(pricing.events.find((e: any) => e.event_id === 'network_sense').x402_payable, false);
    const cost = await paying.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'cost_model', arguments: { mix: { mesh_compose: 3 } } } } });
    assert.match(cost.json().result.structuredContent.events[0].note, /through x402/);
  } finally {
    await paying.close();
  }
});

test('get_incentives: badge and rank delta, talk, refills left, and Live partners not endorsed today; each moves with its state', async () => {
  const id = await liveListing();
  const subject = subjectOfListing({ id, url: urlOf(listings) });
  // Unclaimed, its probes are its presence: no check-in is asked for.
  const unclaimed = ok(await call('get_incentives', { listing_id: id }));
  assert.deepEqual([unclaimed.talk.required, unclaimed.talk.mode], [false, 'present']);
  assert.ok(!unclaimed.actions.some((a: any) => a.do.startsWith('check in')));
  const token = await ownListing(app, id);
  const partner = await liveListing('Partner One');
  const dormant = await liveListing('Asleep');
  await setListingState(app, dormant, { lane: 'dormant' }, NOW);
  const first = ok(await call('get_incentives', { listing_id: id }));
  assert.equal(first.listing.id, id);
  assert.deepEqual([first.rank.badge, first.rank.rank_delta], ['never_demoed', -15]);
  assert.deepEqual(
    first.actions.map((a: any) => a.tool).slice(0, 2),
    ['take_demo', 'leave_feedback'],
  );
  assert.match(first.actions[0].gain, /rank \+10/);
  assert.deepEqual([first.talk.required, first.talk.mode], [true, 'grace'], 'claimed: its owner checks in');
  assert.ok(first.actions.some((a: any) => a.do.startsWith('check in on talk') && a.tool === null));
  assert.deepEqual(first.partners.unendorsed_live, []);
  assert.equal(first.refills.find((r: any) => r.action === 'leave_trace').grants_left_today, 5);
  assert.equal(first.allowance.improve_kernel, 3);
  // The next step reads the listing's refills as its owner: the owner token goes as the Bearer.
  assert.deepEqual([first.next_step.tool, first.next_step.needs], ['get_reciprocity', ['owner_token']]);
  const asTheOwner = await followNextStep(first, '192.0.2.251', asOwner(token));
  assert.deepEqual([asTheOwner.caller.kind, asTheOwner.caller.listing_id], ['listing', id]);

  // Used together with a Live partner and a dormant one: only the Live one is a partner to endorse.
  const pairOf = (other: string) => subjectKey({ kind: 'pair', listing_id: id, partner_listing_id: other });
  await deposit(app.services.db.kysely, { channel: 'attraction', subject: pairOf(partner), intensity: 3, body: null, depositor: 'system', at: clock.now() });
  await deposit(app.services.db.kysely, { channel: 'attraction', subject: pairOf(dormant), intensity: 3, body: null, depositor: 'system', at: clock.now() });
  await setListingState(app, id, { demoed: 1 }, NOW);
  await grant(subject, 'leave_trace');
  const second = ok(await call('get_incentives', { listing_id: id }));
  assert.deepEqual([second.rank.badge, second.rank.rank_delta], ['demoed_no_feedback', -5]);
  assert.deepEqual(second.partners.unendorsed_live, [{ listing_id: partner, name: 'Partner One' }]);
  assert.ok(second.actions.some((a: any) => a.tool === 'endorse' && a.args.partner_listing_id === partner));
  assert.equal(second.refills.find((r: any) => r.action === 'leave_trace').grants_left_today, 4);

  // Endorsed today (this listing's attraction deposit on the pair): no longer offered.
  await deposit(app.services.db.kysely, { channel: 'attraction', subject: pairOf(partner), intensity: 1, body: 'great partner', depositor: subject.key, at: clock.now() });
  await setListingState(app, id, { feedbacked: 1, founding_verified: 1 }, NOW);
  const third = ok(await call('get_incentives', { listing_id: id }));
  assert.deepEqual(third.partners.unendorsed_live, []);
  assert.deepEqual(third.partners.endorsed_today, [{ listing_id: partner, name: 'Partner One' }]);
  assert.deepEqual([third.rank.badge, third.rank.rank_delta], ['founding_verified', 120]);
  assert.ok(!third.actions.some((a: any) => a.tool === 'take_demo' || a.tool === 'endorse'));
  await followNextStep(third, '192.0.2.251', asOwner(token));

  // Without the owner token the same next step runs, but reads the caller's own day, never the listing's.
  const stranger = await followNextStep(third, '192.0.2.251');
  assert.equal(stranger.caller.kind, 'address');
  assert.match(stranger.caller.note, /did not carry the owner token/);
  // A listing that is not Live: the next step is its status, which anyone may read.
  await setListingState(app, id, { lane: 'dormant' }, NOW);
  const asleep = ok(await call('get_incentives', { listing_id: id }));
  assert.deepEqual([asleep.next_step.tool, asleep.next_step.needs], ['check_status', undefined]);
  await followNextStep(asleep, '192.0.2.251');

  const missing = failure(await call('get_incentives', { listing_id: 'lst_nope' }));
  assert.deepEqual([missing.code, missing.field], ['not_found', 'listing_id']);
  assert.equal(failure(await call('get_incentives', {})).field, 'listing_id');
});
