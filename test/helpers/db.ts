// One migrated database for the test file of a store operation (src/<domain>/store/*.test.ts):
// the tests' fresh database (store.ts, as app.ts uses it) on the engine of this run with every
// migration applied, and no app, so the operation runs alone against real SQL. One per test file,
// and no app to load, keep those files fast.
import { after, before } from 'node:test';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import type { Executor } from '../../src/platform/db/executor.ts';
import { schemaHistory } from '../../src/migrations/index.ts';
import { freshStore, type TestStore } from './store.ts';
import { allTables, type AllTables } from './tables.ts';

export interface StoreDb {
  store: TestStore;
  /** The handle a store operation takes. */
  ex: Executor;
  /** Every domain's tables, to arrange rows and look underneath. */
  sql: Kysely<AllTables>;
  close(): Promise<void>;
}

export async function migratedDb(): Promise<StoreDb> {
  const store = await freshStore();
  await migrateToLatest(store.db, schemaHistory(store.db));
  return {
    store,
    ex: store.db.kysely,
    sql: allTables(store.db),
    async close() {
      await store.db.close();
      await store.drop();
    },
  };
}

/**
 * The file's migrated database, opened before its first test and closed after its last: the
 * returned object is filled in by the `before` hook, so tests read it, never the file's top level.
 */
export function migratedDbPerFile(): StoreDb {
  const d = {} as StoreDb;
  before(async () => {
    Object.assign(d, await migratedDb());
  });
  after(() => d.close());
  return d;
}
