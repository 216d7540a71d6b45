// Whether a claim would find anything: asked before a claim when the pool's last claim left the
// queue empty, so a slot that frees with nothing due costs one read, not a claim's transaction.
import type { Executor } from '../../db/executor.ts';
import { leaseFree, q } from './job-row.ts';

/** Whether a job of `kind` is due at `nowIso` and not leased (the claim order's index answers it). */
export async function anyDue(ex: Executor, nowIso: string, kind: string): Promise<boolean> {
  const row = await q(ex).selectFrom('jobs').select('id').where('kind', '=', kind).where('due_at', '<=', nowIso).where(leaseFree(nowIso)).limit(1).executeTakeFirst();
  return row !== undefined;
}
