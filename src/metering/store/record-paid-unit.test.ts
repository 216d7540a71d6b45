// recordPaidUnit against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { recordPaidUnit } from './record-paid-unit.ts';

const d = migratedDbPerFile();

test('counts paid units on the day row, making it when missing', async () => {
  assert.deepEqual(await recordPaidUnit(d.ex, 'sub_a', '2026-11-01', 'network_sense'), { event_id: 'network_sense', used: 0, refilled: 0, paid: 1, bonus: 0 });
  assert.equal((await recordPaidUnit(d.ex, 'sub_a', '2026-11-01', 'network_sense')).paid, 2);
});
