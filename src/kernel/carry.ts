// What loop ticks learned, carried into the next improve_kernel version (pure). A tick's edits are
// the caller's evidence at work, and TOOLS.md keeps one line of versions per caller: a new version
// built from goals keeps the rules ticks added, the strengths they raised and the goals they
// promoted, plus where the unread evidence starts. Only what no longer has a subject is dropped,
// and the answer says so: a strength or promotion of a goal that is no longer among the goals, or
// of a feedback note that no longer fits (at most MAX_NOTES are quoted).
import { themeLabel, type ThemeId } from '../feedback/themes.ts';
import { withThemes, type KernelSpec } from './build.ts';
import { markOf } from './evidence-mark.ts';
import { THEME_PARTS } from './parts.ts';

/** Feedback notes one kernel quotes at most. */
export const MAX_NOTES = 3;

export interface LoopKept {
  from_version: number;
  /** Rules and checks that loop ticks added or strengthened, kept. */
  themes: { theme: ThemeId; label: string }[];
  /** Goals ticks worked on: their number before and now, strength, whether a tick promoted them. */
  goals: { from: number; to: number; strength: number; promoted: boolean }[];
  /** Other checks' strengths (base checks, theme checks, feedback notes), by their id now. */
  checks: { id: string; strength: number }[];
  /** What had to go, and why. */
  dropped: { id: string; why: string }[];
}

const GOAL_CHECK = /^e_goal_(\d+)$/;
const NOTE_CHECK = /^e_fb_(\d+)$/;
const themeCheck = new Map(Object.entries(THEME_PARTS).map(([theme, p]) => [p.check.id, theme as ThemeId]));

/**
 * `fresh`, the spec improve_kernel built from this call's goals and feedback, with what ticks
 * learned in `previous` (the caller's latest version) carried over.
 */
export function carryLearned(previous: { version: number; spec: KernelSpec; created_at: string }, fresh: KernelSpec): { spec: KernelSpec; kept: LoopKept } {
  const old = previous.spec;
  const kept: LoopKept = { from_version: previous.version, themes: [], goals: [], checks: [], dropped: [] };
  const learned = Object.entries(old.strength).filter(([, s]) => s > 0);

  // Rules the loop added, and any rule whose check a tick strengthened, stay applied.
  const loopThemes = old.themes.filter((t) => t.source === 'loop' || (old.strength[THEME_PARTS[t.theme].check.id] ?? 0) > 0).map((t) => t.theme);
  const themes = withThemes(fresh.themes, loopThemes, 'loop');
  for (const t of themes.slice(fresh.themes.length)) kept.themes.push({ theme: t.theme, label: themeLabel(t.theme) });

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
      else strength[`e_goal_${to}`] = s;
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
      if (theme !== undefined && !themes.some((t) => t.theme === theme)) kept.dropped.push({ id, why: `its rule (${themeLabel(theme)}) is no longer applied` });
      else {
        strength[id] = s;
        kept.checks.push({ id, strength: s });
      }
    }
  }

  const focus = old.focus.map(goalNow).filter((n): n is number => n !== undefined);
  for (const n of old.focus) if (goalNow(n) === undefined && !learned.some(([id]) => id === `e_goal_${n}`)) kept.dropped.push({ id: `g${n}`, why: `goal ${n} was promoted by a tick and is no longer among the goals` });
  const worked = new Set([...old.focus, ...learned.flatMap(([id]) => (GOAL_CHECK.test(id) ? [Number(GOAL_CHECK.exec(id)![1])] : []))]);
  for (const from of [...worked].sort((a, b) => a - b)) {
    const to = goalNow(from);
    if (to !== undefined) kept.goals.push({ from, to, strength: strength[`e_goal_${to}`] ?? 0, promoted: old.focus.includes(from) });
  }

  return { spec: { ...fresh, themes, notes, strength, focus, evidence_from: markOf(previous) }, kept };
}

/** Whether anything was carried or dropped (an answer mentions it only then). */
export const keptAnything = (k: LoopKept) => k.themes.length + k.goals.length + k.checks.length + k.dropped.length > 0;

/** One line for the version's reason. */
export function keptReason(k: LoopKept): string {
  const parts: string[] = [];
  if (k.themes.length) parts.push(`rules ${k.themes.map((t) => THEME_PARTS[t.theme].constraint.id).join(', ')}`);
  for (const g of k.goals) parts.push(`goal ${g.to}${g.from !== g.to ? ` (was ${g.from})` : ''}${g.promoted ? ' promoted' : ''}${g.strength ? ` at strength ${g.strength}` : ''}`);
  for (const c of k.checks) parts.push(`${c.id} at strength ${c.strength}`);
  const kept = parts.length ? `kept what loop ticks learned up to version ${k.from_version} (${parts.join('; ')})` : '';
  const dropped = k.dropped.length ? `re-decided: dropped ${k.dropped.map((d) => `${d.id} (${d.why})`).join(', ')}` : '';
  return [kept, dropped].filter((x) => x !== '').join('; ');
}
