// The owners domain's SQL: claims (a proof of control being made) and each listing's owner. A
// claim is consumed by one conditional UPDATE, so two verifications of one claim never both win;
// the owner row is one per listing, and a new claim replaces it (the old token stops at once).
import type { Executor } from '../platform/db/executor.ts';
import { ownerTables as q, type ClaimMethod, type ListingClaimsTable, type ListingOwnersTable, type ProofReadsTable } from './tables.ts';

export type { ClaimMethod } from './tables.ts';
export type ClaimRow = ListingClaimsTable;
export type OwnerRow = ListingOwnersTable;
export type ProofReadRow = ProofReadsTable;

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

/** Counts one verification of a live claim; false when it has had `max` already. */
export async function takeVerify(ex: Executor, claimHash: string, max: number): Promise<boolean> {
  const res = await q(ex)
    .updateTable('listing_claims')
    .set((eb) => ({ verifies: eb('verifies', '+', 1) }))
    .where('claim_hash', '=', claimHash)
    .where('verifies', '<', max)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Claims that expired before `before` are of no use to anyone, nor are place reads taken before it: the sweep deletes them. */
export async function pruneClaims(trx: Executor, before: string): Promise<number> {
  const res = await q(trx).deleteFrom('listing_claims').where('expires_at', '<', before).executeTakeFirst();
  await q(trx).deleteFrom('proof_reads').where('taken_at', '<', before).execute();
  return Number(res.numDeletedRows);
}

/**
 * Takes `place` for a read now, unless a read of it was taken since `windowStart` and, for a proof
 * made at `madeAt`, not before that proof existed (such a read serves this one): true when the
 * caller reads it. One conditional upsert, so of two instances asking at once one reads.
 */
export async function takePlace(ex: Executor, place: string, now: string, windowStart: string, madeAt?: string): Promise<boolean> {
  const row = await q(ex)
    .insertInto('proof_reads')
    .values({ place, taken_at: now, read_at: null, result: null })
    .onConflict((oc) =>
      oc
        .column('place')
        .doUpdateSet({ taken_at: now, read_at: null, result: null })
        .where((eb) => (madeAt === undefined ? eb('proof_reads.taken_at', '<=', windowStart) : eb.or([eb('proof_reads.taken_at', '<=', windowStart), eb('proof_reads.taken_at', '<', madeAt)]))),
    )
    .returning('place')
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores what the read of a place taken at `takenAt` found (a read of a later window is not overwritten). */
export async function savePlaceRead(ex: Executor, place: string, takenAt: string, readAt: string, result: string): Promise<void> {
  await q(ex).updateTable('proof_reads').set({ read_at: readAt, result }).where('place', '=', place).where('taken_at', '=', takenAt).execute();
}

export async function placeRead(ex: Executor, place: string): Promise<ProofReadRow | undefined> {
  return q(ex).selectFrom('proof_reads').selectAll().where('place', '=', place).executeTakeFirst();
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
  await q(trx).updateTable('listing_owners').set({ checked_at: now, next_check_at: nextCheckAt, missing_since: null, absent_since: null, absent_at: null }).where('listing_id', '=', listingId).execute();
}

/** A read answered without the proof (the place answered; a failed fetch is not this): counted toward a weaker claim taking over. */
export async function markProofAbsent(trx: Executor, listingId: string, now: string): Promise<void> {
  await q(trx)
    .updateTable('listing_owners')
    .set((eb) => ({ absent_since: eb.fn.coalesce('absent_since', eb.val(now)), absent_at: now }))
    .where('listing_id', '=', listingId)
    .where('lapsed_at', 'is', null)
    .execute();
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
/** The order methods are tried in when a verification names none: DNS first, as it costs the listed host nothing. */
export const TRY_ORDER: readonly ClaimMethod[] = ['dns_txt', 'well_known', 'card'];

/** Listings whose claim holds (not lapsed), for rules among owners (names no two owners share). */
export async function claimedListingIds(ex: Executor): Promise<string[]> {
  const rows = await q(ex).selectFrom('listing_owners').select('listing_id').where('lapsed_at', 'is', null).execute();
  return rows.map((r) => r.listing_id);
}
