// One loop tick, pure (TOOLS.md run_loop_tick): scores each eval check of a kernel against the
// feedback and outcomes since the last tick, picks the weakest, and changes the spec to address it
// (a missing theme gets its rule and check; a goal check promotes its goal and asks more of it;
// any other check is strengthened). The caller rebuilds the kernel from the new spec.
import { extractThemes, themeLabel, type ThemeId } from '../feedback/themes.ts';
import { MAX_STRENGTH, withThemes, type KernelArtifact, type KernelSpec } from './build.ts';
import { THEME_PARTS } from './parts.ts';
import { stemOf, stemsOf } from './terms.ts';

export interface Signal {
  kind: 'feedback' | 'outcome';
  id: string;
  /** 0 (bad) .. 1 (good). */
  score: number;
  text: string;
  themes: ThemeId[];
}

export const feedbackSignal = (f: { id: string; rating: number; body: string; themes: ThemeId[] }): Signal => ({ kind: 'feedback', id: f.id, score: (f.rating - 1) / 4, text: f.body, themes: f.themes });

/** A failed outcome counts at most 0.25, whatever quality it reports. */
export const outcomeSignal = (o: { id: string; ok: boolean; quality: number; body: string | null }): Signal => ({
  kind: 'outcome',
  id: o.id,
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

/** The weakest check that can still be improved: lowest score, then most evidence, then a missing theme (adding its rule does more than strengthening a general check), then list order. */
export function weakest(scores: readonly CheckScore[]): CheckScore | undefined {
  let best: CheckScore | undefined;
  for (const s of scores) {
    if (s.strength >= MAX_STRENGTH) continue;
    if (!best || s.score < best.score) best = s;
    else if (s.score === best.score && (s.evidence > best.evidence || (s.evidence === best.evidence && s.missing && !best.missing))) best = s;
  }
  return best;
}

export interface TickPlan {
  spec: KernelSpec;
  target: CheckScore;
  action: string;
}

/** The spec after addressing the weakest check, or undefined when every check is at full strength. */
export function planTick(spec: KernelSpec, artifact: KernelArtifact, signals: readonly Signal[]): { plan?: TickPlan; scores: CheckScore[] } {
  const scores = scoreChecks(artifact, signals);
  const target = weakest(scores);
  if (!target) return { scores };
  if (target.missing) {
    const p = THEME_PARTS[target.missing];
    return { scores, plan: { target, spec: { ...spec, themes: withThemes(spec.themes, [target.missing], 'loop') }, action: `added the ${themeLabel(target.missing)} rule ${p.constraint.id} and its check ${p.check.id}` } };
  }
  const strength = { ...spec.strength, [target.id]: Math.min(MAX_STRENGTH, (spec.strength[target.id] ?? 0) + 1) };
  const goal = artifact.eval_checks.find((c) => c.id === target.id)?.covers.goal;
  if (goal !== undefined) {
    return { scores, plan: { target, spec: { ...spec, strength, focus: [goal, ...spec.focus.filter((n) => n !== goal)] }, action: `put goal ${goal} first and raised what its check asks (strength ${strength[target.id]})` } };
  }
  return { scores, plan: { target, spec: { ...spec, strength }, action: `strengthened ${target.id} and the rule it watches (strength ${strength[target.id]})` } };
}
