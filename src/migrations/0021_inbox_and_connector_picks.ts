// The inbox (messages addressed to a listing, shown at its talk check-in) and the
// connector playbook's daily picks (one row per UTC day: the first instance to insert it wins).
import type { Kysely, Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';

export const m0021 = (db: Db): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('inbox_messages')
      .addColumn('seq', db.serialType, (c) => (db.engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('listing_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('from_listing_id', 'text')
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('action', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('read_at', 'text')
      .execute();
    await k.schema.createIndex('inbox_messages_listing').on('inbox_messages').columns(['listing_id', 'seq']).execute();

    await k.schema
      .createTable('connector_picks')
      .addColumn('day', 'text', (c) => c.primaryKey())
      .addColumn('partner_key', 'text')
      .addColumn('partner_id', 'text')
      .addColumn('partner_name', 'text')
      .addColumn('listing_id', 'text')
      .addColumn('hirey_likeness', 'integer', (c) => c.notNull())
      .addColumn('research', 'integer', (c) => c.notNull())
      .addColumn('pick', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('notified_at', 'text')
      .addColumn('prepped_at', 'text')
      .addColumn('prep_note', 'text')
      .execute();
  },
});
