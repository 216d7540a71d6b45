// Outcomes reported with deposit_outcome (SPEC.md 2.7), for network value and loop ticks.
import type { Kysely, Migration } from 'kysely';

export const m0013 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('trace_outcomes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('listing_id', 'text')
      .addColumn('ok', 'integer', (c) => c.notNull())
      .addColumn('quality', 'double precision', (c) => c.notNull())
      .addColumn('body', 'text')
      .addColumn('from_label', 'text')
      .addColumn('depositor', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('trace_outcomes_depositor').on('trace_outcomes').columns(['depositor', 'at']).execute();
    await k.schema.createIndex('trace_outcomes_listing').on('trace_outcomes').columns(['listing_id', 'at']).execute();
    await k.schema.createIndex('trace_outcomes_at').on('trace_outcomes').columns(['at']).execute();
  },
});
