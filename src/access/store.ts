// Access tokens: issued to a listing (a demo's scope, widened by a founding seat), resolved from
// a Bearer header or a `token`/`access_token` argument, revocable by the operator. A token is
// `rc_` + 32 random bytes (base64url); only its SHA-256 is stored, so a database read never
// yields a usable token. Unknown, malformed and revoked tokens are one answer: no hint whether a
// token exists.
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
  scope: TokenScope;
}

/** The one answer for every token that does not open anything (401, same words whatever the cause). */
export const invalidToken = (field = 'access_token') =>
  new AppError(401, 'invalid_token', 'the access token is not valid: it is unknown, malformed or revoked', field);

/** A valid token used for another listing than the one it opens (403: the token is real, the claim is not). */
export const tokenMismatch = (owner: string, named: string, field = 'listing_id') =>
  new AppError(403, 'token_mismatch', `the access token opens ${owner}, not ${named}: act as the listing whose token you hold`, field);

/**
 * Issues the listing's token, or widens its live one: a listing holds at most one live token.
 * Returns the token text only when a new one was made (it is never shown again).
 */
export async function issueToken(trx: Executor, listingId: string, scope: TokenScope, now: string, retried = false): Promise<{ grant: TokenGrant; token: string | null }> {
  const live = await q(trx).selectFrom('access_tokens').select(['id', 'listing_id', 'scope']).where('listing_id', '=', listingId).where('revoked_at', 'is', null).executeTakeFirst();
  if (live) {
    if (scope === 'full' && live.scope !== 'full') {
      await q(trx).updateTable('access_tokens').set({ scope: 'full', widened_at: now }).where('id', '=', live.id).execute();
      return { grant: { ...live, scope: 'full' }, token: null };
    }
    return { grant: live, token: null };
  }
  const token = `rc_${randomBytes(32).toString('base64url')}`;
  const grant: TokenGrant = { id: newId('tok'), listing_id: listingId, scope };
  // One live token per listing is a partial unique index (migration 0022): a concurrent issue for
  // the same listing waits for this one and then finds it (PostgreSQL), instead of making a second.
  const inserted = await q(trx)
    .insertInto('access_tokens')
    .values({ ...grant, hash: hashToken(token), created_at: now, widened_at: null, revoked_at: null })
    .onConflict((oc) => oc.column('listing_id').where('revoked_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    if (retried) throw new Error(`no live access token for ${listingId} after a conflicting issue`);
    return issueToken(trx, listingId, scope, now, true);
  }
  return { grant, token };
}

/** The grant a token opens, or undefined (unknown, malformed or revoked alike). */
export async function resolveToken(ex: Executor, token: string | undefined): Promise<TokenGrant | undefined> {
  if (!token || !TOKEN.test(token)) return undefined;
  return q(ex).selectFrom('access_tokens').select(['id', 'listing_id', 'scope']).where('hash', '=', hashToken(token)).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Like resolveToken, but a token that opens nothing is the 401 of invalidToken. */
export async function requireToken(ex: Executor, token: string | undefined, field = 'access_token'): Promise<TokenGrant> {
  const grant = await resolveToken(ex, token);
  if (!grant) throw invalidToken(field);
  return grant;
}

/** The listing's live token (id and scope, never the token), if any. */
export async function liveTokenOf(ex: Executor, listingId: string): Promise<TokenGrant | undefined> {
  return q(ex).selectFrom('access_tokens').select(['id', 'listing_id', 'scope']).where('listing_id', '=', listingId).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Whether a listing has a live token (its allowance is then spent only with that token). */
export async function listingHasToken(ex: Executor, listingId: string): Promise<boolean> {
  const row = await q(ex).selectFrom('access_tokens').select('id').where('listing_id', '=', listingId).where('revoked_at', 'is', null).executeTakeFirst();
  return row !== undefined;
}

/** Revokes a listing's live token (operator). Returns whether one was revoked. */
export async function revokeListingToken(ex: Executor, listingId: string, now: string): Promise<boolean> {
  const res = await q(ex).updateTable('access_tokens').set({ revoked_at: now }).where('listing_id', '=', listingId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
