// What improve_kernel and run_loop_tick give, through the MCP door with the official SDK client,
// for a Live listing (the real server-everything, probed) and its owner (owner token as
// Authorization: Bearer), and for callers without a listing: ten goal sets where every goal is in
// the short prompt word for word and in order (or cut whole), the role names the listing acted for
// (else the agent name as a label), every rule beyond the base set cites feedback or outcomes that
// exist, every prohibition, deadline and hand-off a goal states has a check quoting it and no check
// is a list of words; ticks that never move a goal and name the evidence that moved them; praise
// that adds no rule; old stored versions (a goal promotion, rules without evidence) read and
// ignored; and answers within 8 KB with nothing said twice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, postJson, startApp, toolFrom, type TestApp } from './helpers/app.ts';
import { connect, nameSubject, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { waitForLane } from './helpers/wait.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { buildKernel, type KernelSpec } from '../src/kernel/build.ts';
import { saveVersion } from '../src/kernel/store.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let everything: Peer;
/** A caller without an owner token. */
let t: Tools;
/** The owner of the Live server-everything listing. */
let owner: Tools;
let listingId: string;
let day = 0;
const KB8 = 8 * 1024;

before(async () => {
  everything = await startEverything();
  app = await startApp({ clock, probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0' } });
  t = await connect(app);
  await t.client.listTools(); // results are then checked against each tool's outputSchema
  // localhost: a name its owner's DNS record can prove.
  const published = await postJson(app, '/api/publish', { url: everything.url.replace('127.0.0.1', 'localhost') });
  listingId = published.body.listing_id;
  const s = await waitForLane(app, listingId, ['active', 'failed']);
  assert.equal(s.lane, 'active', `${s.lane_reason}`);
  owner = await connect(app, { headers: asOwner(await ownListing(app, listingId)), base: t.base });
  await owner.client.listTools();
});
after(async () => {
  await owner?.close();
  await t?.close();
  await app?.close();
  await everything?.close();
});

/** A fresh UTC day: allowances, refills and the 5 names per address start over. */
function newDay() {
  clock.set(new Date(Date.UTC(2026, 10, 2 + ++day, 9)));
}
const minute = () => clock.advance(60_000);

/** The listing's name and tools as the prober recorded them. */
async function probed() {
  const row = await app.sql.selectFrom('listings').select(['name', 'capabilities']).where('id', '=', listingId).executeTakeFirstOrThrow();
  return { name: row.name, tools: JSON.parse(row.capabilities!).names as string[] };
}

/** Ids that exist as feedback items or outcomes. */
async function existing(ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const fb = await app.sql.selectFrom('feedback_items').select('id').where('id', 'in', ids).execute();
  const out = await app.sql.selectFrom('trace_outcomes').select('id').where('id', 'in', ids).execute();
  return new Set([...fb, ...out].map((r) => r.id));
}

const BASE_SOURCES = ['base', 'audience', 'card'];
/** A check that lists words instead of stating something a reviewer can test. */
const WORD_LIST = /:\s*[\p{L}\p{N}'-]+(?:,\s*[\p{L}\p{N}'-]+){2,}\.?$|\bcovers\b/u;
/** A goal as the short prompt quotes it (double quotes become single ones inside the quotes). */
const quoted = (g: string) => `"${g.replace(/"/g, "'")}"`;

interface GoalSet {
  goals: string[];
  /** What the goals state, as a reviewer reads them: each must have a check quoting it. */
  stated: { kind: 'prohibition' | 'deadline' | 'handoff'; text: string; to?: string }[];
  /** Acts for the Live listing (owner token), else a caller with an agent name. */
  owned: boolean;
  /** A critical sentence of the caller's own before the build (its theme's rule cites it). */
  request?: string;
  /** An outcome and a tick before a rebuild (the loop's rule is carried, citing the outcome). */
  outcome?: string;
}

const LONG = (topic: string, i: number) => `Reconcile the ${topic} ledger ${i} across every subsidiary and currency, keeping a full audit trail for the quarterly compliance review of region ${i}`;

const SETS: GoalSet[] = [
  {
    goals: ['Explain which tool exercises which feature', 'Show the exact arguments each tool call needs', 'Never call a tool the listing does not declare'],
    stated: [{ kind: 'prohibition', text: 'Never call a tool the listing does not declare' }],
    owned: true,
    request: 'The answers were far too long and wordy for a quick reference.',
    outcome: 'The JSON output would not parse in my pipeline.',
  },
  {
    goals: ['Route support tickets to the right team', 'Answer billing questions within one minute', 'Do not promise refunds'],
    stated: [
      { kind: 'handoff', text: 'Route support tickets to the right team', to: 'the right team' },
      { kind: 'deadline', text: 'within one minute' },
      { kind: 'prohibition', text: 'Do not promise refunds' },
    ],
    owned: false,
    request: 'It was slow: every answer took far too long to arrive.',
  },
  {
    goals: ['Answer billing questions and never promise refunds', 'Escalate disputes to the billing team'],
    stated: [
      { kind: 'prohibition', text: 'never promise refunds' },
      { kind: 'handoff', text: 'Escalate disputes to the billing team', to: 'the billing team' },
    ],
    owned: true,
    outcome: 'It invented an invoice number, a wrong and inaccurate answer.',
  },
  { goals: ['Summarize weekly invoices for the finance team', 'Flag duplicate payments before they are sent'], stated: [], owned: false },
  {
    goals: ['Alert on-call engineers within 5 minutes of an outage', "Don't page anyone twice for the same incident", 'Hand off unresolved incidents to the incident commander'],
    stated: [
      { kind: 'deadline', text: 'within 5 minutes' },
      { kind: 'prohibition', text: "Don't page anyone twice for the same incident" },
      { kind: 'handoff', text: 'Hand off unresolved incidents to the incident commander', to: 'the incident commander' },
    ],
    owned: true,
    request: 'It forgot the context of the earlier incident every time.',
  },
  {
    // More than 600 characters of goals: the last ones are cut whole, never shortened.
    goals: [...[1, 2, 3, 4, 5].map((i) => LONG('payables', i)), 'Never post an entry without a matching receipt', 'Escalate mismatches over 500 EUR to the controller'],
    stated: [
      { kind: 'prohibition', text: 'Never post an entry without a matching receipt' },
      { kind: 'handoff', text: 'Escalate mismatches over 500 EUR to the controller', to: 'the controller' },
    ],
    owned: false,
    request: 'The output format broke my parser, the JSON fields were missing.',
  },
  {
    goals: ['Translate customer emails into English', 'Keep the glossary terms unchanged', 'Avoid machine-like phrasing'],
    stated: [{ kind: 'prohibition', text: 'Avoid machine-like phrasing' }],
    owned: true,
  },
  {
    goals: ['Triage incoming pull requests by risk', 'Forward security-sensitive changes to the security team', 'Reply to authors by end of day'],
    stated: [
      { kind: 'handoff', text: 'Forward security-sensitive changes to the security team', to: 'the security team' },
      { kind: 'deadline', text: 'by end of day' },
    ],
    owned: false,
    outcome: 'The tool calls were wasted: it called the api three times for one answer.',
  },
  {
    goals: ['Schedule meetings across time zones', 'Must not book anything before 9am local time', 'Confirm every "booking" by email'],
    stated: [{ kind: 'prohibition', text: 'Must not book anything before 9am local time' }],
    owned: true,
    request: 'Too expensive: it spent paid calls where a free path existed.',
  },
  {
    goals: ['Draft release notes from merged pull requests', 'Publish them no later than Friday', 'Transfer questions about pricing to sales'],
    stated: [
      { kind: 'deadline', text: 'no later than Friday' },
      { kind: 'handoff', text: 'Transfer questions about pricing to sales', to: 'sales' },
    ],
    owned: false,
  },
];

/** The rules every kernel answer must keep, for one goal set. */
async function assertKernel(k: any, set: GoalSet, where: string, agentName: string) {
  const p = k.system_prompt_short as string;
  assert.ok(p.length <= 600, `${where}: ${p.length} characters`);
  // Every goal verbatim and in the caller's order, or listed whole in cut (from the end).
  const cut = k.cut.filter((c: any) => c.kind === 'goal');
  const shown = set.goals.length - cut.length;
  assert.deepEqual(cut.map((c: any) => [c.goal, c.text]).sort((a: any, b: any) => a[0] - b[0]), set.goals.slice(shown).map((g, i) => [shown + i + 1, g]), `${where}: cut goals`);
  let at = 0;
  for (let i = 0; i < shown; i++) {
    const found = p.indexOf(`${i + 1}) ${quoted(set.goals[i]!)}`, at);
    assert.ok(found >= at, `${where}: goal ${i + 1} verbatim and in order in ${p}`);
    at = found;
  }
  assert.deepEqual(k.artifact.objectives.map((o: any) => o.goal), set.goals, `${where}: the artifact keeps every goal`);
  // The role names the listing acted for, or the agent name as a label.
  if (set.owned) {
    const { name, tools } = await probed();
    assert.equal(k.artifact.role.listing_id, listingId);
    assert.ok(k.artifact.role.text.startsWith(`You are the MCP server "${name}", listed on Rollcall as ${listingId}, serving its tools "${tools.slice(0, 20).join(', ')}`), `${where}: ${k.artifact.role.text}`);
    assert.ok(p.startsWith(`You are the MCP server "${name}"`), `${where}: ${p}`);
    assert.ok(!p.includes(agentName) && !k.artifact.role.text.includes(agentName), `${where}: the agent name is no role`);
  } else {
    assert.equal(k.artifact.role.listing_id, null);
    assert.ok(k.artifact.role.text.startsWith(`You are an agent labelled "${agentName}" (a name, not a listing), serving the ${set.goals.length} goals below.`), `${where}: ${k.artifact.role.text}`);
    assert.ok(p.startsWith(`You are an agent labelled "${agentName}".`), `${where}: ${p}`);
  }
  // Every rule beyond the base set cites evidence that exists.
  const extra = k.artifact.constraints.filter((c: any) => !BASE_SOURCES.includes(c.source));
  for (const c of extra) {
    assert.ok(c.evidence?.length > 0, `${where}: rule ${c.id} cites no evidence`);
    const found = await existing(c.evidence);
    assert.deepEqual(c.evidence.filter((id: string) => !found.has(id)), [], `${where}: rule ${c.id} cites ids that exist`);
  }
  // Every stated prohibition, deadline and hand-off has a check quoting it.
  for (const st of set.stated) {
    const check = k.artifact.eval_checks.find((c: any) => c.id.includes(`_${st.kind}_`) && c.check.includes(quoted(st.text)));
    assert.ok(check, `${where}: no check quotes the ${st.kind} "${st.text}": ${JSON.stringify(k.artifact.eval_checks.map((c: any) => c.check))}`);
    if (st.to) assert.ok(check.check.includes(`handed to ${quoted(st.to)}`), `${where}: ${check.check}`);
  }
  assert.equal(k.artifact.eval_checks.filter((c: any) => /^e_goal_\d+_/.test(c.id)).length, set.stated.length, `${where}: a check for each statement, no more`);
  // Each goal's own check quotes the goal; no check is a list of words.
  for (const [i, g] of set.goals.entries()) assert.ok(k.artifact.eval_checks.find((c: any) => c.id === `e_goal_${i + 1}`).check.includes(`Goal ${i + 1} is met as stated: ${quoted(g)}.`), `${where}: goal check ${i + 1}`);
  for (const c of k.artifact.eval_checks) assert.ok(!WORD_LIST.test(c.check), `${where}: ${c.id} is a list of words: ${c.check}`);
}

test(`improve_kernel and run_loop_tick answer within 8 KB with the full artifact and say nothing twice; detail adds the evidence (${engine})`, async () => {
  newDay();
  const name = 'sized-agent';
  const goals = [
    'Explain which tool exercises which feature of the reference server',
    'Route bug reports about a tool to its maintainers within one hour',
    'Never promise a feature the server does not declare',
    'Show the exact arguments each tool call needs',
    'Escalate security questions to the security team',
  ];
  // The owner's own requests, praise, others' feedback and outcomes: everything an answer may cite.
  await owner.ok('leave_feedback', { agent_name: name, rating: 2, body: 'The answers were slow and far too long for a quick reference.' });
  await owner.ok('leave_feedback', { agent_name: name, rating: 3, body: 'The JSON output format broke my parser twice this week.' });
  await owner.ok('leave_feedback', { agent_name: name, rating: 5, body: 'Lovely examples, clear and well explained.' });
  for (const [i, body] of ['It forgot the earlier turns, no memory at all.', 'Memory is missing between calls, I repeat the context.', 'The docs never explain the tool policy.'].entries()) {
    await toolFrom(app, `192.0.2.${60 + i}`, 'leave_feedback', { agent_name: `sizer-${i}`, rating: 2, body });
  }
  minute();
  const k = await owner.ok('improve_kernel', { agent_name: name, goals, rating: 2, feedback: 'Bug reports were routed to nobody, and the tool list was wrong.' });
  minute();
  for (const [ok, quality, body] of [[false, 0.1, 'A security question was answered instead of escalated to the security team.'], [false, 0.2, 'It invented an argument the tool does not take, a wrong answer.'], [true, 0.9, 'The tool explanation was exactly right.']] as const) {
    await owner.ok('deposit_outcome', { agent_name: name, ok, quality, body, from: 'improve_kernel' });
  }
  minute();
  const tick = await owner.ok('run_loop_tick', { agent_name: name });
  assert.equal(tick.changed, true, tick.reason);

  for (const [label, sc] of [['improve_kernel', k], ['run_loop_tick', tick]] as const) {
    const json = JSON.stringify(sc);
    const bytes = Buffer.byteLength(json);
    assert.ok(bytes <= KB8, `${label}: ${bytes} bytes`);
    // The full artifact is there; the prompt, its length and its cut once, at the top.
    for (const part of ['role', 'objectives', 'constraints', 'output_contract', 'eval_checks']) assert.ok(sc.artifact[part], `${label}: artifact.${part}`);
    assert.deepEqual([sc.artifact.system_prompt_short, sc.artifact.chars, sc.artifact.cut], [undefined, undefined, undefined], label);
    assert.equal(json.split(JSON.stringify(sc.system_prompt_short).slice(1, -1)).length - 1, 1, `${label}: the prompt is said once`);
    assert.equal(sc.artifact.role.card, undefined, `${label}: the capabilities are said once, in the role`);
    for (const o of sc.artifact.objectives) assert.deepEqual(Object.keys(o).sort(), ['goal', 'id', 'n'], `${label}: no key terms or success text beside the check`);
    assert.equal(sc.artifact.themes_applied, undefined, `${label}: the rules say their source once`);
  }
  // The tick's diff: the prompt's length, not its texts; added parts by id (their texts are in the artifact).
  assert.deepEqual(Object.keys(tick.diff.prompt_chars ?? { from: 0, to: 0 }).sort(), ['from', 'to']);
  assert.equal(tick.diff.system_prompt_short, undefined);
  for (const a of tick.diff.added) assert.deepEqual(Object.keys(a).sort(), ['id', 'part']);
  // Without detail: counts. With it: the items read, and the community themes' evidence.
  assert.deepEqual(Object.keys(k.evidence).sort(), ['feedback', 'requests']);
  assert.equal(k.evidence.requests, 3);
  assert.deepEqual(Object.keys(tick.evidence).sort(), ['feedback', 'outcomes', 'since']);
  newDay();
  const kd = await owner.ok('improve_kernel', { agent_name: name, goals, detail: true });
  assert.ok(kd.evidence.items.some((x: any) => x.rating === 5 && x.request === false), 'praise is read, not a request');
  assert.ok(kd.community_deltas.every((d: any) => typeof d.label === 'string' && Array.isArray(d.evidence)));
  await owner.ok('deposit_outcome', { agent_name: name, ok: false, quality: 0, body: 'It answered a security question itself again.', from: 'improve_kernel' });
  minute();
  const td = await owner.ok('run_loop_tick', { agent_name: name, detail: true });
  assert.deepEqual(td.evidence.items.map((x: any) => [x.kind, x.text]), [['outcome', 'It answered a security question itself again.']]);
});

test(`ten goal sets: verbatim goals in order, the role of the listing acted for, rules with evidence, a check for each stated constraint (${engine})`, async () => {
  // Others' feedback: a community theme (memory) that new kernels apply, citing their items.
  newDay();
  for (const [i, body] of ['It forgot the context of the earlier turns every time.', 'Memory between calls is missing, so I repeat myself.', 'It does not remember my earlier answers at all.'].entries()) {
    await toolFrom(app, `192.0.2.${30 + i}`, 'leave_feedback', { agent_name: `other-${i}`, rating: 2, body });
  }
  let withLoopRule = 0;
  let withCut = 0;
  for (const [i, set] of SETS.entries()) {
    newDay();
    const via = set.owned ? owner : t;
    const agentName = `set-agent-${i + 1}`;
    const who = { agent_name: agentName, goals: set.goals };
    const where = `set ${i + 1}`;
    if (set.request) await via.ok('leave_feedback', { agent_name: agentName, rating: 2, body: set.request });
    // Praise names themes too (examples, brevity); it asks for no change, so it adds no rule.
    await via.ok('leave_feedback', { agent_name: agentName, rating: 5, body: `Great examples and short clear answers, thank you ${i + 1}.` });
    minute();
    let k = await via.ok('improve_kernel', who);
    await assertKernel(k, set, where, agentName);
    assert.ok(!k.artifact.constraints.some((c: any) => c.id === 'c_example'), `${where}: praise of examples adds no rule`);
    if (set.outcome) {
      minute();
      await via.ok('deposit_outcome', { agent_name: agentName, ok: false, quality: 0.1, body: set.outcome, from: 'improve_kernel' });
      minute();
      const tick = await via.ok('run_loop_tick', { agent_name: agentName });
      assert.equal(tick.changed, true, `${where}: ${tick.reason}`);
      await assertKernel(tick, set, `${where} tick`, agentName);
      assert.ok(tick.diff.because.evidence.length > 0, `${where}: the tick names the evidence that moved it`);
      minute();
      k = await via.ok('improve_kernel', who);
      await assertKernel(k, set, `${where} rebuilt`, agentName);
      if (k.artifact.constraints.some((c: any) => c.source === 'loop')) withLoopRule++;
    }
    if (k.cut.some((c: any) => c.kind === 'goal')) withCut++;
  }
  assert.ok(withLoopRule >= 2, `loop rules seen in ${withLoopRule} sets`);
  assert.ok(withCut >= 1, 'a set long enough to cut goals');
});

test(`a tick adds a rule and the goals stay word for word in the caller's order; praise asks for nothing (${engine})`, async () => {
  newDay();
  const goals = [
    'Explain which tool exercises which feature of the reference server',
    'Show the exact arguments each tool call needs, with one example',
    'Say which tools are long-running and how progress is reported',
    'Point out tools that return images, resources or annotations',
    'Never call a tool the listing does not declare',
  ];
  const name = 'feature-guide';
  const k = await owner.ok('improve_kernel', { agent_name: name, goals });
  minute();
  // An outcome about the docs: the tick adds its rule, which must not shorten a goal.
  await owner.ok('deposit_outcome', { agent_name: name, ok: false, quality: 0, body: 'The docs never explain how to repeat the steps.', from: 'improve_kernel' });
  minute();
  const tick = await owner.ok('run_loop_tick', { agent_name: name });
  assert.deepEqual(tick.diff.added.map((x: any) => x.id), ['c_explain', 'e_explain']);
  for (const kernel of [k, tick]) {
    const p = kernel.system_prompt_short as string;
    const cut = kernel.cut.filter((c: any) => c.kind === 'goal');
    for (const [i, g] of goals.slice(0, goals.length - cut.length).entries()) assert.ok(p.includes(`${i + 1}) "${g}"`), `goal ${i + 1} word for word: ${p}`);
    assert.ok(!p.includes('"explain tool exercises'), p);
  }
  // The rule cites the outcome that brought it.
  const outcome = await app.sql.selectFrom('trace_outcomes').select('id').where('depositor', '=', `listing:${listingId}`).orderBy('at', 'desc').executeTakeFirstOrThrow();
  assert.deepEqual(tick.artifact.constraints.find((c: any) => c.id === 'c_explain').evidence, [outcome.id]);
  assert.deepEqual(tick.diff.because, { check: 'e_explain', evidence: [outcome.id] });
});

test(`run_loop_tick never moves a goal: it strengthens the goal's check and names the goal and the evidence; an old version's promotion is ignored (${engine})`, async () => {
  newDay();
  const name = 'old-promoted';
  const goals = ['Summarize weekly invoices for the finance team', 'Flag duplicate payments before they are sent'];
  // A version stored by an older release: goal 2 promoted ahead of goal 1, a loop rule with no evidence recorded.
  const subject = nameSubject(name);
  const spec = { agent_name: name, audience: 'agent', goals, card: null, themes: [{ theme: 'safety', source: 'loop' }], notes: [], strength: { e_goal_2: 1 }, focus: [2] } as KernelSpec;
  await inTransaction(app.store.db.kysely, (trx) => saveVersion(trx, { subject, kind: 'tick', listing_id: null, agent_name: name, spec, artifact: buildKernel(spec), reason: 'an older tick', diff: null, created_at: clock.now().toISOString() }));
  minute();
  const fb = await t.ok('leave_feedback', { agent_name: name, rating: 1, body: 'Two duplicate payments were sent before anyone flagged them.' });
  minute();
  const tick = await t.ok('run_loop_tick', { agent_name: name });
  assert.equal(tick.changed, true);
  assert.equal(tick.weakest.id, 'e_goal_2');
  assert.ok(tick.system_prompt_short.includes(`Goals (quoted data): 1) "${goals[0]}" 2) "${goals[1]}"`), tick.system_prompt_short);
  assert.deepEqual(tick.diff.because, { check: 'e_goal_2', goal: { n: 2, text: goals[1] }, evidence: [fb.feedback_id] });
  assert.deepEqual(tick.diff.changed.map((c: any) => [c.id, c.from]), [['e_goal_2', `Goal 2 is met as stated: "${goals[1]}". The answer says which part of it serves goal 2.`]]);
  assert.match(tick.artifact.eval_checks.find((c: any) => c.id === 'e_goal_2').check, /what is still missing\.$/);
  assert.match(tick.reason, /^e_goal_2 \(goal 2 met\) was the weakest check /);
  assert.ok(!tick.reason.includes(goals[1]), 'the public reason names the goal by number only');
  // The old rule had no evidence: it adds nothing, and a rebuild says why it went.
  assert.ok(!tick.artifact.constraints.some((c: any) => c.id === 'c_safe'));
  minute();
  const rebuilt = await t.ok('improve_kernel', { agent_name: name, goals });
  assert.deepEqual(rebuilt.loop_kept.dropped.map((d: any) => d.id), ['c_safe']);
  assert.deepEqual(rebuilt.loop_kept.goals, [{ from: 2, to: 2, strength: 2 }]);
});
