// A step's claimer records its result.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';

/** Records the result of a step its claimer holds; false when it is not claimed by that listing. */
export async function completeStep(ex: Executor, sessionId: string, step: number, listingId: string, result: string, now: string): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_steps')
    .set({ state: 'done', result, done_at: now })
    .where('session_id', '=', sessionId)
    .where('step', '=', step)
    .where('state', '=', 'claimed')
    .where('claimed_by', '=', listingId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
