// An owner change ends every power the previous owner had, in the transaction that changes the
// owner (a new claim verified, a claim lapsing, the listing deleted): its owner token stops with
// its row (replaced, lapsed or removed by the caller), and here its product tokens are revoked,
// its code's text stops, its bound signing key is unbound, and its demo is forgotten, so the next
// owner's first demo is a first demo. What the listing holds (its seat, its code, its badge, its
// inbox) stays with the listing, for its next owner to ask for afresh. A claimed listing's name is
// protected while the claim holds (listings/store/listing-names.ts).
import type { Executor } from '../platform/db/executor.ts';
import { revokeHolderTokens } from '../access/store.ts';
import { forgetDemo } from '../funnel/demos.ts';
import { revokeCode } from '../funnel/founding.ts';
import { ownerHolder } from '../funnel/grant.ts';
import { removeBinding } from '../identity/store.ts';
import type { Config } from '../config.ts';
import { findListingById, protectName, releaseName, updateListing } from '../listings/store.ts';
import { reservedNames } from '../listings/name-key.ts';

export async function endOwnerPowers(trx: Executor, listingId: string, now: string): Promise<void> {
  const holder = ownerHolder(listingId);
  await revokeHolderTokens(trx, listingId, holder, now);
  await revokeCode(trx, listingId, now);
  await removeBinding(trx, listingId);
  await forgetDemo(trx, listingId, holder);
}

/**
 * A listing just claimed protects the name it shows. When another claimed listing holds that name
 * (or it is Rollcall's), a display name an earlier owner set goes, and a card name is withheld
 * (the listing shows its host): the earlier claim keeps its name.
 */
export async function protectClaimedName(trx: Executor, listingId: string, config: Pick<Config, 'operatorName'>, now: string): Promise<void> {
  const reserved = reservedNames(config);
  if ((await protectName(trx, listingId, reserved, now)) === 'held') return;
  const row = await findListingById(trx, listingId);
  if (row?.owner_name) {
    await updateListing(trx, listingId, { owner_name: null }, now);
    if ((await protectName(trx, listingId, reserved, now)) === 'held') return;
  }
  const card = await findListingById(trx, listingId);
  if (card && card.name_withheld === null) await updateListing(trx, listingId, { name_withheld: card.name }, now);
}

/** A listing whose claim ended (lapsed, or deleted) ends its owner's powers and holds no name. */
export async function endClaim(trx: Executor, listingId: string, now: string): Promise<void> {
  await endOwnerPowers(trx, listingId, now);
  await releaseName(trx, listingId, now);
}
