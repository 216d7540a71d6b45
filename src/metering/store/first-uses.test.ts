// firstUses against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { takeUnit } from './take-unit.ts';
import { recordPaidUnit } from './record-paid-unit.ts';
import { firstUses } from './first-uses.ts';

const d = migratedDbPerFile();

test('the first day a subject used or paid for each event; later days do not move it', async () => {
  assert.deepEqual(await firstUses(d.ex), []);
  await takeUnit(d.ex, 'sub_a', '2026-11-02', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_a', '2026-11-01', 'mesh_match', 5);
  await takeUnit(d.ex, 'sub_a', '2026-11-03', 'mesh_match', 5);
  await recordPaidUnit(d.ex, 'sub_b', '2026-11-04', 'mesh_compose');
  const uses = (await firstUses(d.ex)).sort((a, b) => a.subject.localeCompare(b.subject));
  assert.deepEqual(uses, [
    { subject: 'sub_a', event_id: 'mesh_match', day: '2026-11-01' },
    { subject: 'sub_b', event_id: 'mesh_compose', day: '2026-11-04' },
  ]);
});
