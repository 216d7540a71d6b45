// grantBonus against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { takeUnit } from './take-unit.ts';
import { grantBonus } from './grant-bonus.ts';

const d = migratedDbPerFile();
const bonus = (subject: string, reason: string) => ({ subject, reason, events: ['mesh_match', 'mesh_compose'] as const, units: 3, from_day: '2026-11-01', until_day: '2026-11-02', created_at: '2026-11-01T00:00:00.000Z' });

test('granted once per subject and reason', async () => {
  assert.equal(await grantBonus(d.ex, bonus('sub_a', 'welcome')), true);
  assert.equal(await grantBonus(d.ex, bonus('sub_a', 'welcome')), false);
  assert.equal(await grantBonus(d.ex, bonus('sub_a', 'other')), true);
  assert.equal(await grantBonus(d.ex, bonus('sub_b', 'welcome')), true);
  const rows = await d.sql.selectFrom('meter_bonuses').select(['subject', 'reason']).orderBy('subject').orderBy('reason').execute();
  assert.equal(rows.length, 3);
});

test("raises today's existing row and fills a new one", async () => {
  await takeUnit(d.ex, 'sub_c', '2026-11-01', 'mesh_match', 1);
  await grantBonus(d.ex, bonus('sub_c', 'welcome'));
  const rows = await d.sql.selectFrom('meter_usage').select(['event_id', 'bonus', 'used']).where('subject', '=', 'sub_c').orderBy('event_id').execute();
  assert.deepEqual(rows.map((r) => [r.event_id, Number(r.bonus), Number(r.used)]), [['mesh_compose', 3, 0], ['mesh_match', 3, 1]]);
});
