// Who acts in a collab call: a listing (collab sessions are between listings). The caller names
// its listing (listing_id) or sends its access token; metering's resolveSubject enforces the token
// rule (a listing that holds a token acts only with it). Checked before anything is metered, so a
// refused caller spends nothing.
import type { Ctx } from '../platform/operation.ts';
import { AppError, badRequest, notFound } from '../platform/errors.ts';
import { findListingById, type ListingRow } from '../listings/store.ts';
import { resolveToken, type TokenScope } from '../access/store.ts';
import { resolveSubject, type Subject } from '../metering/caller.ts';

export interface Actor {
  listing: ListingRow;
  subject: Subject;
  /** The scope of the access token the call carried, if any. */
  token_scope?: TokenScope;
}

export interface ActorClaims {
  listing_id?: string;
  access_token?: string;
}

export async function actingListing(ctx: Ctx, claims: ActorClaims, field = 'listing_id'): Promise<Actor> {
  const ex = ctx.db.kysely;
  const token = claims.access_token ?? ctx.caller.token;
  if (token === undefined) {
    if (claims.listing_id === undefined) throw badRequest('listing_required', 'collab sessions are between listings: pass your listing_id (or your access token)', field);
    if (!(await findListingById(ex, claims.listing_id))) throw notFound(`no listing with ${field} ${JSON.stringify(claims.listing_id)}`, field);
  }
  const subject = await resolveSubject(ex, ctx, { access_token: claims.access_token, listing_id: claims.listing_id });
  if (subject.kind !== 'listing' || subject.listing_id === undefined) throw badRequest('listing_required', 'collab sessions are between listings: pass your listing_id (or your access token)', field);
  if (claims.listing_id !== undefined && claims.listing_id !== subject.listing_id) {
    throw new AppError(403, 'not_your_listing', `the access token opens listing ${subject.listing_id}, not ${claims.listing_id}`, field);
  }
  const listing = await findListingById(ex, subject.listing_id);
  if (!listing) throw notFound(`no listing with ${field} ${JSON.stringify(subject.listing_id)}`, field);
  const grant = token !== undefined ? await resolveToken(ex, token) : undefined;
  return { listing, subject, ...(grant ? { token_scope: grant.scope } : {}) };
}

/** The claims a metered collab call passes to metered(): the actor's own listing. */
export const meterClaims = (actor: Actor, input: { access_token?: string; payment_proof?: string }) => ({
  access_token: input.access_token,
  listing_id: actor.listing.id,
  payment_proof: input.payment_proof,
});
