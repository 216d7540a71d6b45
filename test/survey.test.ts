// The structured survey of SPEC.md 2.5 (version 3.1.0) through leave_feedback (MCP door, official
// SDK client), POST /api/products/feedback and POST /api/products/agent: the catalog as data, every
// validation rule (types, required, options, min lengths, ranges, unknown ids), all violations at
// once, junk text, the ultra path that never requires the survey, storage, the agent path, and the
// pricing_fairness bonus (SPEC.md 8.1) seen in the metering store and the meter of metered calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine, postJson, type TestApp } from './helpers/app.ts';
import { valueToolsPerFile, nameSubject, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { fullAnswers, SPEC_REQUIRED } from './helpers/survey.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { checkAnswers, surveyCatalog, SURVEY_VERSION } from '../src/feedback/survey.ts';
import { addressHash } from '../src/metering/caller.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let t: Tools;
const newDay = valueToolsPerFile(clock, (a, tools) => {
  app = a;
  t = tools;
}, 10);

const BODY = 'The survey was long but every question made sense to me.';
const rules = (details: { question: string | null; rule: string; field: string }[]) => details.map((d) => `${d.field}:${d.rule}`).sort();

// SPEC.md 2.5, written out by hand: id, type, required, options count or bounds or min length.
const SPEC_TABLE: [string, string, boolean, Record<string, unknown>][] = [
  ['overall', 'scale', true, { min: 1, max: 5 }],
  ['audience_role', 'single', true, { options: ['agent_runtime', 'mcp_publisher', 'both', 'human_operator'] }],
  ['tried', 'single', true, { options: ['preview', 'kernel', 'recursive', 'alive', 'mcp_mesh', 'network_tools', 'multiple'] }],
  ['agent_ux', 'scale', true, { min: 1, max: 5 }],
  ['time_to_value', 'single', true, { options: ['under_2_min', '2_to_10_min', '10_to_30_min', 'over_30_min', 'never_got_value'] }],
  ['api_docs_clarity', 'scale', true, { min: 1, max: 5 }],
  ['ux_friction', 'text', true, { min_length: 12 }],
  ['kernel_clarity', 'scale', true, { min: 1, max: 5 }],
  ['loop_clarity', 'scale', true, { min: 1, max: 5 }],
  ['mesh_clarity', 'scale', false, { min: 1, max: 5 }],
  ['artifact_goal_fit', 'scale', true, { min: 1, max: 5 }],
  ['network_clarity', 'scale', true, { min: 1, max: 5 }],
  ['network_tried', 'multi', false, { options: ['sense_traces', 'follow_trail', 'leave_trace', 'join_and_contribute', 'get_exonomics', 'match_capability', 'leave_feedback', 'deposit_outcome', 'none_yet'] }],
  ['network_value', 'single', true, { options: ['much_more', 'somewhat_more', 'no_change', 'less', 'unclear_what_it_is'] }],
  ['network_wish', 'text', true, { min_length: 8 }],
  ['confusing', 'text', true, { min_length: 12 }],
  ['would_pay_for', 'text', true, { min_length: 12 }],
  ['improvements', 'multi', true, { options: 22 }],
  ['keep_doing', 'text', false, { min_length: 8 }],
  ['stop_doing', 'text', false, { min_length: 8 }],
  ['start_doing', 'text', false, { min_length: 8 }],
  ['pref_prompt_winner', 'single', false, { options: ['a', 'b', 'tie'] }],
  ['pref_promote_winner', 'single', false, { options: ['a', 'b', 'tie'] }],
  ['still_broken', 'single', false, { options: ['no', 'partly', 'yes', 'did_not_try'] }],
  ['kernel_clarity_after', 'scale', false, { min: 1, max: 5 }],
  ['loop_clarity_after', 'scale', false, { min: 1, max: 5 }],
  ['production_blocker', 'text', true, { min_length: 8 }],
  ['kernel_wish', 'text', true, { min_length: 8 }],
  ['loop_wish', 'text', true, { min_length: 8 }],
  ['product_one_ship', 'text', true, { min_length: 8 }],
  ...['wtp_kernel_usd', 'wtp_recursive_usd', 'wtp_alive_usd', 'wtp_mcp_mesh_usd', 'wtp_collab_pack_usd', 'wtp_collab_lab_license_usd'].map((id): [string, string, boolean, Record<string, unknown>] => [id, 'currency', false, { min: 0, max: 5000 }]),
  ...['wtp_event_improve_kernel_usd', 'wtp_event_run_loop_tick_usd', 'wtp_event_mesh_match_usd', 'wtp_event_mesh_compose_usd', 'wtp_event_collab_session_usd', 'wtp_event_collab_package_usd'].map((id): [string, string, boolean, Record<string, unknown>] => [id, 'currency', false, { min: 0, max: 50 }]),
  ['pricing_fairness', 'scale', false, { min: 1, max: 5 }],
  ['would_buy_at_founding', 'single', false, { options: ['yes', 'no', 'maybe'] }],
  ['name_your_price_intent', 'single', false, { options: ['yes_prefer_nyp', 'maybe', 'no_prefer_list', 'need_more_info'] }],
  ['wtp_confidence', 'scale', false, { min: 1, max: 5 }],
  ['wtp_why', 'text', false, { min_length: 4 }],
  ['extra', 'text', false, {}],
];

test('the catalog is SPEC.md 2.5, question by question, version 3.1.0', () => {
  const catalog = surveyCatalog();
  assert.equal(catalog.version, '3.1.0');
  assert.equal(SURVEY_VERSION, '3.1.0');
  assert.deepEqual(catalog.questions.map((q) => q.id), SPEC_TABLE.map((r) => r[0]));
  for (const [id, type, required, extra] of SPEC_TABLE) {
    const q = catalog.questions.find((x) => x.id === id)! as Record<string, unknown>;
    assert.equal(q.type, type, id);
    assert.equal(q.required, required, id);
    if (typeof extra.options === 'number') assert.equal((q.options as string[]).length, extra.options, id);
    else if (extra.options) assert.deepEqual(q.options, extra.options, id);
    for (const k of ['min', 'max', 'min_length'] as const) assert.equal(q[k], extra[k], `${id}.${k}`);
  }
  assert.deepEqual(catalog.required, SPEC_REQUIRED);
  // A complete, valid survey passes; nothing is required on the ultra path.
  assert.deepEqual(checkAnswers(fullAnswers(), true).violations, []);
  assert.deepEqual(checkAnswers({}, false).violations, []);
  assert.deepEqual(rules(checkAnswers({}, true).violations as never), SPEC_REQUIRED.map((id) => `answers.${id}:required`).sort());
});

test(`structured feedback through the MCP door is stored with its answers and rows (${engine})`, async () => {
  newDay();
  const answers = fullAnswers({ network_tried: ['leave_trace', 'sense_traces'], wtp_kernel_usd: 12.5, wtp_event_improve_kernel_usd: 0.1, extra: 'Thanks!' });
  const r = await t.ok('leave_feedback', { agent_name: 'survey-bot', rating: 4, body: BODY, mode: 'structured', answers, source: 'sdk' });
  assert.equal(r.structured, true);
  assert.equal(r.mode, 'structured');
  assert.equal(r.survey_version, SURVEY_VERSION);
  assert.equal(r.answers_recorded, Object.keys(answers).length);
  assert.equal(r.refill.granted, true);
  assert.equal(r.fairness_bonus, undefined, 'no pricing_fairness answer, no bonus');
  const row = await app.sql.selectFrom('feedback_items').selectAll().where('id', '=', r.feedback_id).executeTakeFirstOrThrow();
  assert.equal(row.mode, 'structured');
  assert.equal(Number(row.structured), 1);
  assert.equal(row.subject, nameSubject('survey-bot'));
  const stored = JSON.parse(row.answers!);
  // Catalog order, multi options in option order.
  assert.deepEqual(Object.keys(stored), surveyCatalog().questions.map((q) => q.id).filter((id) => id in answers));
  assert.deepEqual(stored.network_tried, ['sense_traces', 'leave_trace']);
  assert.equal(stored.wtp_kernel_usd, 12.5);
  assert.equal(JSON.parse(row.meta).survey_version, '3.1.0');
  // One row per scale, choice option and amount; text stays on the item.
  const rows = await app.sql.selectFrom('feedback_answers').selectAll().where('feedback_id', '=', r.feedback_id).execute();
  const scales = ['overall', 'agent_ux', 'api_docs_clarity', 'kernel_clarity', 'loop_clarity', 'artifact_goal_fit', 'network_clarity'];
  const singles = ['audience_role', 'tried', 'time_to_value', 'network_value'];
  assert.equal(rows.length, scales.length + singles.length + 2 /* improvements */ + 2 /* network_tried */ + 2 /* amounts */);
  assert.equal(Number(rows.find((x) => x.question === 'wtp_event_improve_kernel_usd')!.num), 0.1);
  assert.deepEqual(rows.filter((x) => x.question === 'improvements').map((x) => x.value).sort(), ['live_worked_example', 'shorter_system_prompt']);
  // Themes are read from the body and the text answers ("access token flow" -> none; "eval results" -> evals; "example" -> examples).
  assert.ok(r.themes.map((x: any) => x.theme).includes('evals'));
  assert.ok(r.themes.map((x: any) => x.theme).includes('examples'));
});

// One wrong answer at a time: [question, value, rule].
const ONE_RULE: [string, unknown, string][] = [
  ['overall', '5', 'type'],
  ['overall', 4.5, 'integer'],
  ['overall', 0, 'range'],
  ['agent_ux', 6, 'range'],
  ['mesh_clarity', -1, 'range'],
  ['audience_role', 3, 'type'],
  ['audience_role', 'robot', 'option'],
  ['network_value', 'SOMEWHAT_MORE', 'option'],
  ['improvements', 'shorter_system_prompt', 'type'],
  ['improvements', [1, 2], 'type'],
  ['improvements', ['shorter_system_prompt', 'teleport'], 'option'],
  ['improvements', ['live_worked_example', 'live_worked_example'], 'duplicate'],
  ['improvements', [], 'required'],
  ['network_tried', ['nope'], 'option'],
  ['ux_friction', 'too short', 'min_length'],
  ['confusing', '  eleven ch  ', 'min_length'],
  ['would_pay_for', 'x'.repeat(2001), 'max_length'],
  ['network_wish', 'short', 'min_length'],
  ['keep_doing', 'concise', 'min_length'],
  ['wtp_why', 'low', 'min_length'],
  ['kernel_wish', 12345, 'type'],
  ['product_one_ship', '     ', 'required'],
  ['confusing', 'asdf asdf asdf asdf', 'not_real'],
  ['loop_wish', 'aaaaaaaaaaaa', 'not_real'],
  ['production_blocker', 'qwertyuiop', 'not_real'],
  ['wtp_kernel_usd', 5000.01, 'range'],
  ['wtp_collab_lab_license_usd', -5, 'range'],
  ['wtp_event_mesh_match_usd', 50.5, 'range'],
  ['wtp_event_run_loop_tick_usd', '$0.20', 'type'],
  ['wtp_alive_usd', { usd: 10 }, 'type'],
  ['pricing_fairness', 3.2, 'integer'],
  ['would_buy_at_founding', 'sure', 'option'],
  ['pref_prompt_winner', 'c', 'option'],
  ['still_broken', true, 'type'],
  ['kernel_clarity_after', 9, 'range'],
];

test(`every rule of every question type is enforced with a 400 naming the question and the rule (${engine})`, async () => {
  newDay();
  for (const [id, value, rule] of ONE_RULE) {
    const r = await postJson(app, '/api/products/feedback', { rating: 4, body: BODY, mode: 'structured', answers: fullAnswers({ [id]: value }) });
    assert.equal(r.status, 400, `${id}=${JSON.stringify(value)?.slice(0, 30)}`);
    assert.equal(r.body.error.code, 'invalid_input');
    assert.deepEqual(rules(r.body.error.details), [`answers.${id}:${rule}`], `${id}=${JSON.stringify(value)?.slice(0, 30)}`);
    assert.equal(r.body.error.field, `answers.${id}`);
  }
  // Boundaries are accepted: scales 1 and 5, amounts 0 and the maximum, a text exactly at its minimum.
  const edges = fullAnswers({ overall: 1, agent_ux: 5, wtp_kernel_usd: 0, wtp_alive_usd: 5000, wtp_event_mesh_match_usd: 50, wtp_event_mesh_compose_usd: 0, network_wish: 'eight ch', wtp_why: 'cost', extra: 'Great!' });
  const ok = await postJson(app, '/api/products/feedback', { rating: 4, body: BODY, mode: 'structured', answers: edges });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  // Answers that are not an object.
  const notObject = await postJson(app, '/api/products/feedback', { rating: 4, body: BODY, mode: 'structured', answers: ['overall', 4] });
  assert.equal(notObject.status, 400);
  assert.equal(notObject.body.error.field, 'answers');
  // Structured mode without answers lists every required question.
  const none = await postJson(app, '/api/products/feedback', { rating: 4, body: BODY, mode: 'structured' });
  assert.equal(none.status, 400);
  assert.equal(none.body.error.field, 'answers');
  for (const id of SPEC_REQUIRED) assert.ok(none.body.error.message.includes(id), id);
  const empty = await postJson(app, '/api/products/feedback', { rating: 4, body: BODY, mode: 'structured', answers: {} });
  assert.deepEqual(rules(empty.body.error.details), SPEC_REQUIRED.map((id) => `answers.${id}:required`).sort());
  // Nothing was stored by any refused call.
  assert.equal((await app.sql.selectFrom('feedback_items').select('id').where('mode', '=', 'structured').where('created_at', '>=', clock.now().toISOString().slice(0, 10)).execute()).length, 1);
});

test(`all violations are reported at once, with a junk body among them, at both doors (${engine})`, async () => {
  newDay();
  const answers: Record<string, unknown> = fullAnswers({
    overall: '5',
    agent_ux: 3.5,
    api_docs_clarity: 6,
    audience_role: 7,
    tried: 'everything',
    improvements: 'shorter_system_prompt',
    network_tried: ['sense_traces', 'sense_traces'],
    ux_friction: 'too short',
    confusing: 'lorem ipsum dolor sit',
    would_pay_for: 12345,
    extra: 'x'.repeat(2001),
    wtp_kernel_usd: 5001,
    wtp_event_mesh_match_usd: 50.01,
    wtp_recursive_usd: '$20',
    pricing_fairness: 9,
    pref_prompt_winner: 'c',
    loop_wish: null,
    product_one_ship: '   ',
    favourite_color: 'blue',
    'wtp-kernel': 10,
  });
  delete answers.kernel_wish;
  const expected = [
    'answers.overall:type',
    'answers.agent_ux:integer',
    'answers.api_docs_clarity:range',
    'answers.audience_role:type',
    'answers.tried:option',
    'answers.improvements:type',
    'answers.network_tried:duplicate',
    'answers.ux_friction:min_length',
    'answers.confusing:not_real',
    'answers.would_pay_for:type',
    'answers.extra:max_length',
    'answers.wtp_kernel_usd:range',
    'answers.wtp_event_mesh_match_usd:range',
    'answers.wtp_recursive_usd:type',
    'answers.pricing_fairness:range',
    'answers.pref_prompt_winner:option',
    'answers.loop_wish:required',
    'answers.product_one_ship:required',
    'answers.kernel_wish:required',
    'answers.favourite_color:unknown_question',
    'answers.wtp-kernel:unknown_question',
    'body:not_real',
  ].sort();
  const rest = await postJson(app, '/api/products/feedback', { rating: 4, body: 'test test test test', mode: 'structured', answers });
  assert.equal(rest.status, 400);
  assert.equal(rest.body.error.code, 'invalid_input');
  assert.deepEqual(rules(rest.body.error.details), expected);
  assert.match(rest.body.error.message, /22 problems/);
  const mcp = await t.fail('leave_feedback', { agent_name: 'many-problems', rating: 4, body: 'test test test test', mode: 'structured', answers });
  assert.equal(mcp.code, 'invalid_input');
  assert.deepEqual(rules(mcp.details), expected);
  assert.equal((await app.sql.selectFrom('feedback_items').select('id').where('subject', '=', nameSubject('many-problems')).execute()).length, 0);
  // A valid survey with a junk body is the ordinary feedback_not_real.
  const junk = await t.fail('leave_feedback', { agent_name: 'many-problems', rating: 4, body: 'asdf qwerty zxcvbnm', mode: 'structured', answers: fullAnswers() });
  assert.equal(junk.code, 'feedback_not_real');
  assert.equal(junk.field, 'body');
});

test(`the ultra path never requires the survey; answers given there are checked but not required (${engine})`, async () => {
  newDay();
  const plain = await postJson(app, '/api/products/feedback', { rating: 5, body: 'Rating plus one sentence is all it took, thank you.' });
  assert.equal(plain.status, 200);
  assert.equal(plain.body.structured, false);
  assert.equal(plain.body.mode, 'ultra');
  assert.equal(plain.body.survey_version, undefined);
  // A few commerce answers on the ultra path: stored, not structured.
  const partial = await t.ok('leave_feedback', { agent_name: 'ultra-partial', rating: 3, body: 'The per-call prices feel high for a small agent.', answers: { wtp_kernel_usd: 5, would_buy_at_founding: 'maybe' } });
  assert.equal(partial.structured, false);
  assert.equal(partial.answers_recorded, 2);
  const row = await app.sql.selectFrom('feedback_items').select(['answers', 'structured', 'mode']).where('id', '=', partial.feedback_id).executeTakeFirstOrThrow();
  assert.deepEqual([JSON.parse(row.answers!), Number(row.structured), row.mode], [{ wtp_kernel_usd: 5, would_buy_at_founding: 'maybe' }, 0, 'ultra']);
  // ...but what is given is checked, all at once; required questions stay optional.
  const bad = await t.fail('leave_feedback', { agent_name: 'ultra-partial', rating: 3, body: 'The per-call prices feel high for a small agent.', answers: { wtp_kernel_usd: 9000, mystery: 1, improvements: [] } });
  assert.equal(bad.code, 'invalid_input');
  assert.deepEqual(rules(bad.details), ['answers.mystery:unknown_question', 'answers.wtp_kernel_usd:range']);
  // Empty answers on the ultra path: nothing stored as answers.
  const emptyAnswers = await t.ok('leave_feedback', { agent_name: 'ultra-partial', rating: 4, body: 'An empty answers object is fine on the quick path.', answers: {} });
  assert.equal(emptyAnswers.answers_recorded, undefined);
});

test(`POST /api/products/agent {tool: submit_feedback, answers} records structured feedback; other tools are a clear 400 (${engine})`, async () => {
  newDay();
  const answers = fullAnswers({ overall: 2 });
  const r = await postJson(app, '/api/products/agent', { tool: 'submit_feedback', answers });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.structured, true);
  assert.equal(r.body.refill.granted, true);
  assert.deepEqual(r.body.agent_path, { tool: 'submit_feedback', rating_from: 'answers.overall', body_from: ['answers.ux_friction', 'answers.confusing', 'answers.would_pay_for'] });
  const row = await app.sql.selectFrom('feedback_items').selectAll().where('id', '=', r.body.feedback_id).executeTakeFirstOrThrow();
  assert.equal(row.rating, 2);
  assert.equal(row.body, `${answers.ux_friction} ${answers.confusing} ${answers.would_pay_for}`);
  assert.equal(row.source, 'agent');
  assert.equal(row.mode, 'structured');
  // Explicit rating, body and caller win.
  const named = await postJson(app, '/api/products/agent', { tool: 'submit_feedback', answers, rating: 5, body: 'Submitting the survey as an agent was straightforward.', agent_name: 'agent-path-bot' });
  assert.equal(named.status, 200);
  const namedRow = await app.sql.selectFrom('feedback_items').selectAll().where('id', '=', named.body.feedback_id).executeTakeFirstOrThrow();
  assert.deepEqual([namedRow.rating, namedRow.subject], [5, nameSubject('agent-path-bot')]);
  // Other tools: 400 listing what is accepted.
  const other = await postJson(app, '/api/products/agent', { tool: 'take_demo', answers });
  assert.equal(other.status, 400);
  assert.equal(other.body.error.code, 'unknown_agent_tool');
  assert.equal(other.body.error.field, 'tool');
  assert.deepEqual(other.body.error.details, { accepted: ['submit_feedback'] });
  assert.match(other.body.error.message, /accepted: submit_feedback/);
  const noTool = await postJson(app, '/api/products/agent', { answers });
  assert.equal(noTool.status, 400);
  assert.equal(noTool.body.error.field, 'tool');
  // The survey's problems all at once, before anything is derived.
  const missing = await postJson(app, '/api/products/agent', { tool: 'submit_feedback' });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.field, 'answers');
  const partial = await postJson(app, '/api/products/agent', { tool: 'submit_feedback', answers: { overall: 4, tried: 'nothing' } });
  assert.equal(partial.status, 400);
  assert.deepEqual(rules(partial.body.error.details), [...SPEC_REQUIRED.filter((id) => id !== 'overall' && id !== 'tried').map((id) => `answers.${id}:required`), 'answers.tried:option', 'body:not_real'].sort());
  // The route is REST only (not a tool) and described in the OpenAPI document.
  const { tools } = await t.client.listTools();
  assert.equal(tools.some((x) => x.name === 'products_agent'), false);
  const openapi = (await app.http.inject({ method: 'GET', url: '/openapi.json' })).json();
  assert.ok(openapi.paths['/api/products/agent'].post);
});

const LOW_FAIRNESS = { wtp_kernel_usd: 5, pricing_fairness: 2 };
/** The allowance (and bonus) of a caller without an owner token: its address's; agent names are labels in it. */
const addressAllowance = (address: string) => `addr:${addressHash(address)}`;
const ADDRESS = addressAllowance('127.0.0.1');

test(`a pricing_fairness of 1-2 raises improve_kernel and run_loop_tick by one a day for 7 days, once per caller (${engine})`, async () => {
  newDay();
  const who = 'fairness-bot';
  const goals = ['answer billing questions briefly'];
  // A unit spent before the answer: the existing row is raised.
  assert.equal((await t.ok('improve_kernel', { agent_name: who, goals })).meter.remaining, 2);
  const r = await t.ok('leave_feedback', { agent_name: who, rating: 2, body: 'Twenty-five cents a kernel run is too much for my hobby agent.', answers: LOW_FAIRNESS });
  assert.equal(r.fairness_bonus.granted, true);
  assert.deepEqual(r.fairness_bonus.events, ['improve_kernel', 'run_loop_tick']);
  const today = clock.now().toISOString().slice(0, 10);
  const last = new Date(clock.now().getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
  assert.deepEqual([r.fairness_bonus.from_day, r.fairness_bonus.until_day, r.fairness_bonus.units], [today, last, 1]);
  const bonus = await app.sql.selectFrom('meter_bonuses').selectAll().where('subject', '=', ADDRESS).execute();
  assert.equal(bonus.length, 1);
  // Today: 3 free + 1 refill (the feedback) + 1 bonus = 5 units; one was spent.
  const k = await t.ok('improve_kernel', { agent_name: who, goals });
  assert.deepEqual([k.meter.used_today, k.meter.refills_today, k.meter.bonus_today, k.meter.remaining], [2, 1, 1, 3]);
  for (let i = 0; i < 3; i++) await t.ok('improve_kernel', { agent_name: who, goals });
  assert.equal((await t.fail('improve_kernel', { agent_name: who, goals })).code, 'quota_exhausted');
  const tick = await t.ok('run_loop_tick', { agent_name: who });
  assert.deepEqual([tick.meter.bonus_today, tick.meter.remaining], [1, 4]);
  // A second low answer (the next day, so the address's item counts): no second bonus.
  clock.advance(86_400_000);
  const again = await t.ok('leave_feedback', { agent_name: who, rating: 1, body: 'Still too expensive after a second look at the prices.', answers: { pricing_fairness: 1 } });
  assert.equal(again.fairness_bonus.granted, false);
  assert.equal(again.counted, true);
  assert.match(again.fairness_bonus.why, /once per caller/);
  // Day 7 of the bonus still has it (a new row copies it in); day 8 does not.
  clock.set(new Date(Date.parse(`${last}T10:00:00.000Z`)));
  const late = await t.ok('improve_kernel', { agent_name: who, goals });
  assert.deepEqual([late.meter.bonus_today, late.meter.remaining], [1, 3]);
  clock.advance(86_400_000);
  const after = await t.ok('improve_kernel', { agent_name: who, goals });
  assert.deepEqual([after.meter.bonus_today, after.meter.remaining], [undefined, 2]);
  // mesh_match is not part of the bonus.
  const usage = await app.sql.selectFrom('meter_usage').select(['day', 'event_id', 'bonus']).where('subject', '=', ADDRESS).where('day', '=', today).orderBy('event_id').execute();
  assert.deepEqual(usage.map((u) => [u.event_id, Number(u.bonus)]), [['collab_session_open', 0], ['improve_kernel', 1], ['mesh_match', 0], ['run_loop_tick', 1]]);
});

test(`no bonus for a fair answer, junk, or an uncounted repeat; concurrent low answers grant one bonus (${engine})`, async () => {
  newDay();
  const fair = await t.ok('leave_feedback', { agent_name: 'fair-bot', rating: 4, body: 'Prices look fair for what the kernel does.', answers: { pricing_fairness: 3 } });
  assert.equal(fair.counted, true);
  assert.equal(fair.fairness_bonus, undefined);
  const junk = await t.fail('leave_feedback', { agent_name: 'junk-fair', rating: 1, body: 'asdf asdf asdf asdf', answers: { pricing_fairness: 1 } });
  assert.equal(junk.code, 'feedback_not_real');
  // A second item the same day from one address without an owner token is stored but not counted: no bonus from it.
  const from = '192.0.2.61';
  const post = async (body: unknown) => {
    const res = await app.http.inject({ method: 'POST', url: '/api/products/feedback', remoteAddress: from, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const body = 'Per-call prices are higher than I expected for tiny agents.';
  assert.equal((await post({ agent_name: 'repeat-fair', rating: 3, body })).counted, true);
  const repeat = await post({ agent_name: 'repeat-fair', rating: 1, body, answers: { pricing_fairness: 1 } });
  assert.equal(repeat.counted, false);
  assert.equal(repeat.fairness_bonus, undefined);
  const none = await app.sql.selectFrom('meter_bonuses').select('subject').where('subject', '=', addressAllowance(from)).execute();
  assert.deepEqual(none, []);
  // Ten concurrent low answers from one listing's owner (distinct sentences, each counted): exactly one bonus, +1 on today's rows of its owner domain.
  const published = await postJson(app, '/api/publish', { url: 'https://race-fair-example.org/mcp' });
  assert.equal(published.status, 200, JSON.stringify(published.body));
  const owner = asOwner(await ownListing(app, published.body.listing_id));
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => postJson(app, '/api/products/feedback', { agent_name: 'race-fair', rating: 2, body: `Pricing note number ${i + 1}: the kernel runs cost too much for me.`, answers: { pricing_fairness: 2 } }, owner)),
  );
  assert.ok(results.every((r) => r.status === 200), JSON.stringify(results.map((r) => r.body)).slice(0, 400));
  assert.ok(results.every((r) => r.body.counted === true && r.body.subject.kind === 'listing'));
  assert.equal(results.filter((r) => r.body.fairness_bonus?.granted).length, 1);
  const rows = await app.sql.selectFrom('meter_usage').select(['event_id', 'bonus']).where('subject', '=', 'domain:race-fair-example.org').where('event_id', 'in', ['improve_kernel', 'run_loop_tick']).execute();
  assert.deepEqual(rows.map((r) => Number(r.bonus)), [1, 1]);
});
