// The loop works only from evidence, through the MCP door with the official SDK client: a tick
// without new feedback or outcomes changes nothing, spends nothing and says which tools give
// evidence; what ticks learned survives improve_kernel, so no tick undoes or repeats an edit;
// feedback given inside improve_kernel is evidence for the next tick; and improve_kernel without
// usable goals says what goals must be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine, type TestApp } from './helpers/app.ts';
import { nameSubject, valueToolsPerFile, type Tools } from './helpers/value-tools.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { MAX_GOAL_CHARS, MAX_GOALS } from '../src/kernel/build.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let t: Tools;
const newDay = valueToolsPerFile(clock, (a, tools) => {
  app = a;
  t = tools;
});

const GOALS = ['Summarize weekly invoices for the finance team', 'Flag duplicate payments before they are sent'];
const minute = () => clock.advance(60_000);

const versionsOf = async (name: string) =>
  (await app.sql.selectFrom('kernel_versions').select(['version', 'kind', 'diff', 'spec']).where('subject', '=', nameSubject(name)).orderBy('version').execute()).map((v) => ({
    version: Number(v.version),
    kind: v.kind,
    diff: v.diff === null ? null : JSON.parse(v.diff),
    spec: JSON.parse(v.spec),
  }));

/** Each tick's diff in words: what it added and which texts it changed to what. */
const edits = (diff: any) => JSON.stringify({ added: diff.added, changed: diff.changed });

test(`run_loop_tick without evidence changes nothing, spends nothing and says which tools give evidence (${engine})`, async () => {
  newDay();
  const name = 'quiet-loop';
  const k = await t.ok('improve_kernel', { agent_name: name, goals: GOALS });
  minute();
  const idle = await t.ok('run_loop_tick', { agent_name: name });
  assert.equal(idle.ticked, false);
  assert.equal(idle.changed, false);
  assert.equal(idle.version, k.version, 'the kernel stays as it is');
  assert.equal(idle.system_prompt_short, k.system_prompt_short);
  assert.equal(idle.diff, undefined);
  assert.deepEqual([idle.evidence.feedback, idle.evidence.outcomes], [0, 0]);
  assert.match(idle.reason, /no new evidence/);
  assert.deepEqual([idle.meter.used_today, idle.meter.remaining], [0, 3], 'no unit spent');
  // What evidence the loop reads, and the tool that gives each kind: next_step the first, evidence_needed the others.
  const ways = [idle.next_step, ...idle.evidence_needed].map((w: any) => w.tool);
  assert.deepEqual(ways, ['leave_feedback', 'deposit_outcome', 'improve_kernel']);
  for (const w of idle.evidence_needed) assert.ok(w.why.length > 0 && w.args && typeof w.args === 'object');
  const rebuild = idle.evidence_needed.find((w: any) => w.tool === 'improve_kernel');
  assert.deepEqual([rebuild.needs, rebuild.args.goals], [['rating', 'body'], GOALS]);
  assert.deepEqual(idle.evidence_needed.find((w: any) => w.tool === 'deposit_outcome').needs, ['ok', 'quality', 'body']);
  assert.deepEqual((await versionsOf(name)).map((v) => v.kind), ['improve'], 'nothing stored');

  // The next_step gets evidence; the tick after it edits from that evidence.
  assert.equal(idle.next_step.tool, 'leave_feedback');
  assert.deepEqual(idle.next_step.needs, ['rating', 'body']);
  assert.equal(idle.next_step.args.agent_name, name);
  const fb = await t.ok(idle.next_step.tool, { ...idle.next_step.args, rating: 2, body: 'Each answer arrived late: very slow responses every time.' });
  minute();
  const tick = await t.ok(fb.next_step.tool, fb.next_step.args);
  assert.equal(tick.ticked, true);
  assert.equal(tick.changed, true);
  assert.equal(tick.evidence.feedback, 1);
  assert.ok(tick.weakest.evidence > 0, 'the edited check is one the evidence speaks to');
  assert.equal(tick.meter.used_today, 1);

  // Nothing new since that tick: the next one is idle again, and free.
  minute();
  const again = await t.ok('run_loop_tick', { agent_name: name });
  assert.deepEqual([again.ticked, again.changed, again.version, again.meter.used_today], [false, false, tick.version, 1]);
  assert.deepEqual((await versionsOf(name)).map((v) => v.kind), ['improve', 'tick']);
});

test(`a tick edits only checks the evidence speaks to, never one scored on no evidence (${engine})`, async () => {
  newDay();
  const name = 'narrow-loop';
  await t.ok('improve_kernel', { agent_name: name, goals: GOALS });
  minute();
  // Good news about goal 1 only: no theme, so the base checks (e_data, e_truth, e_contract) get no evidence.
  await t.ok('leave_feedback', { agent_name: name, rating: 5, body: 'The weekly invoices summary for finance was exactly right.' });
  minute();
  const tick = await t.ok('run_loop_tick', { agent_name: name, detail: true });
  assert.equal(tick.changed, true);
  assert.ok(tick.weakest.evidence > 0, JSON.stringify(tick.weakest));
  // With detail, the scores of the checks the evidence spoke to, the weakest among them.
  assert.ok(tick.scores.some((x: any) => x.id === tick.weakest.id && x.evidence > 0));
  assert.ok(tick.scores.every((x: any) => x.evidence > 0));
  assert.ok(!['e_data', 'e_truth', 'e_contract'].includes(tick.weakest.id), tick.weakest.id);
});

test(`improve_kernel keeps what ticks learned; no tick undoes or repeats an edit (${engine})`, async () => {
  newDay();
  const name = 'keeping-loop';
  await t.ok('improve_kernel', { agent_name: name, goals: GOALS });
  minute();
  // An outcome names the output format: the tick adds its rule (no feedback of the caller names it).
  await t.ok('deposit_outcome', { agent_name: name, ok: false, quality: 0.1, body: 'The JSON output would not parse in my pipeline.', from: 'improve_kernel' });
  minute();
  const first = await t.ok('run_loop_tick', { agent_name: name });
  assert.deepEqual(first.diff.added.map((x: any) => x.id), ['c_format', 'e_format']);
  // Feedback about goal 2: the tick asks more of it, and says which goal and which feedback.
  const fb = await t.ok('leave_feedback', { agent_name: name, rating: 1, body: 'Two duplicate payments were sent before anyone flagged them.' });
  minute();
  const second = await t.ok('run_loop_tick', { agent_name: name });
  assert.equal(second.weakest.id, 'e_goal_2');
  assert.deepEqual(second.diff.because, { check: 'e_goal_2', goal: { n: 2, text: GOALS[1] }, evidence: [fb.feedback_id] });
  assert.deepEqual(second.artifact.objectives.map((o: any) => o.goal), GOALS, 'the goals keep the caller\'s order');

  // A new version from the same goals keeps both edits and says so.
  minute();
  const rebuilt = await t.ok('improve_kernel', { agent_name: name, goals: GOALS });
  assert.deepEqual(rebuilt.artifact.constraints.map((c: any) => c.text), second.artifact.constraints.map((c: any) => c.text));
  assert.deepEqual(rebuilt.artifact.eval_checks.map((c: any) => c.check), second.artifact.eval_checks.map((c: any) => c.check));
  assert.deepEqual(rebuilt.artifact.objectives, second.artifact.objectives);
  assert.equal(rebuilt.system_prompt_short, second.system_prompt_short);
  assert.equal(rebuilt.loop_kept.from_version, second.version);
  assert.deepEqual(rebuilt.loop_kept.rules, ['c_format']);
  assert.deepEqual(rebuilt.loop_kept.goals, [{ from: 2, to: 2, strength: 1 }]);
  assert.deepEqual(rebuilt.loop_kept.dropped, []);
  assert.match(rebuilt.reason, /kept what loop ticks learned/);

  // No new evidence since the tick: the rebuilt kernel is not edited again.
  minute();
  const idle = await t.ok('run_loop_tick', { agent_name: name });
  assert.equal(idle.changed, false);

  // The same complaint again: the tick goes further, it does not make the same edit twice.
  await t.ok('leave_feedback', { agent_name: name, rating: 1, body: 'Another duplicate payment went out this week, nobody was warned.' });
  minute();
  const third = await t.ok('run_loop_tick', { agent_name: name });
  assert.equal(third.changed, true);
  assert.notEqual(edits(third.diff), edits(second.diff));

  // Across the whole history: no tick removed anything, and no two ticks made the same edit.
  const ticks = (await versionsOf(name)).filter((v) => v.kind === 'tick');
  assert.equal(ticks.length, 3);
  for (const v of ticks) assert.deepEqual(v.diff.removed, [], `version ${v.version} removed nothing`);
  assert.equal(new Set(ticks.map((v) => edits(v.diff))).size, ticks.length);
  // And strengths only rise from version to version.
  const all = await versionsOf(name);
  for (let i = 1; i < all.length; i++) {
    for (const [id, s] of Object.entries(all[i - 1]!.spec.strength as Record<string, number>)) assert.ok((all[i]!.spec.strength[id] ?? 0) >= s, `${id} fell at version ${all[i]!.version}`);
  }
});

test(`improve_kernel with other goals re-decides only what belonged to the goals that are gone, and says so (${engine})`, async () => {
  newDay();
  const name = 'regoal-loop';
  await t.ok('improve_kernel', { agent_name: name, goals: GOALS });
  minute();
  // Bad news about goal 2: the tick asks more of goal 2.
  await t.ok('leave_feedback', { agent_name: name, rating: 1, body: 'Two duplicate payments were sent before anyone flagged them.' });
  minute();
  const tick = await t.ok('run_loop_tick', { agent_name: name });
  assert.equal(tick.weakest.id, 'e_goal_2');
  // Goal 2 stays (the caller now lists it first), goal 1 is replaced.
  minute();
  const k = await t.ok('improve_kernel', { agent_name: name, goals: [GOALS[1], 'Draft payment reminders for late customers'] });
  assert.equal(k.artifact.objectives[0].goal, GOALS[1]);
  assert.equal(k.artifact.eval_checks.find((c: any) => c.id === 'e_goal_1').strength, 1, 'the strengthened goal keeps its strength under its new number');
  assert.equal(k.artifact.eval_checks.find((c: any) => c.id === 'e_goal_2').strength, undefined, 'a strength shows only once a tick raised it');
  assert.ok(k.loop_kept.goals.some((g: any) => g.from === 2 && g.to === 1));
});

test(`feedback given inside improve_kernel is evidence for the next tick (${engine})`, async () => {
  newDay();
  const name = 'same-call-loop';
  await t.ok('improve_kernel', { agent_name: name, goals: GOALS });
  minute();
  const k = await t.ok('improve_kernel', { agent_name: name, goals: GOALS, rating: 2, feedback: 'The prompt is too long and the answers are slow to arrive.' });
  assert.equal(k.version, 2);
  minute();
  const tick = await t.ok('run_loop_tick', { agent_name: name });
  assert.equal(tick.ticked, true);
  assert.equal(tick.evidence.feedback, 1, JSON.stringify(tick.evidence));
  assert.match(tick.reason, /1 feedback item/);
  assert.equal(tick.changed, true);
  // Read once: the tick after it has nothing new.
  minute();
  const again = await t.ok('run_loop_tick', { agent_name: name });
  assert.deepEqual([again.changed, again.evidence.feedback], [false, 0]);
});

test(`feedback given in the same instant as the tick that read the one before it is read once, by the next tick (${engine})`, async () => {
  newDay();
  const name = 'same-instant-loop';
  await t.ok('improve_kernel', { agent_name: name, goals: GOALS, rating: 2, feedback: 'The prompt is too long and the answers are slow to arrive.' });
  // No clock moves from here: the tick, the feedback after it and the next tick share one instant.
  const first = await t.ok('run_loop_tick', { agent_name: name });
  assert.deepEqual([first.changed, first.evidence.feedback], [true, 1]);
  await t.ok('leave_feedback', { agent_name: name, rating: 1, body: 'Invented invoice numbers appeared in the weekly summary.' });
  const second = await t.ok('run_loop_tick', { agent_name: name });
  assert.deepEqual([second.changed, second.evidence.feedback], [true, 1]);
  const third = await t.ok('run_loop_tick', { agent_name: name });
  assert.deepEqual([third.ticked, third.evidence.feedback], [false, 0]);
});

test(`improve_kernel without usable goals says what goals must be (${engine})`, async () => {
  newDay();
  const rule = new RegExp(`1-${MAX_GOALS} goals.*${MAX_GOAL_CHARS} characters`);
  const missing = await t.fail('improve_kernel', { agent_name: 'no-goals' });
  assert.equal(missing.code, 'invalid_input');
  assert.equal(missing.field, 'goals');
  assert.match(missing.message, /goals: is required/);
  assert.match(missing.message, rule);
  assert.match(missing.message, /list of strings|one text/);
  assert.deepEqual(missing.details, [{ field: 'goals', message: missing.message.replace(/^invalid input: goals: /, '') }]);
  const wrongType = await t.fail('improve_kernel', { agent_name: 'no-goals', goals: 42 });
  assert.equal(wrongType.field, 'goals');
  assert.match(wrongType.message, /got a number/);
  assert.match(wrongType.message, rule);
  const notStrings = await t.fail('improve_kernel', { agent_name: 'no-goals', goals: ['fine goal here', 7] });
  assert.equal(notStrings.field, 'goals');
  assert.match(notStrings.message, /goal 2 is a number/);
  const tooMany = await t.fail('improve_kernel', { agent_name: 'no-goals', goals: Array.from({ length: 60 }, (_, i) => `goal number ${i} matters`) });
  assert.equal(tooMany.field, 'goals');
  assert.match(tooMany.message, new RegExp(`60 goals, at most ${MAX_GOALS}`));
  const tooLong = await t.fail('improve_kernel', { agent_name: 'no-goals', goals: ['x'.repeat(3000)] });
  assert.equal(tooLong.field, 'goals.0');
  assert.match(tooLong.message, new RegExp(`at most ${MAX_GOAL_CHARS} characters`));
  const tooLongText = await t.fail('improve_kernel', { agent_name: 'no-goals', goals: 'audit ledgers '.repeat(1000) });
  assert.equal(tooLongText.field, 'goals');
  assert.match(tooLongText.message, rule);
  // The rule is said by the checks past the schema too (an empty list, a goal with no meaningful word).
  for (const goals of [[], ['the and of it']]) assert.match((await t.fail('improve_kernel', { agent_name: 'no-goals', goals })).message, rule);
  assert.equal((await app.sql.selectFrom('meter_usage').select('used').where('day', '=', clock.now().toISOString().slice(0, 10)).execute()).length, 0, 'nothing spent');
});

test(`concurrent ticks and improve_kernel of one caller build on each other: one edit, made once, kept (${engine})`, async () => {
  newDay();
  const name = 'racing-loop';
  await t.ok('improve_kernel', { agent_name: name, goals: GOALS });
  minute();
  await t.ok('deposit_outcome', { agent_name: name, ok: false, quality: 0.1, body: 'The JSON output would not parse in my pipeline.', from: 'improve_kernel' });
  minute();
  const [a, b, k] = await Promise.all([t.ok('run_loop_tick', { agent_name: name }), t.ok('run_loop_tick', { agent_name: name }), t.ok('improve_kernel', { agent_name: name, goals: GOALS })]);
  // One tick read the outcome and edited; the other found nothing unread and spent nothing.
  assert.deepEqual([a.changed, b.changed].sort(), [false, true]);
  const idle = a.changed ? b : a;
  assert.equal(idle.ticked, false);
  const used = await app.sql.selectFrom('meter_usage').select('used').where('event_id', '=', 'run_loop_tick').where('day', '=', clock.now().toISOString().slice(0, 10)).execute();
  assert.deepEqual(used.map((r) => Number(r.used)), [1]);
  // Whichever order they ran in, the newest version has the tick's rule, added once.
  const all = await versionsOf(name);
  const latest = all[all.length - 1]!;
  assert.ok(latest.spec.themes.some((x: any) => x.theme === 'output_format'), JSON.stringify(latest.spec.themes));
  assert.equal(all.filter((v) => v.kind === 'tick').length, 1);
  assert.ok(k.version >= 2);
  minute();
  assert.equal((await t.ok('run_loop_tick', { agent_name: name })).changed, false, 'the outcome is not read again');
});
