// Product access tokens (SPEC.md 5.2): each opens one listing's product artifacts for its holder,
// the caller who took the listing's demo (scope demo) or the listing's owner (widened to full by a
// founding seat). They travel as the `token` query or the `access_token` argument and never act
// for a listing (owner tokens do that: src/owners). A token is `rc_` + 32 random bytes
// (base64url); only its SHA-256 is stored, so a database read never yields a usable token.
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
 * Issues the holder's token for a listing, or widens its live one: a holder holds at most one live
 * token per listing. Returns the token text only when a new one was made (it is never shown again).
 */
export async function issueToken(trx: Executor, listingId: string, holder: string, scope: TokenScope, now: string, retried = false): Promise<{ grant: TokenGrant; token: string | null }> {
  const live = await q(trx).selectFrom('access_tokens').select(GRANT).where('listing_id', '=', listingId).where('holder', '=', holder).where('revoked_at', 'is', null).executeTakeFirst();
  if (live) {
    if (scope === 'full' && live.scope !== 'full') {
      await q(trx).updateTable('access_tokens').set({ scope: 'full', widened_at: now }).where('id', '=', live.id).execute();
      return { grant: { ...live, scope: 'full' }, token: null };
    }
    return { grant: live, token: null };
  }
  const token = `rc_${randomBytes(32).toString('base64url')}`;
  const grant: TokenGrant = { id: newId('tok'), listing_id: listingId, holder, scope };
  // One live token per listing and holder is a partial unique index: a concurrent issue for the
  // same pair waits for this one and then finds it (PostgreSQL), instead of making a second.
  const inserted = await q(trx)
    .insertInto('access_tokens')
    .values({ ...grant, hash: hashToken(token), created_at: now, widened_at: null, revoked_at: null })
    .onConflict((oc) => oc.columns(['listing_id', 'holder']).where('revoked_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    if (retried) throw new Error(`no live access token for ${listingId} after a conflicting issue`);
    return issueToken(trx, listingId, holder, scope, now, true);
  }
  return { grant, token };
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
