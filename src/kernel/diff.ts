// What changed between two kernel artifacts (run_loop_tick's `diff`): rules and checks added,
// removed or reworded, the output contract and the short prompt's length, and what moved the
// edit. Texts the new artifact holds are not repeated: an added part is named by its id, a
// reworded one by its id and its old text.
import type { KernelArtifact } from './build.ts';

export interface KernelDiff {
  added: { part: 'constraint' | 'eval_check'; id: string }[];
  removed: { part: 'constraint' | 'eval_check'; id: string; text: string }[];
  changed: { part: 'constraint' | 'eval_check' | 'output_contract'; id: string; from: string }[];
  /** The short prompt's length before and after, when its text changed. */
  prompt_chars: { from: number; to: number } | null;
  /** What moved the edit: the check, its goal (number and text) when it is a goal's, and the evidence ids. */
  because?: DiffCause;
}

export interface DiffCause {
  check: string;
  goal?: { n: number; text: string };
  evidence: string[];
}

/** A diff as stored: versions stored before the prompt's texts and goal order left it still carry them. */
export interface StoredDiff {
  added: { id: string }[];
  removed: { id: string }[];
  changed: { part: string; id: string }[];
  prompt_chars?: { from: number; to: number } | null;
  goal_order?: { from: number[]; to: number[] } | null;
  system_prompt_short?: { chars: { from: number; to: number } } | null;
}

function byId<T extends { id: string }>(part: 'constraint' | 'eval_check', before: T[], after: T[], text: (x: T) => string, diff: KernelDiff) {
  const old = new Map(before.map((x) => [x.id, x]));
  const now = new Map(after.map((x) => [x.id, x]));
  for (const x of after) {
    const was = old.get(x.id);
    if (!was) diff.added.push({ part, id: x.id });
    else if (text(was) !== text(x)) diff.changed.push({ part, id: x.id, from: text(was) });
  }
  for (const x of before) if (!now.has(x.id)) diff.removed.push({ part, id: x.id, text: text(x) });
}

export function diffKernels(before: KernelArtifact, after: KernelArtifact, because?: DiffCause): KernelDiff {
  const diff: KernelDiff = { added: [], removed: [], changed: [], prompt_chars: null };
  byId('constraint', before.constraints, after.constraints, (c) => c.text, diff);
  byId('eval_check', before.eval_checks, after.eval_checks, (c) => c.check, diff);
  if (before.output_contract.text !== after.output_contract.text) diff.changed.push({ part: 'output_contract', id: 'output_contract', from: before.output_contract.text });
  if (before.system_prompt_short !== after.system_prompt_short) diff.prompt_chars = { from: before.chars, to: after.chars };
  return { ...diff, ...(because ? { because } : {}) };
}
