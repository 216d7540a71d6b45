// Where a kernel's unread evidence starts (pure): a mark {at, seen} covers every item recorded at
// or after `at` except the `seen` ones recorded exactly at `at`. Times alone would not do:
// same-call feedback of improve_kernel is recorded in the same instant as its version, and
// feedback can land in the same millisecond as the tick that read the item before it.
import type { EvidenceMark, KernelSpec } from './build.ts';

/** A version's mark: the one its spec carries, else its own creation (its same-call feedback unread). */
export const markOf = (v: { spec: KernelSpec; created_at: string }): EvidenceMark => v.spec.evidence_from ?? { at: v.created_at, seen: [] };

export const isUnread = (mark: EvidenceMark, item: { id: string; at: string }): boolean => item.at > mark.at || (item.at === mark.at && !mark.seen.includes(item.id));

/** The mark after reading `items` on from `mark`: past the newest item read (the same mark when none was read). */
export function markAfter(mark: EvidenceMark | undefined, items: readonly { id: string; at: string }[]): EvidenceMark | undefined {
  if (!items.length) return mark;
  const at = items.reduce((m, i) => (i.at > m ? i.at : m), items[0]!.at);
  const seen = items.filter((i) => i.at === at).map((i) => i.id);
  return { at, seen: [...new Set([...(mark && mark.at === at ? mark.seen : []), ...seen])].sort() };
}
