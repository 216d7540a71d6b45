// A session's change of state: one conditional UPDATE, so of two racing transitions one wins.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q, type SessionState } from '../tables.ts';

/** Moves a session from one of `from` to `to` with the patch; false when it was in another state. */
export async function moveSession(
  ex: Executor,
  id: string,
  from: readonly SessionState[],
  to: SessionState,
  now: string,
  patch: { outcome?: string; converged?: unknown; product_id?: string } = {},
): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_sessions')
    .set({
      state: to,
      updated_at: now,
      ...(to === 'closed' ? { closed_at: now } : {}),
      ...(patch.outcome !== undefined ? { outcome: patch.outcome } : {}),
      ...(patch.converged !== undefined ? { converged: JSON.stringify(patch.converged) } : {}),
      ...(patch.product_id !== undefined ? { product_id: patch.product_id } : {}),
    })
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
