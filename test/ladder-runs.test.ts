// execute_compose as callers meet it, through the MCP door with the official SDK client against
// real partners made Live by real probes: server-everything (127.0.0.1; get-sum {a, b}, echo
// {message}, ...) and an @a2a-js/sdk agent on a host of its own (127.0.0.2), which is also a
// composer with its owner token. What a run records lands on the partners that answered, with the
// run; the composer gets used_with and nothing else; an anonymous caller's run moves no rank. A run
// that cannot start for the caller's own reason (missing or wrong arguments) is refused before
// anything is charged or recorded, and every hint on the way (mesh_compose, used_with,
// interop_session, the refusal itself) leads to a run that executes once its `needs` are written;
// a parameter that is one of a few values is never filled with the chain's text (the refusal names
// its choices), and a plan for echo, a goal in other words included, chains echo alone.
// Also: mesh_match's limit named in words, and the mcp_mesh demo matching partners for every tool of a server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { connect, nameSubject, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { waitForLane } from './helpers/wait.ts';
import { setListingState } from './helpers/state.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { DAY_MS, ManualClock } from '../src/platform/clock.ts';
import { canonicalCapability, storedItems } from '../src/mesh/coverage.ts';

type Structured = Record<string, any>;

const clock = new ManualClock('2026-11-02T09:00:00.000Z');
let app: TestApp;
let everything: Peer;
let agent: AgentPeer;
/** A caller without an owner token. */
let stranger: Tools;
/** The agent's owner (its owner token as Authorization: Bearer): a composer acting for its listing. */
let composer: Tools;
const ids = {} as Record<'everything' | 'agent', string>;

before(async () => {
  [everything, agent] = await Promise.all([startEverything(), startA2aAgent({ shape: '1.0', host: '127.0.0.2' })]);
  app = await startApp({
    clock,
    probing: true,
    env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0', COMPOSE_STEP_TIMEOUT_MS: '5000', COMPOSE_RUN_TIMEOUT_MS: '20000' },
  });
  for (const [key, url] of [
    ['everything', everything.url],
    ['agent', agent.cardUrl],
  ] as const) {
    const published = await postJson(app, '/api/publish', { url });
    const s = await waitForLane(app, published.body.listing_id, ['active', 'failed']);
    assert.equal(s.lane, 'active', `${key}: ${s.lane_reason} ${JSON.stringify(s.probe)}`);
    ids[key] = s.id;
  }
  await app.services.search.poll();
  stranger = await connect(app);
  composer = await connect(app, { headers: asOwner(await ownListing(app, ids.agent)), base: stranger.base });
  await Promise.all([stranger.client.listTools(), composer.client.listTools()]); // results are then checked against each outputSchema
});
after(async () => {
  await Promise.all([stranger?.close(), composer?.close()]);
  await app?.close();
  await Promise.all([everything?.close(), agent?.close()]);
});

/** A fresh UTC day: mesh_compose and execute_compose share 2 free units a day per address. */
const newDay = () => clock.advance(DAY_MS);
/** A next_step's args with what its `needs` names written in, as the caller would. */
function written(next: { args: Record<string, unknown>; needs?: string[] }, values: Record<string, unknown>): Record<string, unknown> {
  const args: Structured = structuredClone(next.args);
  for (const need of next.needs ?? []) {
    assert.ok(need in values, `the test writes ${need}`);
    const [head, step, param] = need.split('.');
    if (head === 'arguments') args.arguments = { ...args.arguments, [step!]: { ...args.arguments?.[step!], [param!]: values[need] } };
    else args[need] = values[need];
  }
  return args;
}
const outcomesFrom = (from: string) => app.sql.selectFrom('trace_outcomes').selectAll().where('from_label', '=', from).execute();
const outcomesOf = (listingId: string) => app.sql.selectFrom('trace_outcomes').selectAll().where('listing_id', '=', listingId).execute();
const usedToday = async (via: Tools, agentName?: string) => {
  const runs = await via.ok('get_agent_runs', agentName ? { agent_name: agentName } : {});
  return runs.today.find((u: Structured) => u.event_id === 'mesh_compose')?.used ?? 0;
};

test(`a run's outcomes and rank effects land on the partner that answered, with the run; the composer gets used_with only (${engine})`, async () => {
  newDay();
  const plan = await composer.ok('mesh_compose', { listing_id: ids.agent, capabilities: ['get-sum', 'echo'] });
  assert.deepEqual(plan.steps.map((s: Structured) => [s.listing_id, s.calls.map((c: Structured) => c.params.name)]), [[ids.everything, ['get-sum', 'echo']]]);
  assert.equal(plan.next_step.tool, 'used_with');
  const used = await composer.ok(plan.next_step.tool, plan.next_step.args);
  // The hint runs once the caller writes the two numbers get-sum needs; it acts for the same listing.
  assert.deepEqual([used.next_step.tool, used.next_step.args.listing_id, used.next_step.needs], ['execute_compose', ids.agent, ['arguments.1.a', 'arguments.1.b']]);
  const run = await composer.ok('execute_compose', written(used.next_step, { 'arguments.1.a': 2, 'arguments.1.b': 3 }));
  assert.equal(run.status, 'completed', JSON.stringify(run.steps));
  assert.match(run.output, /The sum of 2 and 3 is 5/);
  assert.deepEqual(run.steps[0].calls.map((c: Structured) => c.tool), ['get-sum', 'echo']);
  assert.match(run.run_id, /^run_/);
  assert.equal(run.recorded.from, `${plan.composition_id}/${run.run_id}`);

  // One outcome, on the partner that answered, carrying the run; none on the composer.
  const outcomes = await outcomesFrom(run.recorded.from);
  assert.deepEqual(outcomes.map((o) => [o.listing_id, Number(o.ok), Number(o.quality), o.depositor]), [[ids.everything, 1, 1, `listing:${ids.agent}`]]);
  assert.deepEqual(await outcomesOf(ids.agent), []);
  // A claimed Live listing of another owner domain: its run moves the partner's rank.
  assert.deepEqual(run.recorded.outcomes.map((o: Structured) => [o.listing_id, o.ok, o.moves_rank]), [[ids.everything, true, true]]);
  const marks = await app.sql.selectFrom('trace_deposits').selectAll().where('subject_key', '=', `listing:${ids.everything}`).where('depositor', '=', `listing:${ids.agent}`).execute();
  assert.deepEqual(marks.map((m) => [m.channel, Number(m.moves)]), [['attraction', 1]]);
  // What a composer gets: used_with with the partner that answered.
  assert.deepEqual(run.recorded.used_with, [{ listing_id: ids.agent, partner_listing_id: ids.everything }]);

  // The ladder's last rung lands on the partner too, tied to the run.
  assert.deepEqual([run.next_step.tool, run.next_step.args.listing_id, run.next_step.args.from], ['deposit_outcome', ids.everything, run.recorded.from]);
  const reported = await composer.ok(run.next_step.tool, { ...run.next_step.args, ok: true, quality: 0.9, body: 'It added the two numbers and echoed the sum back correctly.' });
  assert.equal(reported.outcome.listing_id, ids.everything);

  // The composer's history shows its outcomes about the partner; abundance_rank credits the partner, not the composer.
  const history = await composer.ok('get_agent_runs', {});
  assert.ok(history.outcomes.length >= 2 && history.outcomes.every((o: Structured) => o.listing_id === ids.everything && o.mine), JSON.stringify(history.outcomes));
  const ranks = (await stranger.ok('abundance_rank', {})).ranks as Structured[];
  assert.ok(ranks.find((r) => r.listing_id === ids.everything)?.outcomes >= 2, JSON.stringify(ranks));
  assert.equal(ranks.find((r) => r.listing_id === ids.agent)?.outcomes ?? 0, 0);

  // A stranger's run of the same plan: recorded on the partner and shown, moving no rank.
  const field = async () => Number((await app.sql.selectFrom('trace_field').select('value').where('channel', '=', 'attraction').where('subject_key', '=', `listing:${ids.everything}`).executeTakeFirst())?.value ?? 0);
  const before = await field();
  const theirs = await stranger.ok('execute_compose', { composition_id: plan.composition_id, arguments: { 'get-sum': { a: 4, b: 5 } }, agent_name: 'passer-by' });
  assert.equal(theirs.status, 'completed');
  assert.deepEqual(theirs.recorded.outcomes.map((o: Structured) => [o.listing_id, o.moves_rank]), [[ids.everything, false]]);
  assert.match(theirs.recorded.outcomes[0].why, /move no rank/);
  assert.deepEqual((await outcomesFrom(theirs.recorded.from)).map((o) => [o.listing_id, o.depositor]), [[ids.everything, nameSubject('passer-by')]]);
  assert.equal(await field(), before, 'the field (and so the rank) did not move');
  assert.equal((await app.sql.selectFrom('trace_deposits').select('moves').where('body', '=', `answered step 1 of ${theirs.recorded.from}`).executeTakeFirstOrThrow()).moves, 0);
});

test(`mesh_compose -> used_with -> execute_compose: a run missing arguments is refused unpaid, names them, and its next_step runs (${engine})`, async () => {
  newDay();
  const who = { agent_name: 'hinted' };
  const plan = await stranger.ok('mesh_compose', { capabilities: ['get-sum', 'echo', 'translate text'], ...who });
  assert.deepEqual(plan.steps.map((s: Structured) => s.listing_id), [ids.everything, ids.agent]);
  assert.deepEqual([plan.next_step.tool, plan.next_step.args.agent_name], ['used_with', 'hinted']);
  const used = await stranger.ok(plan.next_step.tool, plan.next_step.args);
  // The hint carries the caller and says what only it can write: get-sum's two numbers (no text goes in first).
  assert.deepEqual(used.next_step.args, { composition_id: plan.composition_id, agent_name: 'hinted' });
  assert.deepEqual(used.next_step.needs, ['arguments.1.a', 'arguments.1.b']);
  assert.match(used.next_step.why, /"a" \(number: "First number"\)/);

  // The call as an agent made it, with the capabilities as its input: refused, nothing charged, sent or recorded.
  const refused = await stranger.fail('execute_compose', { composition_id: plan.composition_id, input: 'get-sum, echo, translate text', ...who });
  assert.deepEqual([refused.code, refused.field], ['needs_arguments', 'arguments']);
  assert.match(refused.message, /step 1's tool "get-sum" needs "a" \(number: "First number"\), "b" \(number: "Second number"\)/);
  assert.match(refused.message, /\{"1": \{"a": <number>, "b": <number>\}\}/);
  assert.deepEqual(refused.details.steps, [
    { step: 1, listing_id: ids.everything, tool: 'get-sum', needs: [{ name: 'a', type: 'number', description: 'First number' }, { name: 'b', type: 'number', description: 'Second number' }] },
  ]);
  assert.equal(await usedToday(stranger, 'hinted'), 1, 'only mesh_compose was charged');
  assert.deepEqual(await app.sql.selectFrom('trace_outcomes').select('id').where('from_label', 'like', `${plan.composition_id}/%`).execute(), []);
  assert.equal(await app.sql.selectFrom('trace_field').select('value').where('channel', '=', 'danger').where('subject_key', '=', `listing:${ids.everything}`).executeTakeFirst(), undefined);

  // Wrong keys, parameters and types are named before anything is charged too.
  for (const [args, field] of [
    [{ '9': { a: 1 } }, 'arguments.9'],
    [{ 'get-sum': { c: 1 } }, 'arguments.get-sum.c'],
    [{ '1': { a: 'two', b: 3 } }, 'arguments.1.a'],
    [{ '2': { text: 'x' } }, 'arguments.2'],
  ] as const) {
    const e = await stranger.fail('execute_compose', { composition_id: plan.composition_id, arguments: args, ...who });
    assert.deepEqual([e.code, e.field], ['invalid_input', field], e.message);
  }
  assert.equal(await usedToday(stranger, 'hinted'), 1);

  // The refusal's next_step, with the numbers written in, runs the whole chain.
  const next = refused.details.next_step;
  assert.deepEqual([next.tool, next.args.input, next.args.agent_name, next.needs], ['execute_compose', 'get-sum, echo, translate text', 'hinted', ['arguments.1.a', 'arguments.1.b']]);
  const run = await stranger.ok(next.tool, written(next, { 'arguments.1.a': 2, 'arguments.1.b': '3' }));
  assert.equal(run.status, 'completed', JSON.stringify(run.steps));
  assert.match(run.steps[0].output, /The sum of 2 and 3 is 5/);
  assert.match(run.output, /^translated: .*The sum of 2 and 3 is 5/);
  assert.equal(run.meter.used_today, 2);
  assert.deepEqual((await outcomesFrom(run.recorded.from)).map((o) => [o.listing_id, Number(o.ok)]).sort(), [[ids.agent, 1], [ids.everything, 1]].sort());
  assert.deepEqual([run.next_step.tool, run.next_step.args.listing_id, run.next_step.args.agent_name], ['deposit_outcome', ids.everything, 'hinted']);
});

test(`interop_session carries the caller into execute_compose; a value the partner refuses marks nobody (${engine})`, async () => {
  newDay();
  // Both sides named: that listing, for that capability.
  const session = await stranger.ok('interop_session', { listing_id: ids.agent, partner_listing_id: ids.everything, capability: 'get-sum', agent_name: 'interop-agent' });
  assert.equal(session.to, ids.everything);
  assert.equal(session.steps[0].calls[0].params.name, 'get-sum');
  assert.deepEqual(session.next_step.args, { composition_id: session.composition_id, agent_name: 'interop-agent', listing_id: ids.agent });
  assert.deepEqual(session.next_step.needs, ['arguments.1.a', 'arguments.1.b']);
  const run = await stranger.ok('execute_compose', written(session.next_step, { 'arguments.1.a': 20, 'arguments.1.b': 22 }));
  assert.equal(run.output, 'The sum of 20 and 22 is 42.');
  assert.equal(await usedToday(stranger, 'interop-agent'), 1, 'the run spent the named caller\'s unit');
  assert.deepEqual((await outcomesFrom(run.recorded.from)).map((o) => o.depositor), [nameSubject('interop-agent')]);
  // A partner that does not cover the capability: the answer says which side to leave out.
  const e = await stranger.fail('interop_session', { listing_id: ids.everything, partner_listing_id: ids.agent, capability: 'get-sum', agent_name: 'interop-agent' });
  assert.equal(e.field, 'capability');
  assert.match(e.message, /leave out capability .* or leave out partner_listing_id/);

  // A choice the text cannot make (location is one of three cities): the caller's to give, named with its choices.
  const cities = await composer.ok('interop_session', { listing_id: ids.agent, partner_listing_id: ids.everything, capability: 'get-structured-content' });
  assert.deepEqual([cities.next_step.args.listing_id, cities.next_step.needs], [ids.agent, ['arguments.1.location']]);
  assert.match(cities.next_step.why, /"location" \(string, one of "New York", "Chicago", "Los Angeles": "Choose city"\)/);
  const right = await composer.ok('execute_compose', written(cities.next_step, { 'arguments.1.location': 'Chicago' }));
  assert.equal(right.status, 'completed', JSON.stringify(right.steps));

  // A value the schema allows and the tool refuses (count is 1-10): the caller's mistake, no mark on the partner.
  const links = await composer.ok('interop_session', { listing_id: ids.agent, partner_listing_id: ids.everything, capability: 'get-resource-links' });
  const wrong = await composer.ok('execute_compose', { ...links.next_step.args, arguments: { '1': { count: 50 } } });
  assert.deepEqual([wrong.status, wrong.steps[0].status, wrong.steps[0].reason], ['failed', 'failed', 'invalid_arguments'], JSON.stringify(wrong.steps));
  assert.deepEqual([wrong.recorded.outcomes, wrong.recorded.danger], [[], []]);
  assert.equal(await app.sql.selectFrom('trace_field').select('value').where('channel', '=', 'danger').where('subject_key', '=', `listing:${ids.everything}`).executeTakeFirst(), undefined);
  assert.deepEqual([wrong.next_step.tool, wrong.next_step.args.arguments, wrong.next_step.needs], ['execute_compose', { '1': { count: 50 } }, ['arguments.1.count']]);
  assert.notEqual(wrong.next_step.tool, 'deposit_outcome');
});

test(`mesh_compose for echo plans only echo, the goal in other words included; its run completes and credits the server that answered (${engine})`, async () => {
  newDay();
  const who = { agent_name: 'echoer' };
  // The caller names the capability and says the goal its own way: "message" is no second tool's work.
  const plan = await stranger.ok('mesh_compose', { capabilities: ['echo'], goal: 'echo a message', ...who });
  assert.deepEqual(plan.capabilities, ['echo']);
  assert.deepEqual(plan.steps.map((s: Structured) => [s.listing_id, s.covers, s.calls.map((c: Structured) => c.params.name)]), [[ids.everything, ['echo'], ['echo']]]);
  // The goal alone: the tool that takes the message is the one that echoes it.
  const fromGoal = await stranger.ok('mesh_compose', { goal: 'echo a message', ...who });
  assert.deepEqual(fromGoal.from_goal.map((d: Structured) => d.capability), ['echo']);
  assert.deepEqual(fromGoal.steps.map((s: Structured) => s.calls.map((c: Structured) => c.params.name)), [['echo']]);

  newDay();
  // The plan's own hint runs as it is: the goal is the text the echo takes.
  assert.deepEqual([plan.next_step.tool, plan.next_step.args.input, plan.next_step.needs], ['execute_compose', 'echo a message', undefined]);
  const run = await stranger.ok(plan.next_step.tool, plan.next_step.args);
  assert.equal(run.status, 'completed', JSON.stringify(run.steps));
  assert.deepEqual(run.steps.map((s: Structured) => [s.listing_id, s.status, s.calls.map((c: Structured) => c.tool)]), [[ids.everything, 'ok', ['echo']]]);
  assert.equal(run.output, 'Echo: echo a message');
  assert.equal(await usedToday(stranger, 'echoer'), 1);
  // Credited to the listing whose server answered: its outcome, its attraction, the outcome the caller reports next.
  assert.deepEqual(run.recorded.outcomes.map((o: Structured) => [o.step, o.listing_id, o.ok]), [[1, ids.everything, true]]);
  assert.deepEqual((await outcomesFrom(run.recorded.from)).map((o) => [o.listing_id, Number(o.ok), o.depositor]), [[ids.everything, 1, nameSubject('echoer')]]);
  const marks = await app.sql.selectFrom('trace_deposits').select(['subject_key', 'channel']).where('body', '=', `answered step 1 of ${run.recorded.from}`).execute();
  assert.deepEqual(marks, [{ subject_key: `listing:${ids.everything}`, channel: 'attraction' }]);
  assert.deepEqual([run.next_step.tool, run.next_step.args.listing_id, run.next_step.args.from], ['deposit_outcome', ids.everything, run.recorded.from]);
  const reported = await stranger.ok(run.next_step.tool, { ...run.next_step.args, ok: true, quality: 1, body: 'It echoed my message back word for word.' });
  assert.deepEqual([reported.outcome.listing_id, reported.outcome.from, reported.refill.granted], [ids.everything, run.recorded.from, true]);
});

test(`a run whose tool needs a choice the text cannot make is refused before it starts, unpaid, naming the choices (${engine})`, async () => {
  newDay();
  const who = { agent_name: 'annotator' };
  // echo, then a tool whose messageType is one of three values: the chain's text cannot fill it.
  const plan = await stranger.ok('mesh_compose', { capabilities: ['echo', 'get-annotated-message'], ...who });
  assert.deepEqual(plan.steps.map((s: Structured) => [s.listing_id, s.calls.map((c: Structured) => c.params.name)]), [[ids.everything, ['echo', 'get-annotated-message']]]);
  assert.deepEqual(plan.next_step.needs, ['input', 'arguments.1.messageType']);

  const refused = await stranger.fail('execute_compose', { composition_id: plan.composition_id, input: 'hello there', ...who });
  assert.deepEqual([refused.code, refused.field], ['needs_arguments', 'arguments']);
  assert.match(refused.message, /step 1's tool "get-annotated-message" needs "messageType" \(string, one of "error", "success", "debug": "Type of message to demonstrate different annotation patterns"\)/);
  assert.match(refused.message, /\{"1": \{"messageType": <"error" \| "success" \| "debug">\}\}/);
  assert.deepEqual(refused.details.steps, [
    {
      step: 1,
      listing_id: ids.everything,
      tool: 'get-annotated-message',
      needs: [{ name: 'messageType', type: 'string', description: 'Type of message to demonstrate different annotation patterns', enum: ['error', 'success', 'debug'] }],
    },
  ]);
  // A value outside the choices is refused the same way, before anything is charged.
  const outside = await stranger.fail('execute_compose', { composition_id: plan.composition_id, input: 'hello there', arguments: { '1': { messageType: 'hello there' } }, ...who });
  assert.deepEqual([outside.code, outside.field, outside.message], ['invalid_input', 'arguments.1.messageType', 'invalid input: arguments.1.messageType: must be one of "error", "success", "debug"']);
  // Unpaid: only mesh_compose spent a unit; nothing sent or recorded.
  assert.equal(await usedToday(stranger, 'annotator'), 1);
  assert.deepEqual(await app.sql.selectFrom('trace_outcomes').select('id').where('from_label', 'like', `${plan.composition_id}/%`).execute(), []);

  // The refusal's next_step with a choice written in: both tools run, and the server that answered is credited.
  const run = await stranger.ok('execute_compose', written(refused.details.next_step, { 'arguments.1.messageType': 'success' }));
  assert.equal(run.status, 'completed', JSON.stringify(run.steps));
  assert.deepEqual(run.steps[0].calls.map((c: Structured) => [c.tool, c.status]), [['echo', 'ok'], ['get-annotated-message', 'ok']]);
  assert.deepEqual((await outcomesFrom(run.recorded.from)).map((o) => [o.listing_id, Number(o.ok)]), [[ids.everything, 1]]);
  assert.equal(await usedToday(stranger, 'annotator'), 2);
});

test(`mesh_match names a limit that is no whole number 1-100 in words (${engine})`, async () => {
  newDay();
  for (const limit of ['ten', 0, 101, 2.5]) {
    const e = await stranger.fail('mesh_match', { capabilities: ['echo'], limit, agent_name: 'counter' });
    assert.deepEqual([e.code, e.field, e.message], ['invalid_input', 'limit', 'invalid input: limit: must be a whole number 1-100']);
  }
  assert.equal((await stranger.ok('mesh_match', { capabilities: ['echo'], limit: '100', agent_name: 'counter' })).meter.used_today, 1);
});

test(`the mcp_mesh demo of a server matches partners for every one of its tools (${engine})`, async () => {
  const row = await app.sql.selectFrom('listings').select('capabilities').where('id', '=', ids.everything).executeTakeFirstOrThrow();
  const tools = storedItems(row.capabilities).map((i) => canonicalCapability(i.name));
  assert.ok(tools.length > 10 && tools.includes('get-sum') && tools.includes('simulate-research-query'), JSON.stringify(tools));
  // A partner for the server's last tool only (past the first 10, mesh_match's most per call).
  const last = tools[tools.length - 1]!;
  const published = await postJson(app, '/api/publish', { url: 'https://last-tool-twin.example.org/mcp' });
  await waitForLane(app, published.body.listing_id, ['failed']);
  const now = app.clock.now().toISOString();
  const capabilities = JSON.stringify({ names: [last], items: [{ name: last, description: 'The same research query, simulated elsewhere', params: [] }] });
  await setListingState(app, published.body.listing_id, { lane: 'active', kind: 'mcp', name: 'Last Tool Twin', live_since: now, capabilities, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probed_at: now }, now);
  await app.services.search.poll();
  const demo = await stranger.ok('take_demo', { listing_id: ids.everything });
  assert.equal(demo.sku, 'mcp_mesh');
  // Every tool is shown with its ready call, and partners were looked for for each (none left out).
  assert.deepEqual(demo.artifacts.tools.map((x: any) => canonicalCapability(x.call.name)), tools);
  assert.deepEqual(demo.artifacts.matches.hits.map((h: any) => [h.listing_id, h.covers]), [[published.body.listing_id, [last]]]);
  assert.equal(demo.artifacts.matches.left_out, undefined);
});
