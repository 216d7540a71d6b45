// The configured database for a command, its schema brought up to date first as the server does
// (kept apart from local.ts, so commands that need only the database load only that).
import type { Config } from '../config.ts';
import { openDb, type Db } from '../platform/db/dialect.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { schemaHistory } from '../migrations/index.ts';

/** Opens the configured database and migrates it; returns what the migration applied. */
export async function openDatabase(config: Config): Promise<{ db: Db; applied: string[] }> {
  const db = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return { db, applied: await migrateToLatest(db, schemaHistory(db)) };
  } catch (err) {
    await db.close();
    throw err;
  }
}
