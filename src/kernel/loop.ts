// One loop tick, pure (TOOLS.md run_loop_tick): scores each eval check of a kernel against the
// unread feedback and outcomes, and changes the spec to address the weakest check the evidence
// speaks to (a missing theme gets its rule and check; any present check, a goal's included, is
// strengthened). Goals themselves never change: no tick rewords, drops or reorders them. Without
// evidence nothing changes: a score on no evidence is only the prior, no reason to edit. An edit
// only adds or strengthens and must change the kernel's text, so a tick never undoes an earlier
// edit and never makes the same one twice. Each edit names the evidence ids that moved it.
import { extractThemes, themeLabel, type ThemeId } from '../feedback/themes.ts';
import { buildKernel, EVIDENCE_CITED, MAX_STRENGTH, statedChecksOf, withThemes, type KernelArtifact, type KernelSpec } from './build.ts';
import { diffKernels, type KernelDiff } from './diff.ts';
import { markAfter } from './evidence-mark.ts';
import { THEME_PARTS } from './parts.ts';
import { keyTerms, stemOf, stemsOf } from './terms.ts';

export interface Signal {
  kind: 'feedback' | 'outcome';
  id: string;
  /** When it was recorded (ISO). */
  at: string;
  /** 0 (bad) .. 1 (good). */
  score: number;
  text: string;
  themes: ThemeId[];
}

export const feedbackSignal = (f: { id: string; created_at: string; rating: number; body: string; themes: ThemeId[] }): Signal => ({ kind: 'feedback', id: f.id, at: f.created_at, score: (f.rating - 1) / 4, text: f.body, themes: f.themes });

/** A failed outcome counts at most 0.25, whatever quality it reports. */
export const outcomeSignal = (o: { id: string; at: string; ok: boolean; quality: number; body: string | null }): Signal => ({
  kind: 'outcome',
  id: o.id,
  at: o.at,
  score: o.ok ? clamp01(o.quality) : Math.min(clamp01(o.quality), 0.25),
  text: o.body ?? '',
  themes: extractThemes(o.body ?? ''),
});

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** The theme each check reads the evidence of: a theme's own check, and the base checks' kin. */
const THEME_OF_CHECK = new Map<string, ThemeId>([
  ...Object.entries(THEME_PARTS).map(([theme, p]) => [p.check.id, theme as ThemeId] as const),
  ['e_truth', 'accuracy'],
  ['e_data', 'safety'],
  ['e_contract', 'output_format'],
]);
const PRIOR = 0.6;
const PRIOR_WEIGHT = 1;

export interface CheckScore {
  id: string;
  score: number;
  evidence: number;
  strength: number;
  /** A theme the evidence names that the kernel does not cover yet. */
  missing?: ThemeId;
}

const termStems = (text: string) => keyTerms(text).map(stemOf);

/** The stems each goal check reads: a goal's own check its goal's key terms, a stated check its phrase's. */
function checkStems(artifact: KernelArtifact): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of artifact.objectives) {
    out.set(`e_goal_${o.n}`, termStems(o.goal));
    for (const st of statedChecksOf(o.goal, o.n)) out.set(st.id, termStems(st.text));
  }
  return out;
}

/**
 * How much a signal speaks to a check (0: not at all). Any signal speaks a little to every goal
 * (it is about the kernel's work), fully when it names the goal's words; a goal's stated
 * prohibition, deadline or hand-off only when the signal names its words.
 */
function weight(check: KernelArtifact['eval_checks'][number], signal: Signal, stemsOfCheck: Map<string, string[]>, stems: Set<string>): number {
  if (check.covers.goal !== undefined) {
    const named = (stemsOfCheck.get(check.id) ?? []).some((s) => stems.has(s));
    return named ? 1 : check.covers.stated ? 0 : 0.5;
  }
  if (check.covers.feedback_id !== undefined) return signal.kind === 'feedback' ? 1 : 0.3;
  const theme = THEME_OF_CHECK.get(check.id);
  return theme !== undefined && signal.themes.includes(theme) ? 1 : 0;
}

const smoothed = (prior: number, sum: number, w: number) => (prior * PRIOR_WEIGHT + sum) / (PRIOR_WEIGHT + w);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Each signal's weight for each check, by check id. */
function weights(artifact: KernelArtifact, signals: readonly Signal[]): Map<string, number[]> {
  const stemsOfCheck = checkStems(artifact);
  const signalStems = signals.map((s) => stemsOf(s.text));
  return new Map(artifact.eval_checks.map((check) => [check.id, signals.map((s, i) => weight(check, s, stemsOfCheck, signalStems[i]!))]));
}

const coveredThemes = (artifact: KernelArtifact) => new Set(artifact.constraints.flatMap((c) => (c.theme ? [c.theme] : [])));

export function scoreChecks(artifact: KernelArtifact, signals: readonly Signal[]): CheckScore[] {
  const ws = weights(artifact, signals);
  const scores: CheckScore[] = artifact.eval_checks.map((check) => {
    let sum = 0;
    let w = 0;
    ws.get(check.id)!.forEach((x, i) => {
      sum += x * signals[i]!.score;
      w += x;
    });
    // A strengthened check is presumed a little better until evidence says otherwise.
    return { id: check.id, score: round3(smoothed(PRIOR + 0.1 * check.strength, sum, w)), evidence: round3(w), strength: check.strength };
  });
  const covered = coveredThemes(artifact);
  const named = new Set(signals.flatMap((s) => s.themes));
  for (const theme of [...named].filter((t) => !covered.has(t)).sort()) {
    const about = signals.filter((s) => s.themes.includes(theme));
    const sum = about.reduce((a, s) => a + s.score, 0);
    scores.push({ id: THEME_PARTS[theme].check.id, score: round3(smoothed(PRIOR, sum, about.length)), evidence: about.length, strength: 0, missing: theme });
  }
  return scores;
}

/**
 * The ids of the evidence that moved a check: the signals that speak to it most (for a goal, those
 * naming its words when any do), the worst first, at most EVIDENCE_CITED.
 */
function movedBy(artifact: KernelArtifact, signals: readonly Signal[], target: CheckScore): string[] {
  if (target.missing) return signals.filter((s) => s.themes.includes(target.missing!)).sort(worstFirst).slice(0, EVIDENCE_CITED).map((s) => s.id);
  const w = weights(artifact, signals).get(target.id) ?? [];
  const top = Math.max(0, ...w);
  if (top === 0) return [];
  return signals
    .filter((_, i) => w[i] === top)
    .sort(worstFirst)
    .slice(0, EVIDENCE_CITED)
    .map((s) => s.id);
}

const worstFirst = (a: Signal, b: Signal) => a.score - b.score || a.at.localeCompare(b.at) || a.id.localeCompare(b.id);

/** A check of what a goal states (a prohibition, deadline or hand-off), not the goal as a whole. */
const STATED_CHECK = /^e_goal_\d+_/;

/**
 * The checks a tick may work on, weakest first: only those the evidence speaks to (weight above 0)
 * and below full strength; lowest score, then most evidence, then a missing theme (adding its rule
 * does more than strengthening a general check), then a goal's stated prohibition, deadline or
 * hand-off (sharper than the goal as a whole), then list order.
 */
export function byWeakness(scores: readonly CheckScore[]): CheckScore[] {
  const stated = (s: CheckScore) => Number(STATED_CHECK.test(s.id));
  return scores
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.evidence > 0 && s.strength < MAX_STRENGTH)
    .sort((a, b) => a.s.score - b.s.score || b.s.evidence - a.s.evidence || Number(!!b.s.missing) - Number(!!a.s.missing) || stated(b.s) - stated(a.s) || a.i - b.i)
    .map(({ s }) => s);
}

export interface TickPlan {
  spec: KernelSpec;
  /** The kernel before the edit, rebuilt from the spec (a version stored in an older shape reads as today's). */
  before: KernelArtifact;
  artifact: KernelArtifact;
  diff: KernelDiff;
  target: CheckScore;
  action: string;
}

/** Why a tick changed nothing. */
export type Idle = 'no_evidence' | 'nothing_to_change';

export const IDLE_REASONS: Record<Idle, string> = {
  no_evidence: 'no new evidence: a tick edits a check only from feedback or outcomes that speak to it',
  nothing_to_change: 'every check the evidence speaks to is already at full strength and the evidence names no new theme: nothing to rewrite',
};

/** The spec change that addresses one check: a missing theme's rule with its evidence, else a stronger check. */
function addressing(spec: KernelSpec, target: CheckScore, evidence: string[]): { spec: KernelSpec; action: string } {
  if (target.missing) {
    const p = THEME_PARTS[target.missing];
    return { spec: { ...spec, themes: withThemes(spec.themes, new Map([[target.missing, evidence]]), 'loop') }, action: `added the ${themeLabel(target.missing)} rule ${p.constraint.id} and its check ${p.check.id}` };
  }
  const strength = { ...spec.strength, [target.id]: Math.min(MAX_STRENGTH, (spec.strength[target.id] ?? 0) + 1) };
  return { spec: { ...spec, strength }, action: `strengthened ${target.id}${target.id.startsWith('e_goal_') ? '' : ' and the rule it watches'} (strength ${strength[target.id]})` };
}

/** An edit a tick may store: it removes nothing and changes some text (a strength level that reads the same is no edit). */
const movesForward = (d: KernelDiff) => d.removed.length === 0 && (d.added.length > 0 || d.changed.length > 0);

/**
 * The next spec, addressing the weakest check the evidence speaks to whose edit changes the
 * kernel; or why there is none. The new spec's evidence mark is past the signals read. The diff
 * says what moved the edit: the check, its goal (number and text) and the evidence ids.
 */
export function planTick(spec: KernelSpec, signals: readonly Signal[]): { plan?: TickPlan; idle?: Idle; scores: CheckScore[] } {
  const before = buildKernel(spec);
  const scores = scoreChecks(before, signals);
  if (!signals.length) return { scores, idle: 'no_evidence' };
  for (const target of byWeakness(scores)) {
    const evidence = movedBy(before, signals, target);
    if (!evidence.length) continue;
    const next = addressing(spec, target, evidence);
    const built = buildKernel(next.spec);
    const n = before.eval_checks.find((c) => c.id === target.id)?.covers.goal;
    const diff = diffKernels(before, built, { check: target.id, ...(n !== undefined ? { goal: { n, text: spec.goals[n - 1]! } } : {}), evidence });
    if (!movesForward(diff)) continue;
    const { focus: _ignored, ...rest } = next.spec;
    const evidence_from = markAfter(spec.evidence_from, signals);
    return { scores, plan: { spec: { ...rest, ...(evidence_from ? { evidence_from } : {}) }, before, artifact: built, diff, target, action: next.action } };
  }
  return { scores, idle: 'nothing_to_change' };
}
