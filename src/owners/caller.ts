// Who a call acts for (DESIGN.md "Caller identity", "Tokens"): an owner token, sent only as
// `Authorization: Bearer rco_...`, acts for its listing while the claim holds. Any other Bearer,
// an unknown or replaced token and a lapsed claim get one answer (401 invalid_owner_token: on MCP
// an isError result, since an HTTP 401 sends MCP clients into OAuth discovery); a valid token used
// for another listing is a 403. The token is resolved once per request.
import type { Executor } from '../platform/db/executor.ts';
import type { Caller, Ctx } from '../platform/operation.ts';
import { AppError } from '../platform/errors.ts';
import { nextStep } from '../platform/next-step.ts';
import { ownerByTokenHash, type ClaimMethod } from './store.ts';
import { isOwnerTokenShape, sha256 } from './tokens.ts';

export interface Owner {
  listing_id: string;
  owner_domain: string;
  method: ClaimMethod;
  token_id: string;
  claimed_at: string;
}

export const invalidOwnerToken = () =>
  new AppError(
    401,
    'invalid_owner_token',
    'the owner token is not valid: it is unknown, malformed or replaced, or its claim lapsed. Prove control again with claim_listing and verify_claim for a new one.',
    'authorization',
  );

export const ownerTokenRequired = (listingId: string, what = 'this') =>
  new AppError(
    401,
    'owner_token_required',
    `${what} acts for listing ${listingId} and needs its owner token (Authorization: Bearer rco_...). Prove control of the listing with claim_listing, then verify_claim gives the token.`,
    'authorization',
    { needs: ['owner_token'], next_step: nextStep('claim_listing', { listing_id: listingId }, 'Prove you control the listing; verify_claim then answers its owner token.') },
  );

export const ownerTokenMismatch = (owned: string, named: string, field = 'listing_id') =>
  new AppError(403, 'token_mismatch', `your owner token acts for ${owned}, not ${named}: a listing is acted for only with its own owner token`, field);

/** The owner a token acts for, or undefined (unknown, malformed, replaced or lapsed alike). */
export async function ownerFromToken(ex: Executor, token: string): Promise<Owner | undefined> {
  if (!isOwnerTokenShape(token)) return undefined;
  const row = await ownerByTokenHash(ex, sha256(token));
  if (!row || row.lapsed_at !== null) return undefined;
  return { listing_id: row.listing_id, owner_domain: row.owner_domain, method: row.method, token_id: row.token_id, claimed_at: row.claimed_at };
}

const resolved = new WeakMap<Caller, Promise<Owner | undefined>>();

/**
 * The owner the call's Bearer acts for; undefined without a Bearer; the 401 for a Bearer that acts
 * for nothing. Resolved once per request (the caller object is the request's).
 */
export async function callerOwner(ctx: Pick<Ctx, 'caller' | 'db'>): Promise<Owner | undefined> {
  const bearer = ctx.caller.bearer;
  if (bearer === undefined) return undefined;
  let owner = resolved.get(ctx.caller);
  if (!owner) {
    owner = ownerFromToken(ctx.db.kysely, bearer);
    resolved.set(ctx.caller, owner);
  }
  const found = await owner;
  if (!found) throw invalidOwnerToken();
  return found;
}

/** The owner of `listingId` making this call, or the 401/403 that says what is missing. */
export async function requireOwner(ctx: Pick<Ctx, 'caller' | 'db'>, listingId: string, what?: string, field = 'listing_id'): Promise<Owner> {
  const owner = await callerOwner(ctx);
  if (!owner) throw ownerTokenRequired(listingId, what);
  if (owner.listing_id !== listingId) throw ownerTokenMismatch(owner.listing_id, listingId, field);
  return owner;
}

/** The owner making this call, naming none: the 401 that says a listing's owner token is needed. */
export async function requireAnyOwner(ctx: Pick<Ctx, 'caller' | 'db'>, what: string): Promise<Owner> {
  const owner = await callerOwner(ctx);
  if (owner) return owner;
  throw new AppError(401, 'owner_token_required', `${what} acts for your listing and needs its owner token (Authorization: Bearer rco_...). Prove control of your listing with claim_listing, then verify_claim gives the token.`, 'authorization', {
    needs: ['owner_token'],
  });
}

/** Whether the call carries the owner token of `listingId` (a wrong Bearer is still the 401). */
export async function actsFor(ctx: Pick<Ctx, 'caller' | 'db'>, listingId: string): Promise<boolean> {
  const owner = await callerOwner(ctx);
  return owner !== undefined && owner.listing_id === listingId;
}
