// leave_feedback, ultra form (SPEC.md 2.5, DESIGN.md "Real feedback"), through the MCP door with the
// official SDK client and through POST /api/products/feedback: real feedback is stored under the
// caller and refills its allowance (a listing's owner, with its owner token: once per identical body
// per day; without an owner token: once per address and day; at most 3 grants a day); junk is
// refused and grants nothing; a named listing gets one trace a day from each caller, and only its
// owner's moves its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine, postJson, type TestApp } from './helpers/app.ts';
import { connect, valueToolsPerFile, nameSubject, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { checkReal } from '../src/feedback/real.ts';
import { extractThemes, countThemes } from '../src/feedback/themes.ts';
import { SURFACES } from '../src/feedback/operations.ts';
import { addressHash } from '../src/metering/caller.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let t: Tools;
const newDay = valueToolsPerFile(clock, (a, tools) => {
  app = a;
  t = tools;
});

/** The allowance every call of this file without an owner token spends: the loopback address's. */
const ADDRESS = `addr:${addressHash('127.0.0.1')}`;

/** Publishes a listing on an owner domain of its own and connects its owner (owner token as Bearer). */
async function ownedListing(url: string): Promise<{ id: string; owner: Tools }> {
  const published = await postJson(app, '/api/publish', { url });
  assert.equal(published.status, 200, JSON.stringify(published.body));
  const id = published.body.listing_id as string;
  return { id, owner: await connect(app, { headers: asOwner(await ownListing(app, id)), base: t.base }) };
}

const REAL = [
  'The kernel prompt was far too long for my runtime, please make it shorter.',
  'Setup took two minutes and the first loop tick fixed my output format.',
  'I could not find an example of deposit_outcome in the docs.',
  'Die Antworten waren schnell und genau, danke für das Werkzeug.',
];

test('real and junk bodies (DESIGN.md "Real feedback")', () => {
  for (const body of REAL) assert.equal(checkReal(body).real, true, body);
  const junk = ['test test test', 'asdf asdf asdf asdf', 'lorem ipsum dolor sit amet', 'aaaaaaaaaaaaaaaaaaaa', 'qwerty uiop asdf', 'good good good good good', 'short one', 'xkcdqwp mnbvcxz plkjhgf', 'test testing tested test tests', 'ok ok ok ok ok ok', '!!!!!!!!!!!!!!!!', 'hello world foo bar'];
  for (const body of junk) assert.equal(checkReal(body).real, false, body);
});

test('themes come from word stems, most common first', () => {
  assert.deepEqual(extractThemes('The prompt is too long and verbose; outputs are not valid JSON'), ['shorter_prompt', 'output_format']);
  assert.deepEqual(extractThemes('Responses were slow and it forgot earlier context'), ['memory', 'latency']);
  assert.deepEqual(extractThemes('I liked it a lot'), []);
  assert.deepEqual(
    countThemes([['latency'], ['latency', 'memory'], ['memory'], ['latency']]),
    [
      { theme: 'latency', count: 3 },
      { theme: 'memory', count: 2 },
    ],
  );
});

test(`leave_feedback stores real ultra feedback under the caller and grants the refill (${engine})`, async () => {
  newDay();
  const { tools } = await t.client.listTools();
  const tool = tools.find((x) => x.name === 'leave_feedback')!;
  assert.ok(tool.inputSchema.required?.includes('agent_name'), 'the tool requires agent_name (SPEC.md 4.2)');
  assert.deepEqual((tool.inputSchema.properties as any).surface.enum, [...SURFACES]);

  const r = await t.ok('leave_feedback', { agent_name: 'Feedback-Bot', rating: 4, body: REAL[0], tags: ['Kernel', 'kernel', 'ux'], sku: 'kernel', source: 'sdk', audience: 'agent' });
  assert.match(r.feedback_id, /^fb_/);
  assert.equal(r.counted, true);
  assert.deepEqual(r.themes.map((x: any) => x.theme), ['shorter_prompt']);
  assert.deepEqual(r.refill, { action: 'leave_feedback', granted: true, events: ['improve_kernel', 'run_loop_tick', 'mesh_match', 'collab_session_open'], grants_today: 1, max_per_day: 3 });
  assert.equal(r.trace, null);
  const row = await app.sql.selectFrom('feedback_items').selectAll().where('id', '=', r.feedback_id).executeTakeFirstOrThrow();
  assert.equal(row.subject, nameSubject('feedback-bot'));
  assert.equal(row.rating, 4);
  assert.equal(row.body, REAL[0]);
  assert.equal(row.surface, 'general');
  assert.equal(row.mode, 'ultra');
  assert.equal(Number(row.structured), 0);
  assert.deepEqual(JSON.parse(row.tags), ['kernel', 'ux']);
  assert.deepEqual(JSON.parse(row.meta), { surface: 'general', themes: ['shorter_prompt'], counted: true });
  // The refill goes to the allowance the name is a label in: the caller's address.
  const usage = await app.sql.selectFrom('meter_usage').selectAll().where('subject', '=', ADDRESS).orderBy('event_id').execute();
  assert.deepEqual(usage.map((u) => [u.event_id, Number(u.refilled)]), [['collab_session_open', 1], ['improve_kernel', 1], ['mesh_match', 1], ['run_loop_tick', 1]]);

  // next_step is valid input for its tool: a tick (without a kernel it answers how to make one).
  assert.equal(r.next_step.tool, 'run_loop_tick');
  const tick = await t.ok(r.next_step.tool, r.next_step.args);
  assert.equal(tick.ticked, false);
  assert.equal(tick.next_step.tool, 'improve_kernel');
});

test(`the refill raises the allowance by one, at most 3 grants a day; an identical body refills once (${engine})`, async () => {
  newDay();
  // Without an owner token: the first item of the day refills the address; a second one is stored but refills nothing.
  const who = { agent_name: 'refill-agent' };
  const goals = ['summarize support tickets by urgency'];
  for (let i = 0; i < 3; i++) assert.equal((await t.ok('improve_kernel', { ...who, goals })).meter.remaining, 2 - i);
  assert.equal((await t.fail('improve_kernel', { ...who, goals })).code, 'quota_exhausted');
  const first = await t.ok('leave_feedback', { ...who, rating: 5, body: REAL[1] });
  assert.equal(first.refill.granted, true);
  const fourth = await t.ok('improve_kernel', { ...who, goals });
  assert.deepEqual([fourth.meter.used_today, fourth.meter.refills_today, fourth.meter.remaining], [4, 1, 0]);
  const second = await t.ok('leave_feedback', { ...who, rating: 4, body: REAL[2] });
  assert.deepEqual([second.counted, second.refill.granted], [false, false]);
  assert.match(second.refill.reason, /feedback without an owner token counts once per address and day/);
  assert.equal((await t.fail('improve_kernel', { ...who, goals })).code, 'quota_exhausted');

  // A listing's owner, with its owner token: each distinct sentence counts, up to 3 grants a day.
  const { id, owner } = await ownedListing('https://refill-owner-example.org/mcp');
  try {
    const mine = { agent_name: 'refill-owner', listing_id: id };
    for (let i = 0; i < 3; i++) assert.equal((await owner.ok('improve_kernel', { ...mine, goals })).meter.remaining, 2 - i);
    assert.equal((await owner.fail('improve_kernel', { ...mine, goals })).code, 'quota_exhausted');
    const granted = await owner.ok('leave_feedback', { ...mine, rating: 5, body: REAL[1] });
    assert.deepEqual([granted.counted, granted.refill.granted, granted.subject.kind], [true, true, 'listing']);
    const next = await owner.ok('improve_kernel', { ...mine, goals });
    assert.deepEqual([next.meter.used_today, next.meter.refills_today, next.meter.remaining], [4, 1, 0]);
    assert.equal((await owner.fail('improve_kernel', { ...mine, goals })).code, 'quota_exhausted');

    // The same sentence again (any case and spacing) is stored but refills nothing.
    const again = await owner.ok('leave_feedback', { ...mine, rating: 5, body: `  ${REAL[1]!.toUpperCase()} ` });
    assert.equal(again.counted, false);
    assert.equal(again.refill.granted, false);
    assert.match(again.refill.reason, /same feedback/);
    assert.equal((await owner.fail('improve_kernel', { ...mine, goals })).code, 'quota_exhausted');

    // Two more distinct sentences: grants 2 and 3; the fourth distinct one is over the cap.
    assert.equal((await owner.ok('leave_feedback', { ...mine, rating: 3, body: REAL[2] })).refill.grants_today, 2);
    assert.equal((await owner.ok('leave_feedback', { ...mine, rating: 2, body: REAL[3] })).refill.grants_today, 3);
    const capped = await owner.ok('leave_feedback', { ...mine, rating: 4, body: 'One more honest sentence about the registry search results.' });
    assert.equal(capped.counted, true);
    assert.equal(capped.refill.granted, false);
    assert.match(capped.refill.reason, /at most 3 times a day/);
    // The owner domain's allowance (its listings share it), apart from the address's.
    const usage = await app.sql.selectFrom('meter_usage').selectAll().where('subject', '=', 'domain:refill-owner-example.org').where('event_id', '=', 'improve_kernel').executeTakeFirstOrThrow();
    assert.deepEqual([Number(usage.used), Number(usage.refilled)], [4, 3]);
    // Two units left from the three grants.
    await owner.ok('improve_kernel', { ...mine, goals });
    await owner.ok('improve_kernel', { ...mine, goals });
    assert.equal((await owner.fail('improve_kernel', { ...mine, goals })).code, 'quota_exhausted');
  } finally {
    await owner.close();
  }
});

test(`junk feedback is refused with feedback_not_real, stores and grants nothing (${engine})`, async () => {
  newDay();
  for (const body of ['test test test test', 'asdfghjkl qwerty zxcvbn', 'lorem ipsum dolor sit amet', 'ok', 'aaaaaaaaaaaaaaaaaaaaa bbbb', 'good good good good good good']) {
    const err = await t.fail('leave_feedback', { agent_name: 'junk-agent', rating: 5, body });
    assert.equal(err.code, 'feedback_not_real', body);
    assert.equal(err.field, 'body');
  }
  const rows = await app.sql.selectFrom('feedback_items').select('id').where('subject', '=', nameSubject('junk-agent')).execute();
  assert.equal(rows.length, 0);
  const grants = await app.sql.selectFrom('meter_grants').selectAll().where('subject', '=', ADDRESS).where('day', '=', clock.now().toISOString().slice(0, 10)).execute();
  assert.deepEqual(grants, []);
  // Over REST the same 400.
  const rest = await postJson(app, '/api/products/feedback', { rating: 4, body: 'lorem ipsum lorem ipsum' });
  assert.equal(rest.status, 400);
  assert.equal(rest.body.error.code, 'feedback_not_real');
});

test(`bad inputs are clear 4xx naming the field (${engine})`, async () => {
  newDay();
  const base = { agent_name: 'bad-input-agent', rating: 4, body: REAL[0] };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ ...base, rating: 0 }, 'invalid_input', 'rating'],
    [{ ...base, rating: 6 }, 'invalid_input', 'rating'],
    [{ ...base, rating: 3.5 }, 'invalid_input', 'rating'],
    [{ ...base, rating: '5' }, 'invalid_input', 'rating'],
    [{ agent_name: 'x', body: REAL[0] }, 'invalid_input', 'rating'],
    [{ agent_name: 'x', rating: 3 }, 'invalid_input', 'body'],
    [{ rating: 3, body: REAL[0] }, 'invalid_input', 'agent_name'],
    [{ ...base, body: 'x'.repeat(4001) }, 'invalid_input', 'body'],
    [{ ...base, surface: 'homepage' }, 'invalid_input', 'surface'],
    [{ ...base, audience: 'human' }, 'invalid_input', 'audience'],
    [{ ...base, tags: 'a,b' }, 'invalid_input', 'tags'],
    [{ ...base, answers: 'yes' }, 'invalid_input', 'answers'],
    // The survey's own rules are in survey.test.ts; here: structured mode without its answers.
    [{ ...base, mode: 'structured' }, 'invalid_input', 'answers'],
    [{ ...base, mode: 'structured', answers: { overall: 5 } }, 'invalid_input', 'answers.audience_role'],
    [{ ...base, listing_id: 'lst_nobody' }, 'not_found', 'listing_id'],
  ];
  for (const [args, code, field] of cases) {
    const err = await t.fail('leave_feedback', args);
    assert.equal(err.code, code, JSON.stringify(args).slice(0, 80));
    assert.equal(err.field, field, JSON.stringify(args).slice(0, 80));
  }
  // Every surface id of SPEC.md 2.5 is accepted.
  const surfaces = await Promise.all(SURFACES.slice(0, 3).map((surface, i) => t.ok('leave_feedback', { ...base, surface, body: `${REAL[i]} (${surface})` })));
  assert.equal(surfaces.length, 3);
  // REST: agent_name is optional there (SPEC.md 2.5); the caller is then its address (here another
  // address than the tool calls above, so this is its first item of the day and refills it).
  const res = await app.http.inject({ method: 'POST', url: '/api/products/feedback', remoteAddress: '192.0.2.40', headers: { 'content-type': 'application/json' }, payload: { rating: 5, body: 'Listing my MCP server took one request and it went Live quickly.' } });
  const rest = { status: res.statusCode, body: res.json() };
  assert.equal(rest.status, 200, JSON.stringify(rest.body));
  assert.equal(rest.body.refill.granted, true);
  assert.equal(rest.body.subject.kind, 'address');
  assert.deepEqual(rest.body.next_step.args, {});
  const empty = await app.http.inject({ method: 'POST', url: '/api/products/feedback', headers: { 'content-type': 'application/json' }, payload: 'null' });
  assert.equal(empty.statusCode, 400);
});

test(`feedback naming a listing marks its trail once a day per caller: attraction for 4-5, danger for 1-2; only its owner's moves it (${engine})`, async () => {
  newDay();
  const { id: listingId, owner } = await ownedListing('https://feedback-target.example.org/mcp');
  try {
    const field = async (channel: string) => app.sql.selectFrom('trace_field').selectAll().where('subject_key', '=', `listing:${listingId}`).where('channel', '=', channel).executeTakeFirst();
    // A stranger's rating is recorded as a trace on the listing, but it moves nothing.
    const stranger = await t.ok('leave_feedback', { agent_name: 'trail-agent', listing_id: listingId, rating: 5, body: 'This server answered every tool call correctly and fast.' });
    assert.deepEqual(stranger.trace, { channel: 'attraction', listing_id: listingId, intensity: 4 });
    assert.equal(Number((await field('attraction'))?.value ?? 0), 0);
    // The owner's moves the field.
    const good = await owner.ok('leave_feedback', { agent_name: 'trail-agent', listing_id: listingId, rating: 5, body: 'This server answered every tool call correctly and fast.' });
    assert.deepEqual(good.trace, { channel: 'attraction', listing_id: listingId, intensity: 4 });
    assert.equal(Number((await field('attraction'))!.value), 4);
    // A second counted item the same day from the same caller leaves no second trace.
    const second = await owner.ok('leave_feedback', { agent_name: 'trail-agent', listing_id: listingId, rating: 5, body: 'Second note: the tools list is clear and well documented.' });
    assert.equal(second.counted, true);
    assert.equal(second.trace, null);
    assert.equal(Number((await field('attraction'))!.deposits), 1);
    // A neutral 3 leaves none.
    clock.advance(86_400_000);
    assert.equal((await owner.ok('leave_feedback', { agent_name: 'trail-agent', listing_id: listingId, rating: 3, body: 'It works but the descriptions could say more.' })).trace, null);
    // The deposits are by the system, not the caller; the stranger's is kept without moving the field.
    // (The listing's own `joined` trace from publishing is not feedback's.)
    const deposits = await app.sql.selectFrom('trace_deposits').select(['depositor', 'channel', 'intensity', 'moves']).where('subject_key', '=', `listing:${listingId}`).where('channel', '!=', 'joined').orderBy('id').execute();
    assert.deepEqual(deposits.map((d) => [d.depositor, d.channel, Number(d.intensity), Number(d.moves)]).sort(), [['system', 'attraction', 4, 0], ['system', 'attraction', 4, 1]]);
    clock.advance(86_400_000);
    const bad = await owner.ok('leave_feedback', { agent_name: 'trail-agent', listing_id: listingId, rating: 1, body: 'Every call timed out and the errors were wrong.' });
    assert.deepEqual(bad.trace, { channel: 'danger', listing_id: listingId, intensity: 4 });
    assert.equal(Number((await field('danger'))!.value), 4);
  } finally {
    await owner.close();
  }
});
