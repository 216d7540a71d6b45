// The fresh, empty database a test starts from, on the engine of this run (RC_TEST_ENGINE): SQLite
// in a temporary DATA_DIR, or PostgreSQL in a fresh schema of the run's database (scripts/test.mjs).
// Apart from app.ts so a store operation's test (test/helpers/db.ts) opens one without loading the app.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type Db } from '../../src/platform/db/dialect.ts';

export const engine = (process.env.RC_TEST_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres';

export interface TestStore {
  db: Db;
  dataDir: string;
  /** Another connection to the same database, as a second instance would have (SQLite: the same one). */
  connect(): Db;
  /** Environment that points a child process at the same database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test (a schema on PostgreSQL, a directory on SQLite). */
export async function freshStore(): Promise<TestStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-test-'));
  if (engine === 'postgres') {
    const url = process.env.RC_TEST_DATABASE_URL;
    if (!url) throw new Error('RC_TEST_DATABASE_URL is not set: run the suite through npm test');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const db = openDb({ databaseUrl: url, dataDir, pgSchema: schema });
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    return {
      db,
      dataDir,
      connect: () => openDb({ databaseUrl: url, dataDir, pgSchema: schema }),
      env: { DATABASE_URL: withSchema.toString(), DATA_DIR: dataDir },
      async drop() {
        // The schema is left for the run's end, when scripts/test.mjs drops the whole database:
        // Kysely's migrator lists the tables of every schema, and a schema dropped by another test
        // file in the middle of that query fails it ("schema ... does not exist"; seen in the suite).
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const db = openDb({ dataDir });
  return {
    db,
    dataDir,
    // One process holds one SQLite connection: a second in-process instance shares it, as a
    // second connection would block the event loop on the file lock.
    connect: () => ({ ...db, close: async () => {} }),
    env: { DATA_DIR: dataDir },
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
