// Owners for tests that need a listing's owner but test something else: the owner row written
// through the owners domain, as a verified claim leaves it, with a fresh owner token. The claim
// flow itself (claim_listing, the proof, verify_claim) is tested through the real doors in
// test/claims.test.ts.
import type { App } from '../../src/app.ts';
import { inTransaction } from '../../src/platform/db/executor.ts';
import { ownerDomain } from '../../src/platform/net/host-key.ts';
import { findListingById, updateListing } from '../../src/listings/store.ts';
import { setOwner, type ClaimMethod } from '../../src/owners/store.ts';
import { newOwnerToken, newProof, sha256 } from '../../src/owners/tokens.ts';
import { newId } from '../../src/platform/ids.ts';

/** Makes the caller of the returned token the listing's owner (claimed now, proof seen now); returns the owner token. */
export async function ownListing(app: App, listingId: string, options: { method?: ClaimMethod } = {}): Promise<string> {
  const token = newOwnerToken();
  const now = app.services.clock.now();
  const at = now.toISOString();
  await inTransaction(app.services.db.kysely, async (trx) => {
    const row = await findListingById(trx, listingId);
    if (!row) throw new Error(`no listing ${listingId}`);
    await setOwner(trx, {
      listing_id: listingId,
      token_hash: sha256(token),
      token_id: newId('own'),
      method: options.method ?? 'well_known',
      owner_domain: ownerDomain(row.url),
      proof: newProof(),
      claimed_at: at,
      checked_at: at,
      next_check_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
      missing_since: null,
      lapsed_at: null,
    });
    await updateListing(trx, listingId, {}, at);
  });
  return token;
}

/** The Authorization header an owner sends. */
export const asOwner = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
