// Schema migrations, run at start and by `migrate`. Append only: a released migration never changes.
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './dialect.ts';

function migrations(db: Db): Record<string, Migration> {
  return {
    '0001_listings_and_changes': {
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
    },
    '0002_probe_details': {
      async up(k: Kysely<any>) {
        for (const [name, type] of [
          ['probe_detail', 'text'],
          ['probe_protocol', 'text'],
          ['probe_latency_ms', 'integer'],
          ['probe_report', 'text'],
        ] as const) {
          await k.schema.alterTable('listings').addColumn(name, type).execute();
        }
      },
    },
    '0003_jobs_history_snapshots': {
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
    },
  };
}

class InlineProvider implements MigrationProvider {
  constructor(private readonly db: Db) {}
  async getMigrations() {
    return migrations(this.db);
  }
}

/** Brings the schema up to date; safe to run from several instances at once (Kysely takes a lock). */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Kysely looks for its bookkeeping tables across every schema unless told which one, so on
  // PostgreSQL name the connection's own schema (several Rollcall databases may share a server).
  const schema =
    db.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: db.kysely,
    provider: new InlineProvider(db),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
