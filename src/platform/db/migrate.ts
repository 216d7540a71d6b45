// Runs the schema history (given by the app's assembly: platform knows no table of a domain).
import { Migrator, sql, type Migration } from 'kysely';
import type { Db } from './dialect.ts';

/** Brings the schema up to date; safe to run from several instances at once (Kysely takes a lock). */
export async function migrateToLatest(db: Db, migrations: Record<string, Migration>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables across every schema unless told which one, so on
  // PostgreSQL name the connection's own schema (several Rollcall databases may share a server).
  const schema =
    db.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } =
    db.engine === 'postgres'
      ? await db.kysely.connection().execute(async (conn) => {
          // Kysely's migrator first lists every table of every schema (pg_get_serial_sequence per
          // column), and that catalog scan fails when another schema of the same database drops a
          // column at that moment ("column ... does not exist"; seen in CI when test files migrate
          // side by side). One database-wide advisory lock around the whole run orders migrators.
          await sql`select pg_advisory_lock(hashtext('rollcall.migrate'))`.execute(conn);
          try {
            return await migrator.migrateToLatest();
          } finally {
            await sql`select pg_advisory_unlock(hashtext('rollcall.migrate'))`.execute(conn);
          }
        })
      : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
