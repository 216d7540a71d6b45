// Listings by name (an agent named in a call rather than by id).
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q } from '../tables.ts';
import { toRow, type ListingRow } from './row.ts';

/** Listings (not deleted) whose shown name is `name` (case-insensitive, exact), oldest first, at most `limit`. */
export async function findListingsByName(ex: Executor, name: string, limit: number): Promise<ListingRow[]> {
  const rows = await q(ex)
    .selectFrom('listings')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', [eb.fn.coalesce('owner_name', 'name')]), '=', name.toLowerCase()))
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toRow);
}
