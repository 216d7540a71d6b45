// The public feed gets its own table of events (listed, live; demos, feedback and others follow),
// rather than the change feed, which is pruned after CHANGES_KEEP_H and says only "changed".
// Existing listings are backfilled: a listed event at creation and a live event at live_since.
import type { Kysely, Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';

export const m0009 = (db: Db): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('feed_events')
      .addColumn('seq', db.serialType, (c) => (db.engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .execute();
    const rows = await k.selectFrom('listings').select(['id', 'created_at', 'live_since']).execute();
    const events = rows.flatMap((r) => [
      { at: r.created_at as string, type: 'listing.listed', listing_id: r.id as string, data: '{}' },
      ...(r.live_since ? [{ at: r.live_since as string, type: 'listing.live', listing_id: r.id as string, data: '{}' }] : []),
    ]);
    events.sort((a, b) => a.at.localeCompare(b.at));
    for (let i = 0; i < events.length; i += 500) await k.insertInto('feed_events').values(events.slice(i, i + 500)).execute();
  },
});
