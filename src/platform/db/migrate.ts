// Runs the schema history (given by the app's assembly: platform knows no table of a domain).
import { Migrator, sql, type Migration } from 'kysely';
import type { Db } from './dialect.ts';

/**
 * A Kysely migrator over this handle. Kysely looks for its bookkeeping tables across every schema
 * unless told which one, so on PostgreSQL it is given the connection's own schema (several
 * Rollcall databases, or the tests' schemas, may share a server).
 */
export async function migratorFor(db: Db, migrations: Record<string, Migration>): Promise<Migrator> {
  const schema =
    db.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/**
 * Runs one migration step (migrateToLatest, migrateTo), or any other schema change, with every
 * other migrator of the database waiting. Kysely's migrator first lists every table of every schema (pg_get_serial_sequence per
 * column), and that catalog scan fails when another schema of the same database drops a column at
 * that moment ("column ... does not exist"; seen in CI when test files migrate side by side), so
 * on PostgreSQL one database-wide advisory lock orders them. SQLite has one writer anyway.
 */
export async function underMigrationLock<T>(db: Db, run: () => Promise<T>): Promise<T> {
  if (db.engine !== 'postgres') return run();
  return db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtext('rollcall.migrate'))`.execute(conn);
    try {
      return await run();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('rollcall.migrate'))`.execute(conn);
    }
  });
}

/** Brings the schema up to date; safe to run from several instances at once. */
export async function migrateToLatest(db: Db, migrations: Record<string, Migration>): Promise<string[]> {
  const migrator = await migratorFor(db, migrations);
  const { error, results } = await underMigrationLock(db, () => migrator.migrateToLatest());
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
