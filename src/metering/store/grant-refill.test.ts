// grantRefill against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { usageOfDay } from './day-usage.ts';
import { grantRefill } from './grant-refill.ts';

const d = migratedDbPerFile();
const DAY = '2026-11-01';

test('counts grants up to the cap and refills one unit of each event per grant', async () => {
  assert.equal(await grantRefill(d.ex, 'sub_a', DAY, 'leave_feedback', ['mesh_match', 'mesh_compose'], 2), 1);
  assert.equal(await grantRefill(d.ex, 'sub_a', DAY, 'leave_feedback', ['mesh_match', 'mesh_compose'], 2), 2);
  assert.equal(await grantRefill(d.ex, 'sub_a', DAY, 'leave_feedback', ['mesh_match', 'mesh_compose'], 2), undefined);
  assert.equal(await grantRefill(d.ex, 'sub_a', DAY, 'endorse', ['mesh_match'], 2), 1);
  const usage = new Map((await usageOfDay(d.ex, 'sub_a', DAY)).map((r) => [r.event_id, r.refilled]));
  assert.deepEqual([usage.get('mesh_match'), usage.get('mesh_compose')], [3, 2]);
});

test('racing grants never pass the cap', async () => {
  const got = await Promise.all(Array.from({ length: 5 }, () => grantRefill(d.ex, 'sub_b', DAY, 'leave_trace', ['mesh_match'], 2)));
  assert.equal(got.filter((n) => n !== undefined).length, 2);
});
