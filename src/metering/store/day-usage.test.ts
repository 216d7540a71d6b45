// usageOfDay, grantsOfDay and usedAnyOf against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { takeUnit } from './take-unit.ts';
import { recordPaidUnit } from './record-paid-unit.ts';
import { grantRefill } from './grant-refill.ts';
import { grantsOfDay, usageOfDay, usedAnyOf } from './day-usage.ts';

const d = migratedDbPerFile();
const DAY = '2026-11-01';

test("a subject's day: usage rows, refill grants, whether it used any of some events", async () => {
  await takeUnit(d.ex, 'sub_a', DAY, 'mesh_match', 5);
  await recordPaidUnit(d.ex, 'sub_a', DAY, 'network_sense');
  await grantRefill(d.ex, 'sub_a', DAY, 'endorse', ['mesh_compose'], 3);
  const usage = (await usageOfDay(d.ex, 'sub_a', DAY)).sort((a, b) => a.event_id.localeCompare(b.event_id));
  assert.deepEqual(usage, [
    { event_id: 'mesh_compose', used: 0, refilled: 1, paid: 0, bonus: 0 },
    { event_id: 'mesh_match', used: 1, refilled: 0, paid: 0, bonus: 0 },
    { event_id: 'network_sense', used: 0, refilled: 0, paid: 1, bonus: 0 },
  ]);
  assert.deepEqual([...(await grantsOfDay(d.ex, 'sub_a', DAY))], [['endorse', 1]]);
  assert.equal(await usedAnyOf(d.ex, 'sub_a', DAY, ['mesh_match']), true);
  assert.equal(await usedAnyOf(d.ex, 'sub_a', DAY, ['network_sense']), true);
  assert.equal(await usedAnyOf(d.ex, 'sub_a', DAY, ['mesh_compose']), false);
  assert.equal(await usedAnyOf(d.ex, 'sub_b', DAY, ['mesh_match']), false);
  assert.deepEqual(await usageOfDay(d.ex, 'sub_b', DAY), []);
  assert.equal((await grantsOfDay(d.ex, 'sub_b', DAY)).size, 0);
});
