// A participant claims a step: one conditional UPDATE, so of racing claimers exactly one gets it.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';

/** Claims a step for a listing when it is still unclaimed: exactly one of racing claimers gets it. */
export async function claimStep(ex: Executor, sessionId: string, step: number, listingId: string, now: string): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_steps')
    .set({ state: 'claimed', claimed_by: listingId, claimed_at: now })
    .where('session_id', '=', sessionId)
    .where('step', '=', step)
    .where('state', '=', 'unclaimed')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
