// The stigmergy tools: endorsements (one counted per ordered pair per UTC day) and the
// per-day counters that bound trace deposits (per caller, per subject and channel, and the
// once-a-day automatic deposits).
import type { Kysely, Migration } from 'kysely';

export const m0016 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('trace_endorsements')
      .addColumn('from_listing_id', 'text', (c) => c.notNull())
      .addColumn('to_listing_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('depositor', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('trace_endorsements_pk', ['from_listing_id', 'to_listing_id', 'day'])
      .execute();
    await k.schema.createIndex('trace_endorsements_to').on('trace_endorsements').columns(['to_listing_id', 'day']).execute();

    await k.schema
      .createTable('trace_counters')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('trace_counters_pk', ['owner', 'day', 'scope'])
      .execute();
    await k.schema.createIndex('trace_counters_day').on('trace_counters').columns(['day']).execute();
  },
});
