// Every change to a listing, and to any domain's share of its rank, goes through here: one
// function recomputes the rank and feeds the change.
import type { Selectable } from 'kysely';
import { inTransaction, takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { changePart } from '../../platform/db/changes.ts';
import { part, together, write, type Part } from '../../platform/db/together.ts';
import { listingTables as q, type ListingsTable } from '../tables.ts';
import { LISTING_ENTITY, sumParts, toRow, type ListingRow } from './row.ts';
import { nameKey } from '../name-key.ts';

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
    | 'name_withheld'
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
  /**
   * The same change as parts of the caller's batch (platform/db/together.ts): the listing's update
   * and its change row. The handle shows the new row at once; it is written when the parts are sent.
   */
  updateParts(patch: ListingPatch, now: string, rankParts?: Record<string, number>): { parts: Part<void>[]; row: ListingRow };
}

const selectForUpdate = (trx: Executor, id: string) => {
  const sel = q(trx).selectFrom('listings').selectAll().where('id', '=', id);
  return takesRowLocks(trx) ? sel.forUpdate() : sel;
};

/** The write of a change made from the row read under its lock: the update and its change row (sent by the caller), and the row after it. */
function changeOf(trx: Executor, current: Selectable<ListingsTable>, patch: ListingPatch, now: string, rankParts: Record<string, number>) {
  const parts = { ...(JSON.parse(current.rank_parts) as Record<string, number>), ...rankParts };
  // The key of the name it would show follows every change of its names.
  const named = patch.name !== undefined || patch.owner_name !== undefined ? { name_key: nameKey(patch.owner_name !== undefined ? (patch.owner_name ?? patch.name ?? current.name) : (current.owner_name ?? patch.name ?? current.name)) } : {};
  const set = { ...patch, ...named, rank: sumParts(parts), rank_parts: JSON.stringify(parts), updated_at: now };
  return {
    parts: [write(q(trx).updateTable('listings').set(set).where('id', '=', current.id)), changePart(trx, LISTING_ENTITY, current.id, 'upsert', now)],
    next: { ...current, ...set },
  };
}

async function writeNow(trx: Executor, current: Selectable<ListingsTable>, patch: ListingPatch, now: string, rankParts: Record<string, number>): Promise<Selectable<ListingsTable>> {
  const { parts, next } = changeOf(trx, current, patch, now, rankParts);
  await together(trx, parts);
  return next;
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
    return current && toRow(await writeNow(trx, current, patch, now, rankParts));
  });
}

/** The listing row-locked in the caller's transaction `trx` (see LockedListing); undefined when it does not exist. */
export async function lockListingForUpdate(trx: Executor, id: string): Promise<LockedListing | undefined> {
  const [locked] = await together(trx, [lockedListingPart(trx, id)]);
  return locked;
}

/** lockListingForUpdate as a part of the caller's batch (platform/db/together.ts), read with its other reads. */
export function lockedListingPart(trx: Executor, id: string): Part<LockedListing | undefined> {
  if (!trx.isTransaction) throw new Error("a locked listing needs the caller's transaction");
  return part(selectForUpdate(trx, id), (rows) => (rows[0] ? lockedFrom(trx, rows[0] as Selectable<ListingsTable>) : undefined));
}

function lockedFrom(trx: Executor, read: Selectable<ListingsTable>): LockedListing {
  let current = read;
  let row = toRow(current);
  return {
    get row() {
      return row;
    },
    async update(patch, now, rankParts = {}) {
      current = await writeNow(trx, current, patch, now, rankParts);
      row = toRow(current);
      return row;
    },
    updateParts(patch, now, rankParts = {}) {
      const { parts, next } = changeOf(trx, current, patch, now, rankParts);
      current = next;
      row = toRow(current);
      return { parts, row };
    },
  };
}
