// bonusesOf against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { grantBonus } from './grant-bonus.ts';
import { bonusesOf } from './bonuses-of.ts';

const d = migratedDbPerFile();

test("a subject's bonuses, oldest first", async () => {
  assert.deepEqual(await bonusesOf(d.ex, 'sub_a'), []);
  await grantBonus(d.ex, { subject: 'sub_a', reason: 'later', events: ['mesh_match'], units: 1, from_day: '2026-11-02', until_day: '2026-11-02', created_at: '2026-11-02T00:00:00.000Z' });
  await grantBonus(d.ex, { subject: 'sub_a', reason: 'first', events: ['mesh_compose', 'network_sense'], units: 5, from_day: '2026-11-01', until_day: '2026-11-09', created_at: '2026-11-01T00:00:00.000Z' });
  await grantBonus(d.ex, { subject: 'sub_b', reason: 'first', events: ['mesh_match'], units: 1, from_day: '2026-11-01', until_day: '2026-11-01', created_at: '2026-11-01T00:00:00.000Z' });
  assert.deepEqual(await bonusesOf(d.ex, 'sub_a'), [
    { reason: 'first', events: ['mesh_compose', 'network_sense'], units: 5, from_day: '2026-11-01', until_day: '2026-11-09', created_at: '2026-11-01T00:00:00.000Z' },
    { reason: 'later', events: ['mesh_match'], units: 1, from_day: '2026-11-02', until_day: '2026-11-02', created_at: '2026-11-02T00:00:00.000Z' },
  ]);
});
