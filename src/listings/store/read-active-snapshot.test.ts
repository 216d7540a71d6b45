// readActiveSnapshot against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { saveActiveSnapshot } from './save-active-snapshot.ts';
import { readActiveSnapshot } from './read-active-snapshot.ts';

const d = migratedDbPerFile();

test('reads the order kept at a position; undefined for a position never kept', async () => {
  await saveActiveSnapshot(d.ex, 3, { agent: ['a1', 'a2'], mcp: [] }, '2026-11-01T12:00:00.000Z');
  assert.deepEqual(await readActiveSnapshot(d.ex, 3), { agent: ['a1', 'a2'], mcp: [] });
  assert.equal(await readActiveSnapshot(d.ex, 4), undefined);
});
