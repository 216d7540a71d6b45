// The stigmergy tools through the real MCP door, on both engines: decay by a moved clock,
// deposit bounds (also under concurrency), the leave_trace refill and its cap, endorse (with the
// endorsing listing's owner token; Live partners only, once per ordered pair per day under
// concurrency), deposit_outcome's refill only after a value tool, network_sense with meter and
// next_step, automatic deposits, and bad inputs. A mark on a listing (trace, outcome, endorsement)
// is always recorded, but it moves the listing's field and rank only from a claimed Live listing of
// another owner domain acting with its owner token, once per domain, target and day, at most 3 a
// target a day; capability and pair traces move as they are left.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, HOUR_MS, DAY_MS } from '../src/platform/clock.ts';
import { readInbox } from '../src/inbox/store.ts';
import { subjectKey } from '../src/traces/subjects.ts';
import { RANK_MARKS_PER_TARGET_PER_DAY } from '../src/traces/standing.ts';
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

/** A tools/call through POST /api/mcp from a given client address (an owner adds its Bearer in `headers`). */
async function call(name: string, args: Record<string, unknown>, from = '127.0.0.1', headers: Record<string, string> = {}): Promise<Result> {
  const res = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    remoteAddress: from,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
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
/** Each listing on an owner domain of its own, unless a URL is given. */
const urlOf = (n: number) => `https://traces-${n}.org/mcp`;
async function newListing(live = false, url?: string): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: url ?? urlOf(++listingCount) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  if (live) await setListingState(app, id, { lane: 'active', live_since: clock.now().toISOString() }, clock.now().toISOString());
  return id;
}
/** A claimed listing (Live unless said) and the headers its owner sends: its marks can move rank. */
async function owner(options: { live?: boolean; url?: string } = {}): Promise<{ id: string; headers: Record<string, string> }> {
  const id = await newListing(options.live ?? true, options.url);
  return { id, headers: asOwner(await ownListing(app, id)) };
}
const ANONYMOUS_MOVES_NOTHING = /recorded but move no rank/;

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
  const fan = await owner();
  ok(await sdkCall('leave_trace', { capability: 'Decay  Probe', kind: 'demand', intensity: 40, body: 'Wanted this capability for a batch job today.', agent_name: 'decay-bot' }));
  // On a listing, an anonymous mark is recorded and moves nothing; a claimed Live listing's owner moves it.
  const anonymous = ok(await sdkCall('leave_trace', { listing_id: listing, kind: 'attraction', intensity: 32, body: REAL, agent_name: 'decay-bot' }));
  assert.equal(anonymous.deposited.moves, false);
  assert.match(anonymous.deposited.why, ANONYMOUS_MOVES_NOTHING);
  // It moves the listing's rank by at most 5 points a week from one owner domain: 5 of its 32.
  const counted = ok(await call('leave_trace', { listing_id: listing, kind: 'attraction', intensity: 32, body: REAL }, newCaller(), fan.headers));
  assert.deepEqual([counted.deposited.moves, counted.deposited.intensity, counted.deposited.moved_intensity], [true, 32, 5]);
  assert.match(counted.deposited.why, /may add 5 rank points to lst_\w+ a UTC week: this mark moves 5 of its 32/);
  const read = async () => {
    const cap = ok(await sdkCall('sense_traces', { capability: 'decay probe' }));
    const lst = ok(await sdkCall('sense_traces', { listing_id: listing, kind: 'attraction' }));
    return { demand: channelValue(cap.traces, 'demand')!, attraction: channelValue(lst.traces, 'attraction')!, cap, lst };
  };
  let r = await read();
  near(r.demand, 40, 'fresh demand');
  near(r.attraction, 5, 'fresh attraction');
  assert.equal(r.cap.traces[0].half_life_h, HALF_LIFE_H.demand);
  assert.deepEqual(r.cap.traces[0].subject, { kind: 'capability', capability: 'decay probe' });
  assert.equal(r.cap.notes[0].body, 'Wanted this capability for a batch job today.');
  clock.advance(HALF_LIFE_H.demand * HOUR_MS);
  r = await read();
  near(r.demand, 20, 'demand after one half-life');
  near(r.attraction, 5 * 2 ** (-48 / 168), 'attraction after 48 h');
  clock.advance((HALF_LIFE_H.attraction - HALF_LIFE_H.demand) * HOUR_MS);
  r = await read();
  near(r.demand, 40 * 2 ** (-168 / 48), 'demand after 168 h');
  near(r.attraction, 2.5, 'attraction after one half-life');
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
  // Only the counted deposits are recorded; as this caller acts for no claimed listing, none moves the listing's field.
  const recorded = await app.sql.selectFrom('trace_deposits').select('moves').where('subject_key', '=', subjectKey({ kind: 'listing', listing_id: listing }).key).where('channel', '=', 'danger').execute();
  assert.deepEqual(recorded.map((r) => Number(r.moves)), Array(DEPOSITS_PER_SUBJECT_PER_DAY).fill(0));
  assert.ok(burst.filter((r) => !r.isError).every((r) => r.structuredContent.deposited.moves === false));
  const field = ok(await call('sense_traces', { listing_id: listing, kind: 'danger' }));
  assert.equal(channelValue(field.traces, 'danger'), undefined);
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

test(`endorse: with the endorsing listing's owner token; Live partners only, once per ordered pair per day even when called at once (${engine})`, async () => {
  clock.set('2026-11-06T08:00:00.000Z');
  const n = ++listingCount;
  const mine = await owner({ url: `https://a.traces-${n}.org/mcp` });
  const sibling = await owner({ url: `https://b.traces-${n}.org/mcp` }); // the same owner domain as mine
  const partner = await owner();
  const notLive = await newListing();
  const as = (who: { headers: Record<string, string> }) => (args: Record<string, unknown>) => call('endorse', args, '127.0.0.1', who.headers);
  const refusedNotLive = failure(await as(mine)({ listing_id: mine.id, partner_listing_id: notLive }));
  assert.equal(refusedNotLive.code, 'partner_not_live');
  assert.equal(refusedNotLive.field, 'partner_listing_id');
  assert.equal(failure(await as(mine)({ listing_id: mine.id, partner_listing_id: mine.id })).code, 'self_endorsement');
  assert.equal(failure(await as(mine)({ listing_id: mine.id, partner_listing_id: 'lst_nobody' })).code, 'not_found');
  assert.equal(failure(await as(mine)({ listing_id: 'lst_nobody', partner_listing_id: partner.id })).code, 'not_found');
  // Only the endorsing listing's owner endorses: no token is a 401, another listing's token a 403.
  const anonymous = failure(await call('endorse', { listing_id: mine.id, partner_listing_id: partner.id }));
  assert.deepEqual([anonymous.code, anonymous.field], ['owner_token_required', 'authorization']);
  assert.equal(failure(await as(partner)({ listing_id: mine.id, partner_listing_id: partner.id })).code, 'token_mismatch');

  const calls = await Promise.all(Array.from({ length: 8 }, () => as(mine)({ listing_id: mine.id, partner_listing_id: partner.id, body: 'Composed well with our pipeline.' })));
  const results = calls.map(ok);
  assert.equal(results.filter((r) => r.counted).length, 1, 'one counted endorsement');
  assert.equal(results.filter((r) => r.refill.granted).length, 1, 'one refill');
  const counted = results.find((r) => r.counted)!;
  assert.equal(counted.moves_rank, true, 'a Live listing of another owner domain moves the partner');
  assert.deepEqual(counted.refill.events.sort(), ['collab_session_step', 'mesh_match']);
  assert.match(results.find((r) => !r.counted)!.refill.reason, /already endorsed/);
  const rows = await app.sql.selectFrom('trace_endorsements').selectAll().where('to_listing_id', '=', partner.id).execute();
  assert.equal(rows.length, 1);
  const onPartner = ok(await call('sense_traces', { listing_id: partner.id, kind: 'attraction' }));
  near(onPartner.traces[0].value, 5, 'attraction on the partner');
  const onPair = ok(await call(counted.next_step.tool, counted.next_step.args));
  near(channelValue(onPair.traces, 'attraction')!, 5, 'attraction on the pair');
  assert.deepEqual(onPair.traces[0].subject.kind, 'pair');
  // The partner finds it in its inbox, and the public feed says so.
  assert.deepEqual((await readInbox(app.services.db.kysely, partner.id)).map((m) => [m.kind, m.from_listing_id]), [['endorsement', mine.id]]);
  const feedOf = async (id: string) => (await app.sql.selectFrom('feed_events').select('type').where('listing_id', '=', id).where('type', '=', 'endorsement.counted').execute()).length;
  assert.equal(await feedOf(partner.id), 1);
  // The reverse direction is another ordered pair.
  assert.deepEqual(
    [ok(await as(partner)({ listing_id: partner.id, partner_listing_id: mine.id })).counted, (await readInbox(app.services.db.kysely, mine.id)).length],
    [true, 1],
  );

  // Recorded but moving nothing (no refill, no inbox message, no feed event, no attraction):
  const quiet = async (who: { headers: Record<string, string> }, from: string, to: string, why: RegExp) => {
    const r = ok(await as(who)({ listing_id: from, partner_listing_id: to }));
    assert.deepEqual([r.counted, r.moves_rank, r.refill.granted], [true, false, false], JSON.stringify(r));
    assert.match(r.why, why);
    assert.match(r.refill.reason, /recorded, but it moves nothing/);
  };
  // another listing of an owner domain that already moved this partner today,
  await quiet(sibling, sibling.id, partner.id, /already moved/);
  // a listing of one's own owner domain,
  await quiet(mine, mine.id, sibling.id, /your own owner domain/);
  // an endorser that is not Live.
  const asleep = await owner({ live: false });
  await quiet(asleep, asleep.id, partner.id, /not Live/);
  assert.equal((await readInbox(app.services.db.kysely, partner.id)).length, 1);
  assert.deepEqual([await feedOf(partner.id), await feedOf(sibling.id)], [1, 0]);
  near((ok(await call('sense_traces', { listing_id: partner.id, kind: 'attraction' }))).traces[0].value, 5, 'still only the counted one');
  assert.equal((await app.sql.selectFrom('trace_endorsements').selectAll().where('to_listing_id', '=', partner.id).execute()).length, 3, 'all recorded');
  // At most 3 rank-moving marks on one listing a day, from all domains together.
  for (let i = 1; i < RANK_MARKS_PER_TARGET_PER_DAY; i++) {
    const fan = await owner();
    assert.equal(ok(await as(fan)({ listing_id: fan.id, partner_listing_id: partner.id })).moves_rank, true);
  }
  const late = await owner();
  await quiet(late, late.id, partner.id, /already gained 3 rank-moving marks/);
  // A new day counts again for the day's marks; but one owner domain adds at most 5 rank points to
  // one listing a UTC week, and an endorsement is 5: the next one moves the week after.
  clock.advance(DAY_MS);
  const again = ok(await as(mine)({ listing_id: mine.id, partner_listing_id: partner.id }));
  assert.deepEqual([again.counted, again.moves_rank], [true, false]);
  assert.match(again.why, /has added 5 rank points to lst_\w+ this UTC week/);
  clock.advance(7 * DAY_MS);
  const nextWeek = ok(await as(mine)({ listing_id: mine.id, partner_listing_id: partner.id }));
  assert.deepEqual([nextWeek.counted, nextWeek.moves_rank], [true, true]);
});

test(`deposit_outcome: recorded, moves attraction or danger from a claimed listing's owner, refills only after a value tool that day (${engine})`, async () => {
  clock.set('2026-11-08T10:00:00.000Z');
  const me = newCaller();
  const user = await owner();
  const listing = await newListing(true);
  const other = await newListing(true);
  // Anyone's outcome is recorded; from a caller acting for no claimed listing it moves nothing.
  const anonymous = ok(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.8, body: 'Translated 40 documents without a single error.', from: 'mesh_compose', agent_name: 'outcome-bot' }, me));
  assert.deepEqual([anonymous.deposited.moves_rank, anonymous.refill.granted], [false, false]);
  assert.match(anonymous.deposited.why, ANONYMOUS_MOVES_NOTHING);
  assert.equal(channelValue(anonymous.field, 'attraction'), undefined);
  const kept = await app.sql.selectFrom('trace_outcomes').selectAll().where('id', '=', anonymous.outcome.id).executeTakeFirstOrThrow();
  assert.equal(kept.listing_id, listing);
  // The owner of a Live listing of another domain moves it.
  const before = ok(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.8, body: 'Translated 40 documents without a single error.', from: 'mesh_compose' }, me, user.headers));
  assert.equal(before.refill.granted, false);
  assert.match(before.refill.reason, /value tool/);
  assert.equal(before.outcome.ok, true);
  assert.equal(before.outcome.quality, 0.8);
  assert.equal(before.outcome.from, 'mesh_compose');
  // 10 x quality is 8, of which an owner domain moves one listing's rank by at most 5 a week.
  assert.equal(before.deposited.moves_rank, true);
  near(channelValue(before.field, 'attraction')!, 5, 'attraction 10 x quality, up to the week\'s 5');
  const stored = await app.sql.selectFrom('trace_outcomes').selectAll().where('id', '=', before.outcome.id).executeTakeFirstOrThrow();
  assert.equal(stored.listing_id, listing);
  assert.equal(Number(stored.quality), 0.8);

  // A value tool as the same caller (network_sense), then the refill is granted.
  const sensed = ok(await call('network_sense', {}, me, user.headers));
  assert.equal(sensed.meter.event_id, 'network_sense');
  const afterValue = ok(await call('deposit_outcome', { listing_id: other, ok: false, quality: 0.3, body: 'The second batch failed halfway with a timeout.', from: 'execute_compose' }, me, user.headers));
  assert.equal(afterValue.refill.granted, true);
  assert.deepEqual(afterValue.refill.events.sort(), ['collab_session_step', 'improve_kernel', 'run_loop_tick']);
  near(channelValue(afterValue.field, 'danger')!, 7, 'danger 10 x (1 - quality)');
  // One rank-moving outcome per owner domain, listing and day: a second one is recorded only.
  const second = ok(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.5, body: 'It worked again for a small request of ours.' }, me, user.headers));
  assert.deepEqual([second.deposited.moves_rank, second.refill.granted], [false, true]);
  assert.match(second.deposited.why, /already moved/);
  near(channelValue(second.field, 'attraction')!, 5, 'the field did not move');
  // Another caller who used no value tool gets nothing, even at the same address.
  const stranger = ok(await call('deposit_outcome', { listing_id: listing, ok: true, quality: 0.5, body: 'It worked for a small request of mine.', agent_name: 'someone-else' }, me));
  assert.equal(stranger.refill.granted, false);
  // Agent names are labels inside one address's allowance: one name's value tool counts for another's outcome.
  const shared = newCaller();
  ok(await call('network_sense', { agent_name: 'bot-a' }, shared));
  assert.equal(ok(await call('deposit_outcome', { ok: true, quality: 0.9, body: 'Kernel run gave a tighter prompt for our agent.', agent_name: 'bot-b' }, shared)).refill.granted, true);
  // The refill is capped at 3 a day.
  const more = [];
  for (let i = 0; i < 2; i++) more.push(ok(await call('deposit_outcome', { ok: true, quality: 0.9, body: `Kernel run ${i} gave a tighter prompt for our agent.`, from: 'improve_kernel' }, me, user.headers)));
  assert.deepEqual(more.map((r) => r.refill.granted), [true, false]);
  assert.match(more[1]!.refill.reason, /at most 3/);
  assert.equal(more[0]!.deposited, null, 'no listing, no field change');
  // An outcome is evidence for the caller's kernel: next_step is the loop tick, as the same caller.
  assert.deepEqual([afterValue.next_step.tool, afterValue.next_step.args], ['run_loop_tick', {}]);
  assert.deepEqual([more[0]!.next_step.tool, more[0]!.next_step.args], ['run_loop_tick', {}]);
  const tick = ok(await call(more[0]!.next_step.tool, more[0]!.next_step.args, me, user.headers));
  assert.equal(tick.ticked, false, 'no kernel yet: the tick says how to make one');
  assert.equal(tick.next_step.tool, 'improve_kernel');
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
  const starName = `traces-${listingCount}.org`;
  const partner = await newListing(true);
  // Marks on a listing from a claimed Live listing of another domain move it; pair and capability traces move as left.
  const user = await owner();
  ok(await call('leave_trace', { listing_id: star, kind: 'attraction', intensity: 50, body: 'The best summarizer we have tried this month.' }, me, user.headers));
  ok(await call('leave_trace', { listing_id: star, partner_listing_id: partner, kind: 'attraction', intensity: 3, body: 'These two compose into a clean pipeline.' }, me));
  ok(await call('leave_trace', { listing_id: partner, kind: 'danger', intensity: 45, body: 'Returned malformed JSON on large inputs.' }, me, user.headers));
  ok(await call('leave_trace', { capability: 'summarize legal contracts', kind: 'demand', intensity: 50, body: 'Nobody serves contract summaries yet.' }, me));

  const network = ok(await call('network_sense', {}, me));
  assert.equal(network.scope.kind, 'network');
  const starred = network.attractors.find((a: any) => a.subject.listing_id === star);
  assert.equal(starred?.subject.name, starName);
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
  await postJson(app, '/api/publish', { url: urlOf(listingCount) });
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
  // Attraction on your own listing must come from others (its owner acts with the owner token).
  const own = await owner({ live: false });
  assert.equal(failure(await call('leave_trace', { listing_id: own.id, kind: 'attraction', body: REAL }, me, own.headers)).code, 'self_attraction');
  const danger = ok(await call('leave_trace', { listing_id: own.id, kind: 'danger', body: 'Our own endpoint is down for maintenance today.' }, me, own.headers));
  assert.deepEqual([danger.caller.kind, danger.caller.label, danger.deposited.moves], ['listing', own.id, false]);
});
