// A listing found to be another's duplicate hands its spellings to the original.
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q } from '../tables.ts';
import type { ListingRow } from './row.ts';
import { updateListing } from './update-listing.ts';

/**
 * Marks `id` a duplicate of `originalId`: lane failed, reason duplicate_of, and every spelling it
 * held now reaches the original, so publishing any of them again answers with the original. The
 * kind is what the probe found (an agent's origin guessed `mcp` from its URL is an agent).
 */
export async function markDuplicate(trx: Executor, id: string, originalId: string, now: string, kind?: ListingRow['kind']): Promise<ListingRow | undefined> {
  await q(trx).updateTable('listing_aliases').set({ listing_id: originalId }).where('listing_id', '=', id).execute();
  return updateListing(trx, id, { lane: 'failed', lane_reason: 'duplicate_of', duplicate_of: originalId, ...(kind ? { kind } : {}) }, now);
}
