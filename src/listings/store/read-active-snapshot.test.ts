// readActiveSnapshot against the engine of this run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDb, type StoreDb } from '../../../test/helpers/db.ts';
import { saveActiveSnapshot } from './save-active-snapshot.ts';
import { readActiveSnapshot } from './read-active-snapshot.ts';

let d: StoreDb;
before(async () => {
  d = await migratedDb();
});
after(() => d.close());

test('reads the order kept at a position; undefined for a position never kept', async () => {
  await saveActiveSnapshot(d.ex, 3, { agent: ['a1', 'a2'], mcp: [] }, '2026-11-01T12:00:00.000Z');
  assert.deepEqual(await readActiveSnapshot(d.ex, 3), { agent: ['a1', 'a2'], mcp: [] });
  assert.equal(await readActiveSnapshot(d.ex, 4), undefined);
});
