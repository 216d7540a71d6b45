// One server, one listing: every spelling that reaches a listing (its URL without trailing
// slashes, the card location, the endpoint its probe talked to) is an alias that points at it, so
// a second publish finds the first listing and a probe that reaches another listing's endpoint
// marks its own listing a duplicate. Existing listings get their URL's alias (the oldest wins when
// two spellings were already listed; the other is found by its exact URL as before).
import type { Kysely, Migration } from 'kysely';

/** listings/identity.ts endpointKey as it was when this migration was written (history stays fixed). */
function endpointKey(url: string): string {
  const u = new URL(url);
  u.pathname = u.pathname.replace(/\/+$/, '') || '/';
  return u.toString();
}

export const m0006 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('listing_aliases')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('listing_aliases_listing').on('listing_aliases').column('listing_id').execute();
    await k.schema.alterTable('listings').addColumn('duplicate_of', 'text').execute();
    const rows = await k.selectFrom('listings').select(['id', 'url', 'created_at']).orderBy('created_at').orderBy('id').execute();
    const seen = new Set<string>();
    for (const r of rows) {
      const key = endpointKey(r.url);
      if (seen.has(key)) continue;
      seen.add(key);
      await k.insertInto('listing_aliases').values({ key, listing_id: r.id, created_at: r.created_at }).execute();
    }
  },
});
