// Released migration: never changes (the schema history is append only).
import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';

export const m0001 = (db: Db): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('listings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('submitted_name', 'text')
      .addColumn('contact_email', 'text')
      .addColumn('source', 'text')
      .addColumn('website', 'text')
      .addColumn('category_id', 'text', (c) => c.notNull())
      .addColumn('lane', 'text', (c) => c.notNull())
      .addColumn('lane_reason', 'text')
      .addColumn('checks_clean', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('probe_ok', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('probe_handshake', 'text')
      .addColumn('probe_score', 'integer')
      .addColumn('probed_at', 'text')
      .addColumn('probe_target', 'text')
      .addColumn('capabilities', 'text')
      .addColumn('demoed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('feedbacked', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('founding_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('live_since', 'text')
      .addColumn('talk_last_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('listings_active_order').on('listings').columns(['lane', 'kind', 'rank', 'id']).execute();
    await k.schema.createIndex('listings_name_lower').on('listings').expression(sql`lower(name)`).execute();

    await k.schema
      .createTable('changes')
      .addColumn('seq', db.serialType, (c) => (db.engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('op', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
  },
});
