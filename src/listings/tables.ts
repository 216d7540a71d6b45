// The listings domain's tables. Only files in src/listings/ may import this module
// (.dependency-cruiser.cjs), so only they can query these tables.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export type Lane = 'queued' | 'probing' | 'active' | 'failed' | 'dormant';

export interface ListingsTable {
  id: string;
  url: string; // normalized submitted URL: the listing's unique key
  kind: 'agent' | 'mcp';
  // What the listing says of itself (its card or handshake, written by the probe through this domain).
  name: string;
  description: string;
  website: string | null;
  category_id: string;
  capabilities: string | null; // JSON {names, items}: what capability_hash and search cover
  // What the publisher said; contact_email is kept from the first publish and never shown publicly.
  submitted_name: string | null;
  contact_email: string | null;
  source: string | null;
  // What the listing's owner set (update_listing): shown instead of the card's name, description and website.
  owner_name: string | null;
  owner_description: string | null;
  owner_website: string | null;
  // The key (name-key.ts) of the name it would show (owner_name, else name), and the card's name when
  // it is withheld because another claimed listing, or Rollcall, holds that key (the host is shown).
  name_key: string;
  name_withheld: string | null;
  unlisted_at: string | null; // its owner took it off every public list (it is still probed, and relisted at will)
  deleted_at: string | null; // its owner deleted it: a tombstone that keeps the URL from being listed again for a while
  // Lifecycle.
  lane: Lane;
  lane_reason: string | null;
  live_since: string | null; // first time the listing went Live: talk grace starts here
  duplicate_of: string | null; // the listing that already owns this one's endpoint (lane failed)
  // The active list's order: the sum of the parts other domains set (see store.ts updateListing).
  rank: number;
  rank_parts: string; // JSON {part: value}
  created_at: string;
  updated_at: string;
}

export interface ActiveSnapshotsTable {
  seq: number;
  agent_ids: string; // JSON array, active-list order
  mcp_ids: string;
  created_at: string;
}

/** Every spelling that reaches a listing (identity.ts endpointKey), pointing at the listing. */
export interface ListingAliasesTable {
  key: string;
  listing_id: string;
  created_at: string;
}

/** The names claimed listings hold (name-key.ts keys): each key is held by one listing, each listing holds one. */
export interface ListingNamesTable {
  name_key: string;
  listing_id: string;
  created_at: string;
}

export interface ListingTables {
  listings: ListingsTable;
  listing_names: ListingNamesTable;
  listing_aliases: ListingAliasesTable;
  active_snapshots: ActiveSnapshotsTable;
}

export const listingTables = (ex: Executor) => typed<ListingTables>(ex);
