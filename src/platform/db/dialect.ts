// The dialect seam: the only place that knows which engine is underneath. Everything above it
// writes portable Kysely; the few real differences (identity columns, locking) are answered here.
import { Kysely, SqliteDialect, PostgresDialect, sql, type ColumnDataType } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { NoTables } from './executor.ts';
import { nameStatements } from './pg-named-statements.ts';
import { startCheckpointer, type CheckpointResult } from './sqlite-checkpointer.ts';
import { StatementCount } from './statement-count.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  engine: Engine;
  /** Knows no tables: domains see theirs through `typed()` (see executor.ts). */
  kysely: Kysely<NoTables>;
  /** Column type of an auto-incrementing primary key. */
  serialType: ColumnDataType;
  /** Every statement sent to the engine through this handle so far (statement-count.ts). */
  sent: StatementCount;
  /** Resolves when the database answers a trivial query (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** SQLite: one checkpoint of the write-ahead log now, off the event loop (see sqlite-checkpointer.ts). */
  checkpointNow?(): Promise<CheckpointResult>;
}

// int8 (bigint, bigserial, count(*)) arrives from pg as a string; our values stay far below 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** Connections per instance. */
const POOL_SIZE = 10;
/** How long a query waits for a free connection before its request is a 503 (the pool's queue is first come, first served). */
const POOL_WAIT_MS = 30_000;
/** How long opening a connection may take before the database counts as unreachable. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * node-postgres's pool applies its one `connectionTimeoutMillis` to both waits; each client it
 * makes is of this class, whose own timer ends a connection attempt after `connectMs`.
 */
const clientWithConnectTimeout = (connectMs: number) =>
  class ClientWithConnectTimeout extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectMs });
    }
  };

export interface OpenDbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves in one); default: the server's search_path. */
  pgSchema?: string;
  /** PostgreSQL: the waits for a free connection and for a new one (default POOL_WAIT_MS, CONNECT_TIMEOUT_MS). */
  poolWaitMs?: number;
  connectTimeoutMs?: number;
  /** SQLite: milliseconds between checkpoints of the write-ahead log (default CHECKPOINT_EVERY_MS). */
  sqliteCheckpointMs?: number;
}

const ping = async (kysely: Kysely<NoTables>) => void (await sql`select 1`.execute(kysely));

export function openDb(options: OpenDbOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: POOL_SIZE,
      // Two waits, two limits: a request queues for a free connection of a busy pool up to
      // POOL_WAIT_MS, in arrival order; a new connection the database does not accept within
      // CONNECT_TIMEOUT_MS is an outage (a 503), not a hung request.
      connectionTimeoutMillis: options.poolWaitMs ?? POOL_WAIT_MS,
      Client: clientWithConnectTimeout(options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
      types: pgTypes,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // A client losing its connection must not crash the process. The pool hears an idle client's
    // error; one in use emits it on itself (node-postgres), with no listener but this one, while
    // its query fails with the same error (a 503 for the request). The next query reconnects.
    pool.on('error', () => {});
    pool.on('connect', (client) => void client.on('error', () => {}));
    const sent = new StatementCount();
    // Counted first, so the named wrapper's own retry of a stale plan counts as the send it is.
    pool.on('connect', (client) => countSends(client, sent));
    pool.on('connect', nameStatements);
    const kysely = new Kysely<NoTables>({ dialect: new PostgresDialect({ pool }) });
    return { engine: 'postgres', kysely, serialType: 'bigserial', sent, ping: () => ping(kysely), close: () => kysely.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  // Loaded only when SQLite is chosen: a PostgreSQL deployment never loads the native module.
  const SQLite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const filePath = path.join(options.dataDir, 'registry.db');
  const file = new SQLite(filePath);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  const checkpointer = startCheckpointer(file, filePath, options.sqliteCheckpointMs);
  const sent = new StatementCount();
  const kysely = new Kysely<NoTables>({ dialect: new SqliteDialect({ database: withStatementCache(file, sent) }) });
  const close = async () => {
    await checkpointer.close();
    await kysely.destroy();
  };
  return { engine: 'sqlite', kysely, serialType: 'integer', sent, ping: () => ping(kysely), close, checkpointNow: checkpointer.checkpointNow };
}

/** Counts every statement a pool connection sends (its `query`, whatever form the call takes). */
function countSends(client: pg.PoolClient, sent: StatementCount): void {
  const query = client.query.bind(client) as (config: unknown, values?: unknown) => unknown;
  const counted = (config: unknown, values?: unknown) => {
    sent.sent(typeof config === 'string' ? config : String((config as { text?: unknown }).text ?? ''));
    return query(config, values);
  };
  client.query = counted as unknown as typeof client.query;
}

/** Prepared statements kept per SQL text; beyond this many texts the oldest are dropped. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement anew, and with better-sqlite3 preparing costs about 10% of the
 * process's CPU under load (docs/performance.md, probe throughput). The same SQL text gets the
 * same prepared statement back; Kysely runs one statement at a time on the single connection, so
 * a reused statement is never in use twice at once.
 */
function withStatementCache(file: BetterSqlite3.Database, sent: StatementCount) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => file.close(),
    // Kysely prepares once per statement it runs (BEGIN and COMMIT included): each is one sent.
    prepare(text: string) {
      sent.sent(text);
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text); // re-inserted below: the map's order is least recently used first
      } else {
        statement = file.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}
