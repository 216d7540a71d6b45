// takeUnit against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { grantRefill } from './grant-refill.ts';
import { grantBonus } from './grant-bonus.ts';
import { takeUnit } from './take-unit.ts';

const d = migratedDbPerFile();
const DAY = '2026-11-01';

test('takes units while the free allowance lasts, then nothing', async () => {
  assert.deepEqual(await takeUnit(d.ex, 'sub_a', DAY, 'mesh_match', 2), { event_id: 'mesh_match', used: 1, refilled: 0, paid: 0, bonus: 0 });
  assert.equal((await takeUnit(d.ex, 'sub_a', DAY, 'mesh_match', 2))?.used, 2);
  assert.equal(await takeUnit(d.ex, 'sub_a', DAY, 'mesh_match', 2), undefined);
  assert.equal((await takeUnit(d.ex, 'sub_a', '2026-11-02', 'mesh_match', 2))?.used, 1);
});

test('refills and bonuses widen the allowance', async () => {
  assert.equal((await takeUnit(d.ex, 'sub_b', DAY, 'mesh_match', 1))?.used, 1);
  assert.equal(await takeUnit(d.ex, 'sub_b', DAY, 'mesh_match', 1), undefined);
  await grantRefill(d.ex, 'sub_b', DAY, 'leave_trace', ['mesh_match'], 5);
  await grantBonus(d.ex, { subject: 'sub_b', reason: 'welcome', events: ['mesh_match'], units: 1, from_day: DAY, until_day: DAY, created_at: DAY });
  assert.deepEqual(await takeUnit(d.ex, 'sub_b', DAY, 'mesh_match', 1), { event_id: 'mesh_match', used: 2, refilled: 1, paid: 0, bonus: 1 });
  assert.equal((await takeUnit(d.ex, 'sub_b', DAY, 'mesh_match', 1))?.used, 3);
  assert.equal(await takeUnit(d.ex, 'sub_b', DAY, 'mesh_match', 1), undefined);
});

test('racing takes of the last units never overdraw', async () => {
  const got = await Promise.all(Array.from({ length: 6 }, () => takeUnit(d.ex, 'sub_c', DAY, 'mesh_compose', 3)));
  assert.equal(got.filter(Boolean).length, 3);
});
