// Every change to a listing, and to any domain's share of its rank, goes through here: one
// function recomputes the rank and feeds the change.
import { inTransaction, takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { recordChange } from '../../platform/db/changes.ts';
import { listingTables as q, type ListingsTable } from '../tables.ts';
import { LISTING_ENTITY, sumParts, toRow, type ListingRow } from './row.ts';

/** What other domains may change on a listing. */
export type ListingPatch = Partial<Pick<ListingsTable, 'kind' | 'name' | 'description' | 'website' | 'category_id' | 'capabilities' | 'lane' | 'lane_reason' | 'live_since' | 'duplicate_of'>>;

/**
 * Changes a listing (its own columns, and/or rank parts of other domains), recomputes `rank` from
 * all parts, and feeds the change. The row is locked first (PostgreSQL), so two transactions that
 * change different parts never lose each other's update. With an empty patch it only marks the
 * listing changed (another domain's part of its view changed).
 */
export async function updateListing(
  ex: Executor,
  id: string,
  patch: ListingPatch,
  now: string,
  rankParts: Record<string, number> = {},
): Promise<ListingRow | undefined> {
  return inTransaction(ex, async (trx) => {
    let sel = q(trx).selectFrom('listings').selectAll().where('id', '=', id);
    if (takesRowLocks(trx)) sel = sel.forUpdate();
    const current = await sel.executeTakeFirst();
    if (!current) return undefined;
    const parts = { ...(JSON.parse(current.rank_parts) as Record<string, number>), ...rankParts };
    const rank = sumParts(parts);
    const set = { ...patch, rank, rank_parts: JSON.stringify(parts), updated_at: now };
    await q(trx).updateTable('listings').set(set).where('id', '=', id).execute();
    await recordChange(trx, LISTING_ENTITY, id, 'upsert', now);
    return toRow({ ...current, ...set });
  });
}
