// pruneActiveSnapshots against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { saveActiveSnapshot } from './save-active-snapshot.ts';
import { pruneActiveSnapshots } from './prune-active-snapshots.ts';

const d = migratedDbPerFile();

test('deletes snapshots made before the time, keeps the rest', async () => {
  await saveActiveSnapshot(d.ex, 1, { agent: [], mcp: [] }, '2026-11-01T00:00:00.000Z');
  await saveActiveSnapshot(d.ex, 2, { agent: [], mcp: [] }, '2026-11-01T06:00:00.000Z');
  await saveActiveSnapshot(d.ex, 3, { agent: [], mcp: [] }, '2026-11-01T12:00:00.000Z');
  await pruneActiveSnapshots(d.ex, '2026-11-01T06:00:00.000Z');
  const left = await d.sql.selectFrom('active_snapshots').select('seq').orderBy('seq').execute();
  assert.deepEqual(left.map((r) => Number(r.seq)), [2, 3]);
});
