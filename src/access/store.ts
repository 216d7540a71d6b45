// Product access tokens (SPEC.md 5.2): each opens one listing's product artifacts for its holder,
// the caller who took the listing's demo (scope demo) or the listing's owner (a demo token, or a
// full one for a founding seat). They travel as the `token` query or the `access_token` argument
// and never act for a listing (owner tokens do that: src/owners). A token is `rc_` + 32 random
// bytes (base64url); only its SHA-256 is stored, so a database read never yields a usable token.
// A token is never widened: a grant of more is a new token, shown once, and the holder's earlier
// one is revoked. An owner's token records the claim it was issued under, and goes with it.
// Unknown, malformed and revoked tokens are one answer: no hint whether a token exists.
import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { AppError } from '../platform/errors.ts';
import { accessTables as q, type TokenScope } from './tables.ts';

export type { TokenScope } from './tables.ts';

const TOKEN = /^rc_[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface TokenGrant {
  id: string;
  listing_id: string;
  /** Who holds it (a metering subject key): whose work its artifacts are. */
  holder: string;
  scope: TokenScope;
}

const GRANT = ['id', 'listing_id', 'holder', 'scope'] as const;

/** The one answer for every token that does not open anything (401, same words whatever the cause). */
export const invalidToken = (field = 'access_token') =>
  new AppError(401, 'invalid_token', 'the access token is not valid: it is unknown, malformed or revoked', field);

/** A valid token used for another listing than the one it opens (403: the token is real, the claim is not). */
export const tokenMismatch = (opens: string, named: string, field = 'listing_id') =>
  new AppError(403, 'token_mismatch', `the access token opens ${opens}, not ${named}`, field);

/**
 * The holder's token for a listing with at least `scope`: its live one when that opens as much
 * (token null: it was shown when issued), else a new one (its text returned, shown once), which
 * revokes the holder's earlier token. `claimId`: the owner claim (owner token id) an owner's
 * token is issued under; null for anyone else's.
 */
export async function issueToken(trx: Executor, listingId: string, holder: string, scope: TokenScope, now: string, claimId: string | null): Promise<{ grant: TokenGrant; token: string | null }> {
  const live = await liveTokenOf(trx, listingId, holder);
  if (live && (live.scope === 'full' || scope === 'demo')) return { grant: live, token: null };
  return reissueToken(trx, listingId, holder, scope, now, claimId);
}

/**
 * A new token for the holder (its text, shown once), revoking the holder's live one for the
 * listing. Callers hold the listing's row lock, so grants for one listing take turns; the partial
 * unique index (one live token per listing and holder) is the second guard, and a grant that
 * meets a concurrent one is refused rather than revoking a token just shown to someone.
 */
export async function reissueToken(trx: Executor, listingId: string, holder: string, scope: TokenScope, now: string, claimId: string | null): Promise<{ grant: TokenGrant; token: string }> {
  await revokeHolderTokens(trx, listingId, holder, now);
  const token = `rc_${randomBytes(32).toString('base64url')}`;
  const grant: TokenGrant = { id: newId('tok'), listing_id: listingId, holder, scope };
  const inserted = await q(trx)
    .insertInto('access_tokens')
    .values({ ...grant, hash: hashToken(token), claim_id: claimId, created_at: now, widened_at: null, revoked_at: null })
    .onConflict((oc) => oc.columns(['listing_id', 'holder']).where('revoked_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw new AppError(409, 'conflict', `another grant of a product token for ${listingId} ran at the same moment: ask again`, 'listing_id');
  return { grant, token };
}

/** Revokes the holder's live tokens for a listing; returns whether one was revoked. */
export async function revokeHolderTokens(ex: Executor, listingId: string, holder: string, now: string): Promise<boolean> {
  const res = await q(ex).updateTable('access_tokens').set({ revoked_at: now }).where('listing_id', '=', listingId).where('holder', '=', holder).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The grant a token opens, or undefined (unknown, malformed or revoked alike). */
export async function resolveToken(ex: Executor, token: string | undefined): Promise<TokenGrant | undefined> {
  if (!token || !TOKEN.test(token)) return undefined;
  return q(ex).selectFrom('access_tokens').select(GRANT).where('hash', '=', hashToken(token)).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Like resolveToken, but a token that opens nothing is the 401 of invalidToken. */
export async function requireToken(ex: Executor, token: string | undefined, field = 'access_token'): Promise<TokenGrant> {
  const grant = await resolveToken(ex, token);
  if (!grant) throw invalidToken(field);
  return grant;
}

/** The holder's live token for a listing (id and scope, never the token), if any. */
export async function liveTokenOf(ex: Executor, listingId: string, holder: string): Promise<TokenGrant | undefined> {
  return q(ex).selectFrom('access_tokens').select(GRANT).where('listing_id', '=', listingId).where('holder', '=', holder).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Revokes every live token of a listing (operator, or the listing deleted). Returns whether one was revoked. */
export async function revokeListingToken(ex: Executor, listingId: string, now: string): Promise<boolean> {
  const res = await q(ex).updateTable('access_tokens').set({ revoked_at: now }).where('listing_id', '=', listingId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
