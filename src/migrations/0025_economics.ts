// Network economics: the platform's usage counters (requests, tool calls, probe
// fetches per UTC day; each instance adds its batched counts) and one network_value point per UTC
// day (DESIGN.md: stored daily), the history get_acceleration reads.
import type { Kysely, Migration } from 'kysely';

export const m0025 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('usage_counters')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_counters_pk', ['day', 'name'])
      .execute();
    await k.schema
      .createTable('econ_network_value')
      .addColumn('day', 'text', (c) => c.primaryKey())
      .addColumn('active', 'integer', (c) => c.notNull())
      .addColumn('edges', 'integer', (c) => c.notNull())
      .addColumn('quality', 'double precision', (c) => c.notNull())
      .addColumn('value', 'double precision', (c) => c.notNull())
      .addColumn('computed_at', 'text', (c) => c.notNull())
      .execute();
  },
});
