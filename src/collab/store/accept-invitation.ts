// An invited partner joins: one conditional UPDATE, so a seat is taken once.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';

/** An invited participant joins; false when it was not invited or had joined already. */
export async function acceptInvitation(ex: Executor, sessionId: string, listingId: string, now: string): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_participants')
    .set({ status: 'joined', joined_at: now })
    .where('session_id', '=', sessionId)
    .where('listing_id', '=', listingId)
    .where('status', '=', 'invited')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
