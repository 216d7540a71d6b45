// A challenge is used once: one conditional UPDATE.
import type { Executor } from '../../platform/db/executor.ts';
import { iso } from '../../platform/clock.ts';
import { identityTables as q } from '../tables.ts';

/**
 * Marks the challenge used if it is this listing's, unused and unexpired, in one conditional
 * update: of two proofs racing (on one instance or several), exactly one gets true.
 */
export async function consumeChallenge(ex: Executor, id: string, listingId: string, now: Date): Promise<boolean> {
  const at = iso(now);
  const result = await q(ex)
    .updateTable('identity_challenges')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('listing_id', '=', listingId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
