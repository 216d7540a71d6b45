// What loop ticks learned, carried into the next improve_kernel version (pure). A tick's edits are
// the caller's evidence at work, and TOOLS.md keeps one line of versions per caller: a new version
// built from goals keeps the rules ticks added (with the evidence that brought them) and the
// strengths they raised, plus where the unread evidence starts. Only what no longer has a subject
// is dropped, and the answer says so: a strength of a goal that is no longer among the goals, of a
// feedback note that no longer fits (at most MAX_NOTES are quoted), or a rule stored without the
// evidence that brought it (a spec stored by an older version). Goals keep the caller's order,
// whatever an older spec's `focus` says.
import { themeLabel, type ThemeId } from '../feedback/themes.ts';
import { withThemes, type KernelSpec } from './build.ts';
import { markOf } from './evidence-mark.ts';
import { THEME_PARTS } from './parts.ts';

/** Feedback notes one kernel quotes at most. */
export const MAX_NOTES = 3;

export interface LoopKept {
  from_version: number;
  /** Rules that loop ticks added (or whose check they strengthened), kept with their evidence: their ids. */
  rules: string[];
  /** Goals whose check ticks strengthened: their number before and now, and the strength. */
  goals: { from: number; to: number; strength: number }[];
  /** Other checks' strengths (a goal's stated checks, base checks, theme checks, feedback notes), by their id now. */
  checks: { id: string; strength: number }[];
  /** What had to go, and why. */
  dropped: { id: string; why: string }[];
}

/** A goal's own check (no suffix) or one of its stated checks (prohibition, deadline, hand-off). */
const GOAL_CHECK = /^e_goal_(\d+)((?:_[a-z]+_\d+)?)$/;
const NOTE_CHECK = /^e_fb_(\d+)$/;
const themeCheck = new Map(Object.entries(THEME_PARTS).map(([theme, p]) => [p.check.id, theme as ThemeId]));

/**
 * `fresh`, the spec improve_kernel built from this call's goals and feedback, with what ticks
 * learned in `previous` (the caller's latest version) carried over.
 */
export function carryLearned(previous: { version: number; spec: KernelSpec; created_at: string }, fresh: KernelSpec): { spec: KernelSpec; kept: LoopKept } {
  const old = previous.spec;
  const kept: LoopKept = { from_version: previous.version, rules: [], goals: [], checks: [], dropped: [] };
  const learned = Object.entries(old.strength).filter(([, s]) => s > 0);

  // Rules the loop added, and any rule whose check a tick strengthened, stay applied, with their evidence.
  const loopThemes = old.themes.filter((t) => t.source === 'loop' || (old.strength[THEME_PARTS[t.theme].check.id] ?? 0) > 0);
  const evidence = new Map(loopThemes.flatMap((t) => (t.evidence?.length ? [[t.theme, t.evidence] as const] : [])));
  const themes = withThemes(fresh.themes, evidence, 'loop');
  for (const t of themes.slice(fresh.themes.length)) kept.rules.push(THEME_PARTS[t.theme].constraint.id);
  for (const t of loopThemes) {
    if (!evidence.has(t.theme) && !themes.some((x) => x.theme === t.theme)) kept.dropped.push({ id: THEME_PARTS[t.theme].constraint.id, why: `the ${themeLabel(t.theme)} rule was stored without the evidence that brought it, and a rule enters only with evidence` });
  }

  // Notes a tick strengthened stay quoted, before this call's own note.
  const strongNotes = old.notes.filter((_, i) => (old.strength[`e_fb_${i + 1}`] ?? 0) > 0);
  const notes = [...strongNotes, ...fresh.notes].slice(-MAX_NOTES);

  const goalNow = (n: number) => {
    const i = fresh.goals.indexOf(old.goals[n - 1] ?? '');
    return i < 0 ? undefined : i + 1;
  };
  const strength: Record<string, number> = {};
  for (const [id, s] of learned) {
    const goal = GOAL_CHECK.exec(id);
    const note = NOTE_CHECK.exec(id);
    if (goal) {
      const to = goalNow(Number(goal[1]));
      if (to === undefined) kept.dropped.push({ id, why: `goal ${goal[1]} (${JSON.stringify(old.goals[Number(goal[1]) - 1]?.slice(0, 60) ?? '')}) is no longer among the goals` });
      else if (goal[2]) {
        strength[`e_goal_${to}${goal[2]}`] = s;
        kept.checks.push({ id: `e_goal_${to}${goal[2]}`, strength: s });
      } else strength[`e_goal_${to}`] = s;
    } else if (note) {
      const fb = old.notes[Number(note[1]) - 1];
      const at = fb ? notes.indexOf(fb) : -1;
      if (at < 0) kept.dropped.push({ id, why: `the feedback it quotes no longer fits among the ${MAX_NOTES} notes a kernel quotes` });
      else {
        strength[`e_fb_${at + 1}`] = s;
        kept.checks.push({ id: `e_fb_${at + 1}`, strength: s });
      }
    } else {
      const theme = themeCheck.get(id);
      if (theme !== undefined && !themes.some((t) => t.theme === theme)) {
        if (!kept.dropped.some((d) => d.id === THEME_PARTS[theme].constraint.id)) kept.dropped.push({ id, why: `its rule (${themeLabel(theme)}) is no longer applied` });
      } else {
        strength[id] = s;
        kept.checks.push({ id, strength: s });
      }
    }
  }

  for (const [id, s] of learned) {
    const goal = GOAL_CHECK.exec(id);
    if (!goal || goal[2]) continue;
    const to = goalNow(Number(goal[1]));
    if (to !== undefined) kept.goals.push({ from: Number(goal[1]), to, strength: s });
  }
  kept.goals.sort((a, b) => a.from - b.from);

  const { focus: _ignored, ...rest } = fresh;
  return { spec: { ...rest, themes, notes, strength, evidence_from: markOf(previous) }, kept };
}

/** Whether anything was carried or dropped (an answer mentions it only then). */
export const keptAnything = (k: LoopKept) => k.rules.length + k.goals.length + k.checks.length + k.dropped.length > 0;

/** One line for the version's reason. */
export function keptReason(k: LoopKept): string {
  const parts: string[] = [];
  if (k.rules.length) parts.push(`rules ${k.rules.join(', ')}`);
  for (const g of k.goals) parts.push(`goal ${g.to}${g.from !== g.to ? ` (was ${g.from})` : ''} at strength ${g.strength}`);
  for (const c of k.checks) parts.push(`${c.id} at strength ${c.strength}`);
  const kept = parts.length ? `kept what loop ticks learned up to version ${k.from_version} (${parts.join('; ')})` : '';
  const dropped = k.dropped.length ? `re-decided: dropped ${k.dropped.map((d) => `${d.id} (${d.why})`).join(', ')}` : '';
  return [kept, dropped].filter((x) => x !== '').join('; ');
}
