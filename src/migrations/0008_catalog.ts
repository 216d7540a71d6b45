// The registry catalog: servers synced from an upstream registry (one row per name and
// version, with the full server.json), their remote URLs for lookups, and the sync's state (lock,
// cursor of an unfinished run, updated_since watermark). On PostgreSQL name and version sort
// byte-wise (collation "C"), as SQLite's do, so keyset paging walks one order on both engines.
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';

export const m0008 = (db: Db): Migration => ({
  async up(k: Kysely<any>) {
    const key = (c: ColumnDefinitionBuilder) => (db.engine === 'postgres' ? c.notNull().modifyFront(sql`collate "C"`) : c.notNull());
    await k.schema
      .createTable('catalog_servers')
      .addColumn('name', 'text', key)
      .addColumn('version', 'text', key)
      .addColumn('server_json', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('is_latest', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('published_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('synced_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('catalog_servers_pk', ['name', 'version'])
      .execute();
    await k.schema.createIndex('catalog_servers_latest').on('catalog_servers').columns(['is_latest', 'name']).execute();
    await k.schema.createIndex('catalog_servers_updated').on('catalog_servers').columns(['updated_at']).execute();

    await k.schema
      .createTable('catalog_remotes')
      .addColumn('url_key', 'text', (c) => c.notNull())
      .addColumn('name', 'text', key)
      .addColumn('version', 'text', key)
      .addPrimaryKeyConstraint('catalog_remotes_pk', ['name', 'version', 'url_key'])
      .execute();
    await k.schema.createIndex('catalog_remotes_url').on('catalog_remotes').column('url_key').execute();

    await k.schema
      .createTable('catalog_sync')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('upstream_url', 'text')
      .addColumn('watermark', 'text')
      .addColumn('run_started_at', 'text')
      .addColumn('run_since', 'text')
      .addColumn('run_cursor', 'text')
      .addColumn('run_pages', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('holder', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('last_completed_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('last_result', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
});
