// The feed domain's table: public events about listings and catalog remotes, appended by the domain where each
// happens (in the same transaction as the change it reports). Only files in src/feed/ may import
// this module. An event stores ids and whitelisted facts, never names or text: names are read from
// the listing (or the catalog server listing the remote) when the feed is served, scrubbed, so a
// renamed listing is never shown by an old name.
import type { Generated } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface FeedEventsTable {
  seq: Generated<number>;
  at: string;
  type: string; // listing.listed, listing.live, demo.taken, feedback.left, catalog.status_changed, ... (store.ts FEED_EVENTS)
  listing_id: string; // '' for an event about a catalog remote
  catalog_remote: string | null; // the lookup key of the catalog remote an event is about
  data: string; // JSON object of public facts (e.g. a rating), never free text
}

export type FeedTables = { feed_events: FeedEventsTable };

export const feedTables = (ex: Executor) => typed<FeedTables>(ex);
