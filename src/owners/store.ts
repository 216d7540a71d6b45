// The owners domain's SQL: claims (a proof of control being made) and each listing's owner. A
// claim is consumed by one conditional UPDATE, so two verifications of one claim never both win;
// the owner row is one per listing, and a new claim replaces it (the old token stops at once).
import type { Executor } from '../platform/db/executor.ts';
import { ownerTables as q, type ClaimMethod, type ListingClaimsTable, type ListingOwnersTable } from './tables.ts';

export type { ClaimMethod } from './tables.ts';
export type ClaimRow = ListingClaimsTable;
export type OwnerRow = ListingOwnersTable;

export async function insertClaim(trx: Executor, row: ClaimRow): Promise<void> {
  await q(trx).insertInto('listing_claims').values(row).execute();
}

/** Claims a caller asked for since `since` (a bound per caller and day). */
export async function claimsOfCallerSince(ex: Executor, caller: string, since: string): Promise<number> {
  const row = await q(ex).selectFrom('listing_claims').select((eb) => eb.fn.countAll<number>().as('n')).where('caller', '=', caller).where('created_at', '>=', since).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findClaim(ex: Executor, claimHash: string): Promise<ClaimRow | undefined> {
  return q(ex).selectFrom('listing_claims').selectAll().where('claim_hash', '=', claimHash).executeTakeFirst();
}

/** Consumes a live claim; false when another verification consumed it first or it expired. */
export async function consumeClaim(trx: Executor, claimHash: string, now: string): Promise<boolean> {
  const res = await q(trx)
    .updateTable('listing_claims')
    .set({ consumed_at: now })
    .where('claim_hash', '=', claimHash)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Claims that expired before `before` are of no use to anyone: the sweep deletes them. */
export async function pruneClaims(trx: Executor, before: string): Promise<number> {
  const res = await q(trx).deleteFrom('listing_claims').where('expires_at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function ownerOf(ex: Executor, listingId: string): Promise<OwnerRow | undefined> {
  return q(ex).selectFrom('listing_owners').selectAll().where('listing_id', '=', listingId).executeTakeFirst();
}

export async function ownersOf(ex: Executor, listingIds: string[]): Promise<Map<string, OwnerRow>> {
  if (listingIds.length === 0) return new Map();
  const rows = await q(ex).selectFrom('listing_owners').selectAll().where('listing_id', 'in', listingIds).execute();
  return new Map(rows.map((r) => [r.listing_id, r]));
}

export async function ownerByTokenHash(ex: Executor, tokenHash: string): Promise<OwnerRow | undefined> {
  return q(ex).selectFrom('listing_owners').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * Makes `row` the listing's owner, replacing any earlier one (returned, so it can be told). The
 * caller holds the listing's row lock (lockListing), so two claims of one listing take turns.
 */
export async function setOwner(trx: Executor, row: OwnerRow): Promise<OwnerRow | undefined> {
  const before = await ownerOf(trx, row.listing_id);
  if (before) await q(trx).deleteFrom('listing_owners').where('listing_id', '=', row.listing_id).execute();
  await q(trx).insertInto('listing_owners').values(row).execute();
  return before;
}

export async function removeOwner(trx: Executor, listingId: string): Promise<void> {
  await q(trx).deleteFrom('listing_owners').where('listing_id', '=', listingId).execute();
}

/** The proof was found again: the claim holds until the next check. */
export async function markProofSeen(trx: Executor, listingId: string, now: string, nextCheckAt: string): Promise<void> {
  await q(trx).updateTable('listing_owners').set({ checked_at: now, next_check_at: nextCheckAt, missing_since: null }).where('listing_id', '=', listingId).execute();
}

/**
 * The proof was not found: it is looked for again at `nextCheckAt`, and once it has been missing
 * since `lapseBefore` or earlier the claim lapses. Returns whether it lapsed now.
 */
export async function markProofMissing(trx: Executor, listingId: string, now: string, nextCheckAt: string, lapseBefore: string): Promise<boolean> {
  await q(trx)
    .updateTable('listing_owners')
    .set((eb) => ({ missing_since: eb.fn.coalesce('missing_since', eb.val(now)), next_check_at: nextCheckAt }))
    .where('listing_id', '=', listingId)
    .where('lapsed_at', 'is', null)
    .execute();
  const lapsed = await q(trx)
    .updateTable('listing_owners')
    .set({ lapsed_at: now })
    .where('listing_id', '=', listingId)
    .where('lapsed_at', 'is', null)
    .where('missing_since', '<=', lapseBefore)
    .executeTakeFirst();
  return Number(lapsed.numUpdatedRows) === 1;
}

/** Owners whose proof is due to be looked for again, soonest first. */
export async function dueRechecks(ex: Executor, now: string, limit: number): Promise<OwnerRow[]> {
  return q(ex).selectFrom('listing_owners').selectAll().where('lapsed_at', 'is', null).where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit).execute();
}

export const CLAIM_METHODS: readonly ClaimMethod[] = ['well_known', 'dns_txt', 'card'];

/** Listings whose claim holds (not lapsed), for rules among owners (names no two owners share). */
export async function claimedListingIds(ex: Executor): Promise<string[]> {
  const rows = await q(ex).selectFrom('listing_owners').select('listing_id').where('lapsed_at', 'is', null).execute();
  return rows.map((r) => r.listing_id);
}
