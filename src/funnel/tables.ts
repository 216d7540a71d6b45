// The funnel domain's tables: where each listing stands in demo -> feedback -> founding seat, the
// demos taken, the 100 founding seats (and the counter row that numbers them), the 25% codes, the
// feedback the payments gate counts, and co-signs between founders. Only src/funnel/ may import
// this module.
import { typed, type Executor } from '../platform/db/executor.ts';
import type { Flag } from '../platform/db/flag.ts';

export interface FunnelStateTable {
  listing_id: string;
  demoed: Flag;
  feedbacked: Flag;
  founding_verified: Flag;
  updated_at: string;
}

/** A listing's first demo: what it built (a repeat demo serves these again). */
export interface FunnelDemosTable {
  listing_id: string;
  holder: string; // who took it (metering subject key): a demo is its caller's, never the listing's unless its owner took it
  sku: string; // alive | mcp_mesh
  kernel_id: string | null; // alive: the kernel version the demo stored
  composition_id: string | null; // mcp_mesh: the composition the demo stored
  token_id: string | null; // the access token issued (or found) at the demo
  created_at: string;
}

/** One row, name 'seats': how many founding seats are taken (CHECK 0..100). */
export interface FoundingCounterTable {
  name: string;
  taken: number;
}

export interface FoundingSeatsTable {
  seat: number; // 1..100 (primary key, CHECK)
  listing_id: string; // unique: one seat per listing
  feedback_id: string; // the real feedback that took it
  token_id: string; // the access token it widened or issued
  owner_domain: string | null; // unique: one seat per owner domain (null only for seats granted before ownership)
  owner_group: string | null; // the owner domain's group (platform/net/host-key.ts ownerGroup): a few seats and codes per group
  created_at: string;
}

export interface DiscountCodesTable {
  code_hash: string; // SHA-256 of the code (the code is shown once)
  listing_id: string; // unique: one code per listing
  hint: string; // the code with its middle masked, safe to show again
  percent_off: number;
  feedback_id: string;
  owner_domain: string | null; // unique: one code per owner domain (null only for codes issued before ownership)
  owner_group: string | null; // the owner domain's group: a few seats and codes per group
  created_at: string;
  redeemed_at: string | null;
  revoked_at: string | null; // the text stopped when the listing's owner changed; the next owner's feedback gets a new one
}

/** Real feedback by the listing's kind; the payments gate counts the owner domains of claimed listings among it. */
export interface FunnelFeedbackTable {
  feedback_id: string;
  kind: string; // agent | mcp
  listing_id: string | null;
  owner_domain: string | null; // set when the feedback came with the listing's owner token
  owner_group: string | null; // that owner domain's group: the payments gate counts a few domains per group
  created_at: string;
}

export interface FoundingCosignsTable {
  listing_id: string; // the founder who co-signs
  partner_listing_id: string; // the founder co-signed
  body: string; // untrusted text, cleaned and capped
  created_at: string;
}

export interface FunnelTables {
  funnel_state: FunnelStateTable;
  funnel_demos: FunnelDemosTable;
  founding_counter: FoundingCounterTable;
  founding_seats: FoundingSeatsTable;
  discount_codes: DiscountCodesTable;
  funnel_feedback: FunnelFeedbackTable;
  founding_cosigns: FoundingCosignsTable;
}

export const funnelTables = (ex: Executor) => typed<FunnelTables>(ex);
