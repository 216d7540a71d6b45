// Whose allowance a call spends (DESIGN.md "Caller identity", issue 12): a valid access token ->
// its listing; else an existing `listing_id`; else `agent_name`; else the client address. Nobody
// spends another's allowance by naming it: a listing that holds an access token is spent only
// with that token, and a free-form name is kept per client address (naming it elsewhere spends
// nothing of it) and bounded per address, so inventing names mints nothing.
import { createHash } from 'node:crypto';
import type { Executor } from '../platform/db/executor.ts';
import type { Ctx } from '../platform/operation.ts';
import { AppError } from '../platform/errors.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import { findListingById, findListingsByName } from '../listings/store.ts';
import { listingHasToken, requireToken } from '../access/store.ts';
import { utcDay } from './day.ts';
import { admitName } from './store.ts';

/** Free-form agent names one client address may use per UTC day; more fall back to the address. */
export const NAMES_PER_ADDRESS_PER_DAY = 5;

export interface Subject {
  /** The key allowances, grants and trace deposits are kept under. */
  key: string;
  kind: 'listing' | 'name' | 'address';
  /** The listing whose allowance this is (kind listing). */
  listing_id?: string;
  /** What to call the subject in answers (never the raw address). */
  label: string;
  /** Why this subject was chosen, when it is not what the caller named. */
  note?: string;
}

/** What a call may say about who it is. */
export interface Claims {
  access_token?: string;
  listing_id?: string;
  agent_name?: string;
}

export const addressHash = (address: string): string => createHash('sha256').update(`rollcall-caller:${address}`).digest('hex').slice(0, 20);

/** A listing's own subject (its allowance, grants and deposits), for read models that show a listing's day. */
export const listingSubject = (id: string): Subject => ({ key: `listing:${id}`, kind: 'listing', listing_id: id, label: id });

const addressSubject = (address: string, note?: string): Subject => {
  const hash = addressHash(address);
  return { key: `addr:${hash}`, kind: 'address', label: `address ${hash.slice(0, 8)}`, ...(note ? { note } : {}) };
};

export const tokenRequired = (listingId: string) =>
  new AppError(401, 'token_required', `listing ${listingId} holds an access token: its allowance is spent only with it (Authorization: Bearer <token> or access_token)`, 'access_token');

/**
 * Resolves the subject of a call. A token that opens nothing is a 401, never a silent fallback.
 * `record: false` (read-only tools that only show a caller its usage): a new free-form name is
 * not counted against the address's names of the day.
 */
export async function resolveSubject(ex: Executor, ctx: Ctx, claims: Claims, options: { record?: boolean } = {}): Promise<Subject> {
  const token = claims.access_token ?? ctx.caller.token;
  if (token !== undefined) {
    const grant = await requireToken(ex, token);
    return listingSubject(grant.listing_id);
  }
  if (claims.listing_id !== undefined) {
    const listing = await findListingById(ex, claims.listing_id);
    if (listing) {
      if (await listingHasToken(ex, listing.id)) throw tokenRequired(listing.id);
      return listingSubject(listing.id);
    }
  }
  const name = claims.agent_name === undefined ? '' : cleanText(claims.agent_name, MAX_NAME).toLowerCase();
  if (name !== '') {
    // A name that is exactly one listing's spends that listing's allowance, unless the listing has
    // a token; then the name is only a free-form name like any other.
    const named = await findListingsByName(ex, name, 2);
    if (named.length === 1 && !(await listingHasToken(ex, named[0]!.id))) return listingSubject(named[0]!.id);
    const address = addressHash(ctx.caller.address);
    if (await admitName(ex, address, utcDay(ctx.clock.now()), name, NAMES_PER_ADDRESS_PER_DAY, options.record ?? true)) {
      // Scoped to the address too: a name is no secret, so a shared key would let anyone spend it.
      return { key: `name:${address}:${name}`, kind: 'name', label: name };
    }
    return addressSubject(ctx.caller.address, `more than ${NAMES_PER_ADDRESS_PER_DAY} agent names from one address today: this call spends the address's allowance`);
  }
  return addressSubject(ctx.caller.address);
}
