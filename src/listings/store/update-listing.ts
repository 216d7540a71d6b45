// Every change to a listing, and to any domain's share of its rank, goes through here: one
// function recomputes the rank and feeds the change.
import type { Selectable } from 'kysely';
import { inTransaction, takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { recordChange } from '../../platform/db/changes.ts';
import { listingTables as q, type ListingsTable } from '../tables.ts';
import { LISTING_ENTITY, sumParts, toRow, type ListingRow } from './row.ts';

/** What other domains may change on a listing. */
export type ListingPatch = Partial<
  Pick<
    ListingsTable,
    | 'kind'
    | 'name'
    | 'description'
    | 'website'
    | 'category_id'
    | 'capabilities'
    | 'lane'
    | 'lane_reason'
    | 'live_since'
    | 'duplicate_of'
    | 'owner_name'
    | 'owner_description'
    | 'owner_website'
    | 'contact_email'
    | 'submitted_name'
    | 'source'
    | 'unlisted_at'
    | 'deleted_at'
  >
>;

/**
 * A listing read under its row lock in one transaction, to be changed in that same transaction
 * without reading it again (the probe's apply reads it, decides, then writes once).
 */
export interface LockedListing {
  readonly row: ListingRow;
  /** Changes the listing as updateListing does, from the locked row; the handle then shows the new row. */
  update(patch: ListingPatch, now: string, rankParts?: Record<string, number>): Promise<ListingRow>;
}

const selectForUpdate = (trx: Executor, id: string) => {
  const sel = q(trx).selectFrom('listings').selectAll().where('id', '=', id);
  return takesRowLocks(trx) ? sel.forUpdate() : sel;
};

async function write(trx: Executor, current: Selectable<ListingsTable>, patch: ListingPatch, now: string, rankParts: Record<string, number>): Promise<Selectable<ListingsTable>> {
  const parts = { ...(JSON.parse(current.rank_parts) as Record<string, number>), ...rankParts };
  const set = { ...patch, rank: sumParts(parts), rank_parts: JSON.stringify(parts), updated_at: now };
  await q(trx).updateTable('listings').set(set).where('id', '=', current.id).execute();
  await recordChange(trx, LISTING_ENTITY, current.id, 'upsert', now);
  return { ...current, ...set };
}

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
    const current = await selectForUpdate(trx, id).executeTakeFirst();
    return current && toRow(await write(trx, current, patch, now, rankParts));
  });
}

/** The listing row-locked in the caller's transaction `trx` (see LockedListing); undefined when it does not exist. */
export async function lockListingForUpdate(trx: Executor, id: string): Promise<LockedListing | undefined> {
  if (!trx.isTransaction) throw new Error("lockListingForUpdate needs the caller's transaction");
  let current = await selectForUpdate(trx, id).executeTakeFirst();
  if (!current) return undefined;
  let row = toRow(current);
  return {
    get row() {
      return row;
    },
    async update(patch, now, rankParts = {}) {
      current = await write(trx, current!, patch, now, rankParts);
      row = toRow(current);
      return row;
    },
  };
}
