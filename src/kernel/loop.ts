// One loop tick, pure (TOOLS.md run_loop_tick): scores each eval check of a kernel against the
// unread feedback and outcomes, and changes the spec to address the weakest check the evidence
// speaks to (a missing theme gets its rule and check; a goal check promotes its goal and asks more
// of it; any other check is strengthened). Without evidence nothing changes: a score on no
// evidence is only the prior, no reason to edit. An edit only adds or strengthens and must change
// the kernel's text, so a tick never undoes an earlier edit and never makes the same one twice.
import { extractThemes, themeLabel, type ThemeId } from '../feedback/themes.ts';
import { buildKernel, MAX_STRENGTH, withThemes, type KernelArtifact, type KernelSpec } from './build.ts';
import { diffKernels, type KernelDiff } from './diff.ts';
import { markAfter } from './evidence-mark.ts';
import { THEME_PARTS } from './parts.ts';
import { stemOf, stemsOf } from './terms.ts';

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

/** The base checks read the evidence of a theme too. */
const BASE_THEME: Record<string, ThemeId> = { e_truth: 'accuracy', e_data: 'safety', e_contract: 'output_format' };
const PRIOR = 0.6;
const PRIOR_WEIGHT = 1;

export interface CheckScore {
  id: string;
  label: string;
  score: number;
  evidence: number;
  strength: number;
  /** A theme the evidence names that the kernel does not cover yet. */
  missing?: ThemeId;
}

/** How much a signal speaks to a check (0: not at all). */
function weight(check: KernelArtifact['eval_checks'][number], signal: Signal, goalStems: Map<number, string[]>, stems: Set<string>): number {
  if (check.covers.goal !== undefined) return (goalStems.get(check.covers.goal) ?? []).some((s) => stems.has(s)) ? 1 : 0.5;
  if (check.covers.feedback_id !== undefined) return signal.kind === 'feedback' ? 1 : 0.3;
  const theme = check.covers.theme ?? BASE_THEME[check.id];
  return theme !== undefined && signal.themes.includes(theme) ? 1 : 0;
}

const smoothed = (prior: number, sum: number, w: number) => (prior * PRIOR_WEIGHT + sum) / (PRIOR_WEIGHT + w);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export function scoreChecks(artifact: KernelArtifact, signals: readonly Signal[]): CheckScore[] {
  const goalStems = new Map(artifact.objectives.map((o) => [o.n, o.key_terms.map(stemOf)]));
  const signalStems = signals.map((s) => stemsOf(s.text));
  const scores: CheckScore[] = artifact.eval_checks.map((check) => {
    let sum = 0;
    let w = 0;
    signals.forEach((s, i) => {
      const x = weight(check, s, goalStems, signalStems[i]!);
      sum += x * s.score;
      w += x;
    });
    // A strengthened check is presumed a little better until evidence says otherwise.
    return { id: check.id, label: check.label, score: round3(smoothed(PRIOR + 0.1 * check.strength, sum, w)), evidence: round3(w), strength: check.strength };
  });
  const covered = new Set(artifact.themes_applied.map((t) => t.theme));
  const named = new Set(signals.flatMap((s) => s.themes));
  for (const theme of [...named].filter((t) => !covered.has(t)).sort()) {
    const about = signals.filter((s) => s.themes.includes(theme));
    const sum = about.reduce((a, s) => a + s.score, 0);
    scores.push({ id: THEME_PARTS[theme].check.id, label: THEME_PARTS[theme].check.label, score: round3(smoothed(PRIOR, sum, about.length)), evidence: about.length, strength: 0, missing: theme });
  }
  return scores;
}

/**
 * The checks a tick may work on, weakest first: only those the evidence speaks to (weight above 0)
 * and below full strength; lowest score, then most evidence, then a missing theme (adding its rule
 * does more than strengthening a general check), then list order.
 */
export function byWeakness(scores: readonly CheckScore[]): CheckScore[] {
  return scores
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.evidence > 0 && s.strength < MAX_STRENGTH)
    .sort((a, b) => a.s.score - b.s.score || b.s.evidence - a.s.evidence || Number(!!b.s.missing) - Number(!!a.s.missing) || a.i - b.i)
    .map(({ s }) => s);
}

export interface TickPlan {
  spec: KernelSpec;
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

/** The spec change that addresses one check. */
function addressing(spec: KernelSpec, artifact: KernelArtifact, target: CheckScore): { spec: KernelSpec; action: string } {
  if (target.missing) {
    const p = THEME_PARTS[target.missing];
    return { spec: { ...spec, themes: withThemes(spec.themes, [target.missing], 'loop') }, action: `added the ${themeLabel(target.missing)} rule ${p.constraint.id} and its check ${p.check.id}` };
  }
  const strength = { ...spec.strength, [target.id]: Math.min(MAX_STRENGTH, (spec.strength[target.id] ?? 0) + 1) };
  const goal = artifact.eval_checks.find((c) => c.id === target.id)?.covers.goal;
  if (goal !== undefined) {
    // A promoted goal joins the promoted ones after those promoted earlier: no tick demotes another's goal.
    if (spec.focus.includes(goal)) return { spec: { ...spec, strength }, action: `asked more of goal ${goal} (strength ${strength[target.id]})` };
    return { spec: { ...spec, strength, focus: [...spec.focus, goal] }, action: `put goal ${goal} ahead of the goals no tick has promoted and asked more of it (strength ${strength[target.id]})` };
  }
  return { spec: { ...spec, strength }, action: `strengthened ${target.id} and the rule it watches (strength ${strength[target.id]})` };
}

/** An edit a tick may store: it removes nothing and changes some text (a strength level that reads the same is no edit). */
const movesForward = (d: KernelDiff) => d.removed.length === 0 && (d.added.length > 0 || d.changed.length > 0 || d.goal_order !== null);

/**
 * The next spec, addressing the weakest check the evidence speaks to whose edit changes the
 * kernel; or why there is none. The new spec's evidence mark is past the signals read.
 */
export function planTick(spec: KernelSpec, artifact: KernelArtifact, signals: readonly Signal[]): { plan?: TickPlan; idle?: Idle; scores: CheckScore[] } {
  const scores = scoreChecks(artifact, signals);
  if (!signals.length) return { scores, idle: 'no_evidence' };
  for (const target of byWeakness(scores)) {
    const next = addressing(spec, artifact, target);
    const built = buildKernel(next.spec);
    const diff = diffKernels(artifact, built);
    if (!movesForward(diff)) continue;
    const evidence_from = markAfter(spec.evidence_from, signals);
    return { scores, plan: { spec: { ...next.spec, ...(evidence_from ? { evidence_from } : {}) }, artifact: built, diff, target, action: next.action } };
  }
  return { scores, idle: 'nothing_to_change' };
}
