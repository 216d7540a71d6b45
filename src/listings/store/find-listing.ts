// Reading listings by their keys (id, ids, normalized URL), and the row-locked read for decisions
// that read then write one.
import { takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { listingTables as q } from '../tables.ts';
import { toRow, type ListingRow } from './row.ts';

/** The listing with this id, a deleted one's tombstone included (requireListing answers 404 for it). */
export async function findListingById(ex: Executor, id: string): Promise<ListingRow | undefined> {
  const row = await q(ex).selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

/** The listing, row-locked until the transaction ends (PostgreSQL), for decisions that read then write it. */
export async function lockListing(trx: Executor, id: string): Promise<ListingRow | undefined> {
  let sel = q(trx).selectFrom('listings').selectAll().where('id', '=', id);
  if (takesRowLocks(trx)) sel = sel.forUpdate();
  const row = await sel.executeTakeFirst();
  return row && toRow(row);
}

/** The listings of `ids` that exist and are not deleted (a deleted listing is on no public surface). */
export async function findListingsByIds(ex: Executor, ids: string[]): Promise<ListingRow[]> {
  if (!ids.length) return [];
  return (await q(ex).selectFrom('listings').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute()).map(toRow);
}

export async function findListingByUrl(ex: Executor, url: string): Promise<ListingRow | undefined> {
  const row = await q(ex).selectFrom('listings').selectAll().where('url', '=', url).executeTakeFirst();
  return row && toRow(row);
}
