// Owners for tests that need a listing's owner but test something else: the owner row written
// through the owners domain, as a verified claim leaves it, with a fresh owner token, and the proof
// really in place where a grant reads it again: a TXT record in the test DNS server every test app
// asks (helpers/app.ts), for a listing on a named host (a dns_txt claim). The claim flow itself
// (claim_listing, the proof, verify_claim) is tested through the real doors in test/claims.test.ts.
import type { App } from '../../src/app.ts';
import { inTransaction } from '../../src/platform/db/executor.ts';
import { ownerDomain } from '../../src/platform/net/host-key.ts';
import { findListingById, updateListing } from '../../src/listings/store.ts';
import { setOwner, type ClaimMethod } from '../../src/owners/store.ts';
import { newOwnerToken, newProof, sha256 } from '../../src/owners/tokens.ts';
import { newId } from '../../src/platform/ids.ts';
import { claimDnsName } from '../../src/registry/claim-proof.ts';
import { putTxt } from './app.ts';
import type { ClaimSpots } from '../peers/claim-spots.ts';

/**
 * Makes the caller of the returned token the listing's owner (claimed `heldForDays` ago, 30 by
 * default: an established owner, whose marks move rank; proof seen now); returns the owner token.
 * The method is dns_txt with its record in place on a named host, else well_known with the proof
 * added to `file` (a peer's claim spots) when given, or `method`.
 */
export async function ownListing(app: App, listingId: string, options: { method?: ClaimMethod; heldForDays?: number; file?: ClaimSpots } = {}): Promise<string> {
  const token = newOwnerToken();
  const now = app.services.clock.now();
  const at = now.toISOString();
  const proof = newProof();
  await inTransaction(app.services.db.kysely, async (trx) => {
    const row = await findListingById(trx, listingId);
    if (!row) throw new Error(`no listing ${listingId}`);
    const dnsName = claimDnsName(row.url);
    const method = options.method ?? (dnsName ? 'dns_txt' : 'well_known');
    if (method === 'dns_txt' && dnsName) await putTxt(dnsName, proof);
    if (method === 'well_known' && options.file) options.file.file = `${options.file.file ?? ''}${proof}\n`;
    await setOwner(trx, {
      listing_id: listingId,
      token_hash: sha256(token),
      token_id: newId('own'),
      method,
      owner_domain: ownerDomain(row.url),
      proof,
      claimed_at: new Date(now.getTime() - (options.heldForDays ?? 30) * 86_400_000).toISOString(),
      checked_at: at,
      next_check_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
      missing_since: null,
      absent_since: null,
      absent_at: null,
      changed_at: null,
      lapsed_at: null,
    });
    await updateListing(trx, listingId, {}, at);
  });
  return token;
}

/** The Authorization header an owner sends. */
export const asOwner = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
