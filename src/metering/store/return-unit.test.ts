// returnUnit and returnPaidUnit against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { takeUnit } from './take-unit.ts';
import { recordPaidUnit } from './record-paid-unit.ts';
import { usageOfDay } from './day-usage.ts';
import { returnPaidUnit, returnUnit } from './return-unit.ts';

const d = migratedDbPerFile();
const DAY = '2026-11-01';

test('gives back a taken unit and a paid one, never below zero', async () => {
  await takeUnit(d.ex, 'sub_a', DAY, 'mesh_match', 5);
  await recordPaidUnit(d.ex, 'sub_a', DAY, 'mesh_match');
  await returnUnit(d.ex, 'sub_a', DAY, 'mesh_match');
  await returnPaidUnit(d.ex, 'sub_a', DAY, 'mesh_match');
  await returnUnit(d.ex, 'sub_a', DAY, 'mesh_match');
  await returnPaidUnit(d.ex, 'sub_a', DAY, 'mesh_match');
  assert.deepEqual(await usageOfDay(d.ex, 'sub_a', DAY), [{ event_id: 'mesh_match', used: 0, refilled: 0, paid: 0, bonus: 0 }]);
});

test('nothing to give back on a day without a row', async () => {
  await returnUnit(d.ex, 'sub_b', DAY, 'mesh_match');
  await returnPaidUnit(d.ex, 'sub_b', DAY, 'mesh_match');
  assert.deepEqual(await usageOfDay(d.ex, 'sub_b', DAY), []);
});
