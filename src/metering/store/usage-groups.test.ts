// usageGroups against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { takeUnit } from './take-unit.ts';
import { recordPaidUnit } from './record-paid-unit.ts';
import { grantRefill } from './grant-refill.ts';
import { usageGroups } from './usage-groups.ts';

const d = migratedDbPerFile();

test('rows grouped by day, event and counts, with the allowances that had each; filtered by days, allowance and event', async () => {
  await takeUnit(d.ex, 'sub_a', '2026-10-31', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_a', '2026-11-01', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_b', '2026-11-01', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_c', '2026-11-01', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_c', '2026-11-01', 'mesh_match', 5);
  await grantRefill(d.ex, 'sub_d', '2026-11-01', 'leave_trace', ['mesh_match'], 5);
  await recordPaidUnit(d.ex, 'sub_b', '2026-11-01', 'mesh_compose');
  const row = (used: number, refilled: number, paid: number, allowances: number, event_id = 'mesh_match', day = '2026-11-01') => ({ day, event_id, used, refilled, paid, bonus: 0, allowances });
  const sorted = (rows: Awaited<ReturnType<typeof usageGroups>>) => rows.sort((x, y) => x.day.localeCompare(y.day) || x.event_id.localeCompare(y.event_id) || x.used - y.used || x.refilled - y.refilled);
  assert.deepEqual(sorted(await usageGroups(d.ex, { sinceDay: '2026-11-01' })), [row(0, 0, 1, 1, 'mesh_compose'), row(0, 1, 0, 1), row(1, 0, 0, 2), row(2, 0, 0, 1)]);
  assert.deepEqual(await usageGroups(d.ex, { sinceDay: '2026-10-31', untilDay: '2026-10-31' }), [row(1, 0, 0, 1, 'mesh_match', '2026-10-31')]);
  assert.deepEqual(sorted(await usageGroups(d.ex, { sinceDay: '2026-11-01', untilDay: '2026-11-01', allowance: 'sub_b' })), [row(0, 0, 1, 1, 'mesh_compose'), row(1, 0, 0, 1)]);
  assert.deepEqual(await usageGroups(d.ex, { sinceDay: '2026-11-01', allowance: 'sub_b', event: 'mesh_compose' }), [row(0, 0, 1, 1, 'mesh_compose')]);
  assert.deepEqual(await usageGroups(d.ex, { sinceDay: '2026-12-01' }), []);
});
