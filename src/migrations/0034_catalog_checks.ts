// Health checks of the catalog's remotes: one row per remote URL (by its lookup key, so a URL many
// entries share is checked once) with the last check's findings, its schedule and the lease of the
// instance checking it; and the last checks of each remote, for the history chart. Every remote
// already stored is due at once.
import type { Kysely, Migration } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { remotesOf } from '../catalog/remote-health.ts';
import { addRemotesToCheck } from '../catalog/checks-store.ts';

export const m0034 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('catalog_checks')
      .addColumn('url_key', 'text', (c) => c.primaryKey())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('transport', 'text', (c) => c.notNull())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('status', 'text')
      .addColumn('shown_status', 'text')
      .addColumn('last_verified', 'text')
      .addColumn('latency_ms', 'integer')
      .addColumn('protocol', 'text')
      .addColumn('answered_transport', 'text')
      .addColumn('server_name', 'text')
      .addColumn('server_version', 'text')
      .addColumn('tool_count', 'integer')
      .addColumn('tools_bytes', 'integer')
      .addColumn('tools_truncated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tools_json', 'text')
      .addColumn('auth_metadata', 'text')
      .addColumn('detail', 'text')
      .addColumn('fail_streak', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failing_since', 'text')
      .addColumn('next_check_at', 'text', (c) => c.notNull())
      .addColumn('holder', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('catalog_checks_due').on('catalog_checks').columns(['next_check_at']).execute();
    await k.schema
      .createTable('catalog_check_history')
      .addColumn('url_key', 'text', (c) => c.notNull())
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('latency_ms', 'integer')
      .addColumn('tool_count', 'integer')
      .addColumn('changes', 'text')
      .addPrimaryKeyConstraint('catalog_check_history_pk', ['url_key', 'checked_at'])
      .execute();
    const now = new Date().toISOString();
    const latest = await k.selectFrom('catalog_servers').select('server_json').where('is_latest', '=', 1).where('status', '!=', 'deleted').execute();
    for (const { server_json } of latest) await addRemotesToCheck(k as unknown as Executor, remotesOf(JSON.parse(server_json)), now);
  },
});
