// Who acts in a collab call: a listing (collab sessions are between listings), acting with its
// owner token (Authorization: Bearer rco_...). Checked before anything is metered, so a refused
// caller spends nothing.
import type { Ctx } from '../platform/operation.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { findListingById, type ListingRow } from '../listings/store.ts';
import { requireToken, type TokenScope } from '../access/store.ts';
import { listingSubject, type Subject } from '../metering/caller.ts';
import { callerOwner, ownerTokenMismatch, ownerTokenRequired } from '../owners/caller.ts';

export interface Actor {
  listing: ListingRow;
  subject: Subject;
  /** The scope of the access token the call carried, if any. */
  token_scope?: TokenScope;
}

export interface ActorClaims {
  listing_id?: string;
  /** A product access token (rc_...): a full one buys market products free. It never acts for a listing. */
  access_token?: string;
}

const LISTINGS_ONLY = 'collab sessions are between listings: act for yours with its owner token (Authorization: Bearer rco_...; claim_listing proves control)';

export async function actingListing(ctx: Ctx, claims: ActorClaims, field = 'listing_id'): Promise<Actor> {
  const ex = ctx.db.kysely;
  const owner = await callerOwner(ctx);
  if (!owner) {
    if (claims.listing_id === undefined) throw badRequest('listing_required', LISTINGS_ONLY, field);
    if (!(await findListingById(ex, claims.listing_id))) throw notFound(`no listing with ${field} ${JSON.stringify(claims.listing_id)}`, field);
    throw ownerTokenRequired(claims.listing_id, 'a collab call');
  }
  if (claims.listing_id !== undefined && claims.listing_id !== owner.listing_id) throw ownerTokenMismatch(owner.listing_id, claims.listing_id, field);
  const listing = await findListingById(ex, owner.listing_id);
  if (!listing) throw notFound(`no listing with ${field} ${JSON.stringify(owner.listing_id)}`, field);
  // A product token that opens nothing is the one 401 (never a silent fallback); one of another listing opens nothing here.
  const grant = claims.access_token !== undefined ? await requireToken(ex, claims.access_token) : undefined;
  const scope = grant && grant.listing_id === listing.id ? grant.scope : undefined;
  return { listing, subject: listingSubject(listing.id, owner.owner_domain), ...(scope ? { token_scope: scope } : {}) };
}

/** The claims a metered collab call passes to metered(): the actor's own listing. */
export const meterClaims = (actor: Actor, input: { payment_proof?: string }) => ({
  listing_id: actor.listing.id,
  payment_proof: input.payment_proof,
});
