// The dialect seam: the only place that knows which engine is underneath. Everything above it
// writes portable Kysely; the few real differences (identity columns, locking) are answered here.
import { Kysely, SqliteDialect, PostgresDialect, type ColumnDataType } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  engine: Engine;
  kysely: Kysely<Database>;
  /** Column type of an auto-incrementing primary key. */
  serialType: ColumnDataType;
  close(): Promise<void>;
}

// int8 (bigint, bigserial, count(*)) arrives from pg as a string; our values stay far below 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface OpenDbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves in one); default: the server's search_path. */
  pgSchema?: string;
}

export function openDb(options: OpenDbOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      types: pgTypes,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { engine: 'postgres', kysely, serialType: 'bigserial', close: () => kysely.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  // Loaded only when SQLite is chosen: a PostgreSQL deployment never loads the native module.
  const SQLite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const file = new SQLite(path.join(options.dataDir, 'registry.db'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return { engine: 'sqlite', kysely, serialType: 'integer', close: () => kysely.destroy() };
}
