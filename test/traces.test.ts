// The stigmergy tools (issue 12) through the real MCP door, on both engines: decay by a moved clock,
// deposit bounds (also under concurrency), the leave_trace refill and its cap, endorse (Live only,
// once per ordered pair per day under concurrency), deposit_outcome's refill only after a value
// tool, network_sense with meter and next_step, automatic deposits, and bad inputs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { ManualClock, HOUR_MS, DAY_MS } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { issueToken } from '../src/access/store.ts';
import { HALF_LIFE_H } from '../src/traces/channels.ts';
import { DEPOSITS_PER_DAY, DEPOSITS_PER_SUBJECT_PER_DAY } from '../src/traces/limits.ts';
import { AUTO } from '../src/traces/system.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let client: Client;

before(async () => {
  app = await startApp({ clock });
  const base = await app.listen();
  client = new Client({ name: 'traces-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
});
after(async () => {
  await client.close();
  await app.close();
});

type Result = { isError?: boolean; structuredContent: Record<string, any> };
let rpcId = 0;
let addressCount = 0;
/** A caller of its own: a client address no other test uses. */
const newCaller = () => `10.12.0.${++addressCount}`;

/** A tools/call through POST /api/mcp from a given client address. */
async function call(name: string, args: Record<string, unknown>, from = '127.0.0.1'): Promise<Result> {
  const res = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    remoteAddress: from,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().result as Result;
}
/** The same call through the official SDK client (over real HTTP). */
const sdkCall = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

const ok = (r: Result) => {
  assert.ok(!r.isError, JSON.stringify(r.structuredContent));
  return r.structuredContent;
};
const failure = (r: Result) => {
  assert.equal(r.isError, true, JSON.stringify(r.structuredContent));
  return r.structuredContent.error as { code: string; message: string; field?: string; details?: any };
};
const near = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-6, `${what}: ${actual} != ${expected}`);

let listingCount = 0;
async function newListing(live = false): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: `https://traces-${++listingCount}.example.org/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  if (live) await setListingState(app, id, { lane: 'active', live_since: clock.now().toISOString() }, clock.now().toISOString());
  return id;
}

const REAL = 'Fast and accurate translations, answered every request within a second.';
const channelValue = (traces: { channel: string; value: number }[], channel: string) => traces.find((t) => t.channel === channel)?.value;

test(`the stigmergy tools are listed with schemas, titles and annotations (${engine})`, async () => {
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const name of ['leave_trace', 'sense_traces', 'endorse', 'deposit_outcome', 'network_sense']) {
    const tool = byName.get(name);
    assert.ok(tool, name);
    assert.ok(tool.title, name);
    assert.ok((tool.description ?? '').length > 80, name);
    assert.ok(tool.outputSchema, name);
  }
  assert.equal(byName.get('sense_traces')!.annotations?.readOnlyHint, true);
  assert.equal(byName.get('leave_trace')!.annotations?.readOnlyHint, false);
  assert.deepEqual(Object.keys(byName.get('deposit_outcome')!.inputSchema.properties ?? {}).filter((k) => ['listing_id', 'ok', 'quality', 'body', 'from'].includes(k)).sort(), ['body', 'from', 'listing_id', 'ok', 'quality']);
});

test(`traces decay by their half-life as the clock moves, seen through sense_traces (${engine})`, async () => {
  clock.set('2026-11-02T00:00:00.000Z');
  const listing = await newListing();
  ok(await sdkCall('leave_trace', { capability: 'Decay  Probe', kind: 'demand', intensity: 40, body: 'Wanted this capability for a batch job today.', agent_name: 'decay-bot' }));
  ok(await sdkCall('leave_trace', { listing_id: listing, kind: 'attraction', intensity: 32, body: REAL, agent_name: 'decay-bot' }));
  const read = async () => {
    const cap = ok(await sdkCall('sense_traces', { capability: 'decay probe' }));
    const lst = ok(await sdkCall('sense_traces', { listing_id: listing, kind: 'attraction' }));
    return { demand: channelValue(cap.traces, 'demand')!, attraction: channelValue(lst.traces, 'attraction')!, cap, lst };
  };
  let r = await read();
  near(r.demand, 40, 'fresh demand');
  near(r.attraction, 32, 'fresh attraction');
  assert.equal(r.cap.traces[0].half_life_h, HALF_LIFE_H.demand);
  assert.deepEqual(r.cap.traces[0].subject, { kind: 'capability', capability: 'decay probe' });
  assert.equal(r.cap.notes[0].body, 'Wanted this capability for a batch job today.');
  clock.advance(HALF_LIFE_H.demand * HOUR_MS);
  r = await read();
  near(r.demand, 20, 'demand after one half-life');
  near(r.attraction, 32 * 2 ** (-48 / 168), 'attraction after 48 h');
  clock.advance((HALF_LIFE_H.attraction - HALF_LIFE_H.demand) * HOUR_MS);
  r = await read();
  near(r.demand, 40 * 2 ** (-168 / 48), 'demand after 168 h');
  near(r.attraction, 16, 'attraction after one half-life');
  // The text filter and the whole field show the same decayed values, strongest first.
  const byText = ok(await sdkCall('sense_traces', { q: 'decay' }));
  near(channelValue(byText.traces, 'demand')!, 40 * 2 ** (-168 / 48), 'through q');
  const whole = ok(await sdkCall('sense_traces', { kind: 'attraction', limit: 50 }));
  const values = whole.traces.map((t: { value: number }) => t.value);
  assert.deepEqual(values, [...values].sort((a, b) => b - a));
});

test(`leave_trace: a real trace refills mesh_match and network_sense, at most 5 times a day (${engine})`, async () => {
  clock.set('2026-11-03T09:00:00.000Z');
  const me = newCaller();
  const grants: boolean[] = [];
  for (let i = 0; i < 6; i++) {
    const r = ok(await call('leave_trace', { capability: `refill-cap-${i}`, kind: 'attraction', body: REAL }, me));
    grants.push(r.refill.granted);
    if (i < 5) {
      assert.deepEqual(r.refill.events.sort(), ['mesh_match', 'network_sense']);
      assert.equal(r.refill.grants_today, i + 1);
    } else {
      assert.match(r.refill.reason, /at most 5/);
    }
    assert.equal(r.caller.kind, 'address');
    assert.equal(r.deposited.intensity, 5, 'the default intensity');
  }
  assert.deepEqual(grants, [true, true, true, true, true, false]);
  // The refills are real units: network_sense has 10 + 5 today.
  const sensed = ok(await call('network_sense', {}, me));
  assert.equal(sensed.meter.remaining, 14);
  assert.equal(sensed.meter.refills_today, 5);
  // A short note is kept but refills nothing; junk and empty bodies are refused.
  const other = newCaller();
  const thin = ok(await call('leave_trace', { capability: 'thin-note', kind: 'attraction', body: 'fast' }, other));
  assert.equal(thin.refill.granted, false);
  assert.match(thin.refill.reason, /3 different words/);
  assert.equal(channelValue(thin.field, 'attraction'), 5);
  for (const body of ['asdfghjkl', 'aaaaaaaaaaaa', 'test test test', '!!! ??? ...']) {
    const err = failure(await call('leave_trace', { capability: 'junk', kind: 'attraction', body }, other));
    assert.equal(err.code, 'trace_not_real', body);
    assert.equal(err.field, 'body');
  }
  const empty = failure(await call('leave_trace', { capability: 'junk', kind: 'attraction', body: '   ' }, other));
  assert.equal(empty.code, 'invalid_input');
  assert.equal(empty.field, 'body');
  const junkField = ok(await call('sense_traces', { capability: 'junk' }));
  assert.equal(junkField.count, 0, 'refused traces left nothing');
  // The next_step reads the subject back.
  assert.equal(thin.next_step.tool, 'sense_traces');
  const back = ok(await sdkCall(thin.next_step.tool, thin.next_step.args));
  assert.equal(channelValue(back.traces, 'attraction'), 5);
});

test(`deposits are bounded per caller: 3 per subject and channel, 40 a day, atomically; the day resets them (${engine})`, async () => {
  clock.set('2026-11-04T10:00:00.000Z');
  const me = newCaller();
  const listing = await newListing();
  // Ten at once on one subject and channel: exactly three land.
  const burst = await Promise.all(Array.from({ length: 10 }, () => call('leave_trace', { listing_id: listing, kind: 'danger', intensity: 2, body: 'Timed out twice on long inputs today.' }, me)));
  assert.equal(burst.filter((r) => !r.isError).length, DEPOSITS_PER_SUBJECT_PER_DAY);
  const refused = failure(burst.find((r) => r.isError)!);
  assert.equal(refused.code, 'trace_limit_reached');
  assert.equal(refused.details.bound, 'per_subject_channel');
  assert.equal(refused.details.resets_at, '2026-11-05T00:00:00.000Z');
  assert.match(refused.message, /resets at 2026-11-05T00:00:00.000Z/);
  const field = ok(await call('sense_traces', { listing_id: listing, kind: 'danger' }));
  near(field.traces[0].value, 2 * DEPOSITS_PER_SUBJECT_PER_DAY, 'only the counted deposits are in the field');
  assert.equal(field.traces[0].deposits, DEPOSITS_PER_SUBJECT_PER_DAY);
  // Another channel on the same subject is its own bound.
  ok(await call('leave_trace', { listing_id: listing, kind: 'demand', body: 'Need a second instance of this in Europe.' }, me));
  // The day's total: 40 across subjects (4 used above).
  for (let i = 4; i < DEPOSITS_PER_DAY; i++) ok(await call('leave_trace', { capability: `bound-${i}`, kind: 'demand', body: REAL }, me));
  const over = failure(await call('leave_trace', { capability: 'one-too-many', kind: 'demand', body: REAL }, me));
  assert.equal(over.code, 'trace_limit_reached');
  assert.equal(over.details.bound, 'per_caller');
  assert.equal(over.details.limit, DEPOSITS_PER_DAY);
  // Another caller is not bounded by mine; the next UTC day resets mine.
  ok(await call('leave_trace', { capability: 'one-too-many', kind: 'demand', body: REAL }, newCaller()));
  clock.set('2026-11-05T00:00:01.000Z');
  const next = ok(await call('leave_trace', { capability: 'one-too-many', kind: 'demand', body: REAL }, me));
  assert.equal(next.limits.left_today, DEPOSITS_PER_DAY - 1);
});

test(`endorse: Live partners only, once per ordered pair per day even when called at once (${engine})`, async () => {
  clock.set('2026-11-06T08:00:00.000Z');
  const mine = await newListing();
  const partner = await newListing(true);
  const notLive = await newListing();
  const refusedNotLive = failure(await call('endorse', { listing_id: mine, partner_listing_id: notLive }));
  assert.equal(refusedNotLive.code, 'partner_not_live');
  assert.equal(refusedNotLive.field, 'partner_listing_id');
  assert.equal(failure(await call('endorse', { listing_id: mine, partner_listing_id: mine })).code, 'self_endorsement');
  assert.equal(failure(await call('endorse', { listing_id: mine, partner_listing_id: 'lst_nobody' })).code, 'not_found');
  assert.equal(failure(await call('endorse', { listing_id: 'lst_nobody', partner_listing_id: partner })).code, 'not_found');

  const calls = await Promise.all(Array.from({ length: 8 }, () => call('endorse', { listing_id: mine, partner_listing_id: partner, body: 'Composed well with our pipeline.' })));
  const results = calls.map(ok);
  assert.equal(results.filter((r) => r.counted).length, 1, 'one counted endorsement');
  assert.equal(results.filter((r) => r.refill.granted).length, 1, 'one refill');
  const counted = results.find((r) => r.counted)!;
  assert.deepEqual(counted.refill.events.sort(), ['collab_session_step', 'mesh_match']);
  assert.match(results.find((r) => !r.counted)!.refill.reason, /already endorsed/);
  const rows = await app.sql.selectFrom('trace_endorsements').selectAll().where('to_listing_id', '=', partner).execute();
  assert.equal(rows.length, 1);
  const onPartner = ok(await call('sense_traces', { listing_id: partner, kind: 'attraction' }));
  near(onPartner.traces[0].value, 5, 'attraction on the partner');
  const onPair = ok(await call(counted.next_step.tool, counted.next_step.args));
  near(channelValue(onPair.traces, 'attraction')!, 5, 'attraction on the pair');
  assert.deepEqual(onPair.traces[0].subject.kind, 'pair');
  // The reverse direction is another ordered pair (once the first listing is Live); a new day counts again.
  await setListingState(app, mine, { lane: 'active', live_since: clock.now().toISOString() }, clock.now().toISOString());
  assert.equal(ok(await call('endorse', { listing_id: partner, partner_listing_id: mine })).counted, true);
  clock.advance(DAY_MS);
  const again = ok(await call('endorse', { listing_id: mine, partner_listing_id: partner }));
  assert.equal(again.counted, true);
  // A listing that holds an access token endorses only with it.
  const owned = await newListing();
  const { token } = await inTransaction(app.services.db.kysely, (trx) => issueToken(trx, owned, 'demo', clock.now().toISOString()));
  assert.equal(failure(await call('endorse', { listing_id: owned, partner_listing_id: partner })).code, 'token_required');
  assert.equal(ok(await call('endorse', { listing_id: owned, partner_listing_id: partner, access_token: token! })).counted, true);
  assert.equal(failure(await call('endorse', { listing_id: mine, partner_listing_id: partner, access_token: token! })).code, 'not_your_listing');
});

test(`deposit_outcome: recorded, moves attraction or danger, refills only after a value tool that day (${engine})`, async () => {
  clock.set('2026-11-08T10:00:00.000Z');
  const me = newCaller();
  const listing = await newListing(true);
  const before = ok(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.8, body: 'Translated 40 documents without a single error.', from: 'mesh_compose', agent_name: 'outcome-bot' }, me));
  assert.equal(before.refill.granted, false);
  assert.match(before.refill.reason, /value tool/);
  assert.equal(before.outcome.ok, true);
  assert.equal(before.outcome.quality, 0.8);
  assert.equal(before.outcome.from, 'mesh_compose');
  near(channelValue(before.field, 'attraction')!, 8, 'attraction 10 x quality');
  const stored = await app.sql.selectFrom('trace_outcomes').selectAll().where('id', '=', before.outcome.id).executeTakeFirstOrThrow();
  assert.equal(stored.listing_id, listing);
  assert.equal(Number(stored.quality), 0.8);

  // A value tool as the same caller (network_sense), then the refill is granted.
  const sensed = ok(await call('network_sense', { agent_name: 'outcome-bot' }, me));
  assert.equal(sensed.meter.event_id, 'network_sense');
  const afterValue = ok(await call('deposit_outcome', { listing_id: listing, ok: false, quality: 0.3, body: 'The second batch failed halfway with a timeout.', from: 'execute_compose', agent_name: 'outcome-bot' }, me));
  assert.equal(afterValue.refill.granted, true);
  assert.deepEqual(afterValue.refill.events.sort(), ['collab_session_step', 'improve_kernel', 'run_loop_tick']);
  near(channelValue(afterValue.field, 'danger')!, 7, 'danger 10 x (1 - quality)');
  // Another caller who used no value tool gets nothing, even at the same address.
  const stranger = ok(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.5, body: 'It worked for a small request of mine.', agent_name: 'someone-else' }, me));
  assert.equal(stranger.refill.granted, false);
  // The refill is capped at 3 a day.
  const more = [];
  for (let i = 0; i < 3; i++) more.push(ok(await call('deposit_outcome', { ok: true, quality: 0.9, body: `Kernel run ${i} gave a tighter prompt for our agent.`, from: 'improve_kernel', agent_name: 'outcome-bot' }, me)));
  assert.deepEqual(more.map((r) => r.refill.granted), [true, true, false]);
  assert.equal(more[0]!.deposited, null, 'no listing, no field change');
  // next_step round trips: with a listing -> sense_traces; without -> network_sense as the same caller.
  const n1 = ok(await sdkCall(afterValue.next_step.tool, afterValue.next_step.args));
  assert.ok(n1.count >= 1);
  assert.equal(more[0]!.next_step.tool, 'network_sense');
  assert.deepEqual(more[0]!.next_step.args, { agent_name: 'outcome-bot' });
  assert.equal(ok(await call(more[0]!.next_step.tool, more[0]!.next_step.args, me)).meter.used_today, 2);
  // Bad inputs.
  const badQuality = failure(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 1.5, body: REAL }, me));
  assert.equal(badQuality.code, 'invalid_input');
  assert.equal(badQuality.field, 'quality');
  assert.equal(failure(await call('deposit_outcome', { listing_id: listing, ok: true, quality: -0.1, body: REAL }, me)).field, 'quality');
  assert.equal(failure(await call('deposit_outcome', { listing_id: listing, ok: 'yes', quality: 0.5, body: REAL }, me)).field, 'ok');
  assert.equal(failure(await call('deposit_outcome', { listing_id: 'lst_nobody', ok: true, quality: 0.5, body: REAL }, me)).code, 'not_found');
  assert.equal(failure(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.5, body: '' }, me)).field, 'body');
  assert.equal(failure(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.5 }, me)).field, 'body');
});

test(`network_sense: attractors, demand and danger around the network, a listing and a capability; next_step round trips (${engine})`, async () => {
  clock.set('2026-11-10T10:00:00.000Z');
  const me = newCaller();
  const star = await newListing(true);
  const partner = await newListing(true);
  ok(await call('leave_trace', { listing_id: star, kind: 'attraction', intensity: 50, body: 'The best summarizer we have tried this month.' }, me));
  ok(await call('leave_trace', { listing_id: star, partner_listing_id: partner, kind: 'attraction', intensity: 20, body: 'These two compose into a clean pipeline.' }, me));
  ok(await call('leave_trace', { listing_id: partner, kind: 'danger', intensity: 45, body: 'Returned malformed JSON on large inputs.' }, me));
  ok(await call('leave_trace', { capability: 'summarize legal contracts', kind: 'demand', intensity: 50, body: 'Nobody serves contract summaries yet.' }, me));

  const network = ok(await call('network_sense', {}, me));
  assert.equal(network.scope.kind, 'network');
  assert.deepEqual(network.attractors[0].subject.listing_id, star);
  assert.equal(network.attractors[0].subject.name, `traces-${listingCount - 1}.example.org`);
  assert.equal(network.demand[0].subject.capability, 'summarize legal contracts');
  assert.equal(network.danger[0].subject.listing_id, partner);
  assert.ok(network.joined.length > 0, 'newcomers (joined traces of new listings)');
  assert.ok(network.counts.deposits_24h >= 4);
  assert.ok(network.counts.subjects.attraction >= 2);
  assert.equal(network.meter.event_id, 'network_sense');
  assert.equal(network.meter.used_today, 1);
  assert.equal(network.next_step.tool, 'match_capability');
  assert.deepEqual(network.next_step.args, { capabilities: ['summarize legal contracts'] });
  ok(await call(network.next_step.tool, network.next_step.args, me));

  const around = ok(await call('network_sense', { listing_id: partner }, me));
  assert.equal(around.scope.kind, 'listing');
  assert.equal(around.attractors[0].subject.kind, 'pair', 'its strongest partner edge');
  assert.equal(around.danger[0].subject.listing_id, partner);
  near(around.danger[0].value, 45, 'its danger mark');
  assert.equal(around.next_step.tool, 'sense_traces');
  const notes = ok(await call(around.next_step.tool, around.next_step.args, me));
  assert.equal(notes.notes[0].body, 'Returned malformed JSON on large inputs.');

  const cap = ok(await call('network_sense', { capability: 'legal' }, me));
  assert.equal(cap.scope.kind, 'capability');
  assert.equal(cap.demand[0].subject.capability, 'summarize legal contracts');
  ok(await call(cap.next_step.tool, cap.next_step.args, me));
  // Decay shows here too, and a moved day resets the meter.
  clock.advance(HALF_LIFE_H.danger * HOUR_MS);
  const later = ok(await call('network_sense', { listing_id: partner }, me));
  near(later.danger[0].value, 22.5, 'danger after one half-life');
  assert.equal(later.meter.used_today, 1, 'a new UTC day');
  // Unknown listing: 404, and no unit spent.
  assert.equal(failure(await call('network_sense', { listing_id: 'lst_nobody' }, me)).code, 'not_found');
  assert.equal(ok(await call('network_sense', {}, me)).meter.used_today, 2);
});

test(`automatic deposits: list_yourself leaves joined, match_capability leaves demand once a day per caller (${engine})`, async () => {
  clock.set('2026-11-12T10:00:00.000Z');
  const listing = await newListing();
  const joined = ok(await call('sense_traces', { listing_id: listing, kind: 'joined' }));
  near(joined.traces[0].value, AUTO.joined, 'joined trace of a new listing');
  assert.equal(joined.notes[0].body, 'listed');
  // Republishing is not joining again.
  await postJson(app, '/api/publish', { url: `https://traces-${listingCount}.example.org/mcp` });
  assert.equal(ok(await call('sense_traces', { listing_id: listing, kind: 'joined' })).traces[0].deposits, 1);

  const asker = newCaller();
  ok(await call('match_capability', { capabilities: ['Render PDF invoices', 'ocr scanned receipts'] }, asker));
  ok(await call('match_capability', { capabilities: ['render pdf invoices'] }, asker));
  ok(await call('match_capability', { capabilities: ['render pdf invoices'] }, newCaller()));
  const demand = ok(await call('sense_traces', { capability: 'render pdf invoices' }));
  assert.equal(channelValue(demand.traces, 'demand'), 2 * AUTO.demand, 'one per caller per day');
  assert.equal(ok(await call('sense_traces', { capability: 'ocr scanned receipts' })).traces[0].deposits, 1);
});

test(`bad inputs get clear 4xx errors naming the field (${engine})`, async () => {
  clock.set('2026-11-13T10:00:00.000Z');
  const me = newCaller();
  const listing = await newListing();
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['leave_trace', { listing_id: listing, kind: 'love', body: REAL }, 'invalid_input', 'kind'],
    ['leave_trace', { listing_id: listing, body: REAL }, 'invalid_input', 'kind'],
    ['leave_trace', { listing_id: listing, kind: 'demand', body: REAL, intensity: 0 }, 'invalid_input', 'intensity'],
    ['leave_trace', { listing_id: listing, kind: 'demand', body: REAL, intensity: 51 }, 'invalid_input', 'intensity'],
    ['leave_trace', { listing_id: 'lst_nobody', kind: 'demand', body: REAL }, 'not_found', 'listing_id'],
    ['leave_trace', { listing_id: listing, partner_listing_id: 'lst_nobody', kind: 'demand', body: REAL }, 'not_found', 'partner_listing_id'],
    ['leave_trace', { listing_id: listing, partner_listing_id: listing, kind: 'demand', body: REAL }, 'invalid_input', 'partner_listing_id'],
    ['leave_trace', { partner_listing_id: listing, kind: 'demand', body: REAL }, 'invalid_input', 'listing_id'],
    ['leave_trace', { listing_id: listing, capability: 'x', kind: 'demand', body: REAL }, 'invalid_input', 'capability'],
    ['leave_trace', { kind: 'demand', body: REAL }, 'invalid_input', 'listing_id'],
    ['leave_trace', { capability: '  ', kind: 'demand', body: REAL }, 'invalid_input', 'capability'],
    ['sense_traces', { listing_id: 'lst_nobody' }, 'not_found', 'listing_id'],
    ['sense_traces', { kind: 'glow' }, 'invalid_input', 'kind'],
    ['sense_traces', { listing_id: listing, q: 'x' }, 'invalid_input', 'q'],
    ['sense_traces', { limit: 0 }, 'invalid_input', 'limit'],
    ['network_sense', { listing_id: listing, capability: 'x' }, 'invalid_input', 'capability'],
    ['endorse', { listing_id: listing }, 'invalid_input', 'partner_listing_id'],
  ];
  for (const [tool, args, code, field] of cases) {
    const err = failure(await call(tool, args, me));
    assert.equal(err.code, code, `${tool} ${JSON.stringify(args)}: ${err.message}`);
    assert.equal(err.field, field, `${tool} ${JSON.stringify(args)}`);
  }
  // Attraction on your own listing must come from others.
  const own = await newListing();
  const { token } = await inTransaction(app.services.db.kysely, (trx) => issueToken(trx, own, 'demo', clock.now().toISOString()));
  assert.equal(failure(await call('leave_trace', { listing_id: own, kind: 'attraction', body: REAL, access_token: token! }, me)).code, 'self_attraction');
  ok(await call('leave_trace', { listing_id: own, kind: 'danger', body: 'Our own endpoint is down for maintenance today.', access_token: token! }, me));
});
