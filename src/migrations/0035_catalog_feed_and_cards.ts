// The public feed announces catalog remotes too: an event names either a listing or a catalog
// remote (by its lookup key; listing_id is '' then). And a catalog check keeps the MCP server card
// a live remote serves at its reserved place.
import type { Kysely, Migration } from 'kysely';

export const m0035 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema.alterTable('feed_events').addColumn('catalog_remote', 'text').execute();
    // A page of one kind (about=listings, about=catalog) reads its events in order without the other's.
    await k.schema.createIndex('feed_events_subject').on('feed_events').columns(['catalog_remote', 'seq']).execute();
    await k.schema.alterTable('catalog_checks').addColumn('server_card', 'text').execute();
  },
});
