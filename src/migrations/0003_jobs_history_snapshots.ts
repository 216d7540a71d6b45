// Released migration: never changes (the schema history is append only).
import type { Kysely, Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';

export const m0003 = (db: Db): Migration => ({
  async up(k: Kysely<any>) {
    // Leased work (DESIGN.md "jobs"): one row per recurring job; a lease makes one instance its runner.
    await k.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      .addColumn('due_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_token', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('jobs_due').on('jobs').columns(['due_at']).execute();

    await k.schema
      .createTable('probe_history')
      .addColumn('id', db.serialType, (c) => (db.engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('ok', 'integer', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('latency_ms', 'integer')
      .addColumn('score', 'integer', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('probe_history_listing').on('probe_history').columns(['listing_id', 'id']).execute();

    // The order of the active list at a change-feed position, so cursors page one fixed order.
    await k.schema
      .createTable('active_snapshots')
      .addColumn('seq', 'integer', (c) => c.primaryKey())
      .addColumn('agent_ids', 'text', (c) => c.notNull())
      .addColumn('mcp_ids', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
});
