// The owners domain's tables: proofs of control being made (claims) and each listing's current
// owner. Only files in src/owners/ may import this module.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export type ClaimMethod = 'well_known' | 'dns_txt' | 'card';

export interface ListingClaimsTable {
  claim_hash: string; // hex SHA-256 of the claim id: the id is a secret of whoever asked
  listing_id: string | null; // null: the URL is not listed yet; it is listed when the claim succeeds
  url: string; // the normalized URL the claim is for
  kind: 'agent' | 'mcp'; // the kind guess for a URL listed by its claim
  proof: string; // rollcall-claim=<43 base64url chars>
  caller: string; // hashed address of who asked (bounds claims per caller and day)
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  verifies: number; // verify_claim calls made with it (at most VERIFIES_PER_CLAIM)
}

export interface ListingOwnersTable {
  listing_id: string;
  token_hash: string; // hex SHA-256 of the owner token (rco_...)
  token_id: string; // own_..., safe to show and log
  method: ClaimMethod;
  owner_domain: string; // platform/net/host-key.ts ownerDomain of the listing's URL
  proof: string; // the proof the owner placed: re-checked weekly and before a seat
  claimed_at: string;
  checked_at: string; // the last time the proof was found
  next_check_at: string; // when the proof is looked for again (weekly; daily while it is missing)
  missing_since: string | null; // first failed re-check since it was last found
  absent_since: string | null; // first read since it was last found that answered without the proof (a failed fetch is not one)
  absent_at: string | null; // the latest such read: two of them 24 hours apart let a weaker claim take the listing
  changed_at: string | null; // when this claim replaced an earlier owner (shown for 30 days); null for a listing's first owner
  lapsed_at: string | null; // the proof stayed missing too long: the owner's powers wait for a new claim
}

/**
 * The latest read of one place a proof can be (a claim file, a DNS name, a card), shared by every
 * claimant asking within its window: a place is fetched for claims at most once per window.
 */
export interface ProofReadsTable {
  place: string; // `<method> <where>`
  taken_at: string; // when the window's read started (the fetcher took the place)
  read_at: string | null; // when it finished; null while it is under way
  result: string | null; // JSON PlaceRead: the proofs found there, or why none could be read
}

export type OwnerTables = { listing_claims: ListingClaimsTable; listing_owners: ListingOwnersTable; proof_reads: ProofReadsTable };

export const ownerTables = (ex: Executor) => typed<OwnerTables>(ex);
