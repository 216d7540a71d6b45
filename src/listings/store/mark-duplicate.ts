// A listing found to be another's duplicate hands its spellings to the original.
import { inTransaction, type Executor } from '../../platform/db/executor.ts';
import { together, write, type Part } from '../../platform/db/together.ts';
import { listingTables as q } from '../tables.ts';
import type { ListingRow } from './row.ts';
import { lockListingForUpdate, type LockedListing } from './update-listing.ts';

const duplicatePatch = (originalId: string, kind?: ListingRow['kind']) => ({ lane: 'failed' as const, lane_reason: 'duplicate_of', duplicate_of: originalId, ...(kind ? { kind } : {}) });

/**
 * Marks `id` a duplicate of `originalId`: lane failed, reason duplicate_of, and every spelling it
 * held now reaches the original, so publishing any of them again answers with the original. The
 * kind is what the probe found (an agent's origin guessed `mcp` from its URL is an agent).
 */
export async function markDuplicate(ex: Executor, id: string, originalId: string, now: string, kind?: ListingRow['kind']): Promise<ListingRow | undefined> {
  return inTransaction(ex, async (trx) => {
    const locked = await lockListingForUpdate(trx, id);
    if (!locked) return undefined;
    const { parts, row } = markDuplicateParts(trx, locked, originalId, now, kind);
    await together(trx, parts);
    return row;
  });
}

/** markDuplicate of a listing locked in the caller's transaction, as parts of its batch (platform/db/together.ts). */
export function markDuplicateParts(trx: Executor, locked: LockedListing, originalId: string, now: string, kind?: ListingRow['kind']): { parts: Part<void>[]; row: ListingRow } {
  const { parts, row } = locked.updateParts(duplicatePatch(originalId, kind), now);
  return { parts: [write(q(trx).updateTable('listing_aliases').set({ listing_id: originalId }).where('listing_id', '=', locked.row.id)), ...parts], row };
}
