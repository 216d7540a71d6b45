// What changed between two kernel artifacts (run_loop_tick's `diff`): rules and checks added,
// removed or reworded, goals reordered, the output contract and the short prompt.
import type { KernelArtifact } from './build.ts';

export interface KernelDiff {
  added: { part: 'constraint' | 'eval_check'; id: string; text: string }[];
  removed: { part: 'constraint' | 'eval_check'; id: string; text: string }[];
  changed: { part: 'constraint' | 'eval_check' | 'objective' | 'output_contract'; id: string; from: string; to: string }[];
  goal_order: { from: number[]; to: number[] } | null;
  system_prompt_short: { from: string; to: string; chars: { from: number; to: number } } | null;
}

function byId<T extends { id: string }>(part: 'constraint' | 'eval_check', before: T[], after: T[], text: (x: T) => string, diff: KernelDiff) {
  const old = new Map(before.map((x) => [x.id, x]));
  const now = new Map(after.map((x) => [x.id, x]));
  for (const x of after) {
    const was = old.get(x.id);
    if (!was) diff.added.push({ part, id: x.id, text: text(x) });
    else if (text(was) !== text(x)) diff.changed.push({ part, id: x.id, from: text(was), to: text(x) });
  }
  for (const x of before) if (!now.has(x.id)) diff.removed.push({ part, id: x.id, text: text(x) });
}

const order = (a: KernelArtifact) => [...a.objectives].sort((x, y) => x.priority - y.priority).map((o) => o.n);

export function diffKernels(before: KernelArtifact, after: KernelArtifact): KernelDiff {
  const diff: KernelDiff = { added: [], removed: [], changed: [], goal_order: null, system_prompt_short: null };
  byId('constraint', before.constraints, after.constraints, (c) => c.text, diff);
  byId('eval_check', before.eval_checks, after.eval_checks, (c) => c.check, diff);
  const oldGoals = new Map(before.objectives.map((o) => [o.id, o]));
  for (const o of after.objectives) {
    const was = oldGoals.get(o.id);
    if (was && was.success !== o.success) diff.changed.push({ part: 'objective', id: o.id, from: was.success, to: o.success });
  }
  if (before.output_contract.text !== after.output_contract.text) diff.changed.push({ part: 'output_contract', id: 'output_contract', from: before.output_contract.text, to: after.output_contract.text });
  const from = order(before);
  const to = order(after);
  if (from.join() !== to.join()) diff.goal_order = { from, to };
  if (before.system_prompt_short !== after.system_prompt_short) {
    diff.system_prompt_short = { from: before.system_prompt_short, to: after.system_prompt_short, chars: { from: before.chars, to: after.chars } };
  }
  return diff;
}
