// Runs the schema history (given by the app's assembly: platform knows no table of a domain).
import { Migrator, sql, type DatabaseIntrospector, type Kysely, type Migration } from 'kysely';
import type { Db } from './dialect.ts';
import type { NoTables } from './executor.ts';

/**
 * A Kysely migrator over this handle. Kysely looks for its bookkeeping tables across every schema
 * unless told which one, so on PostgreSQL it is given the connection's own schema (several
 * Rollcall databases, or the tests' schemas, may share a server), and sees only that schema's
 * tables (`ownSchemaOnly`).
 */
export async function migratorFor(db: Db, migrations: Record<string, Migration>): Promise<Migrator> {
  const schema =
    db.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db: schema ? ownSchemaOnly(db.kysely, schema) : db.kysely,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/**
 * The handle as the migrator sees it on PostgreSQL. To ask whether its two tables exist, Kysely's
 * migrator lists every column of every table of every schema (with pg_get_serial_sequence for each
 * column) and keeps its own schema's: measured 1.5 s at 400 schemas of 50 tables, under the lock
 * every other migrator of the database waits for. Here its question reads only the names of its
 * schema's tables.
 */
function ownSchemaOnly(kysely: Kysely<NoTables>, schema: string): Kysely<NoTables> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => kysely.introspection.getSchemas(),
    async getTables() {
      const { rows } = await sql<{ name: string; kind: string }>`
        select c.relname as name, c.relkind as kind from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'v', 'p')`.execute(kysely);
      return rows.map((r) => ({ name: r.name, schema, isView: r.kind === 'v', columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  // Everything else is the handle itself (its methods bound to it: they read its private fields).
  return new Proxy(kysely, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Runs one migration step (migrateToLatest, migrateTo), or any other schema change, with every
 * other migrator of the database waiting: on PostgreSQL one database-wide advisory lock orders
 * them. A catalog read made while another schema of the database changes can fail ("column ...
 * does not exist": Kysely's scan of every schema, seen in CI when test files migrated side by
 * side); the migrator reads only its own schema (`ownSchemaOnly`), and the lock keeps even that
 * read from meeting another migration. SQLite has one writer anyway.
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
