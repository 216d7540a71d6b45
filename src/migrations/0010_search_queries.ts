// The search query log: text, hit count and tool of every query, no caller identity.
import type { Kysely, Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';

export const m0010 = (db: Db): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('search_queries')
      .addColumn('id', db.serialType, (c) => (db.engine === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('search_queries_at').on('search_queries').column('at').execute();
  },
});
