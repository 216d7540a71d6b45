// dailyTotals against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { takeUnit } from './take-unit.ts';
import { recordPaidUnit } from './record-paid-unit.ts';
import { dailyTotals } from './daily-totals.ts';

const d = migratedDbPerFile();

test('sums per day and event since a day, with the subjects counted', async () => {
  await takeUnit(d.ex, 'sub_a', '2026-10-31', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_a', '2026-11-01', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_a', '2026-11-01', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_b', '2026-11-01', 'mesh_match', 5);
  await recordPaidUnit(d.ex, 'sub_b', '2026-11-01', 'mesh_compose');
  assert.deepEqual(await dailyTotals(d.ex, '2026-11-01'), [
    { day: '2026-11-01', event_id: 'mesh_compose', used: 0, refilled: 0, paid: 1, subjects: 1 },
    { day: '2026-11-01', event_id: 'mesh_match', used: 3, refilled: 0, paid: 0, subjects: 2 },
  ]);
  assert.deepEqual(await dailyTotals(d.ex, '2026-12-01'), []);
});
