// ensureUsageRow against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { grantBonus } from './grant-bonus.ts';
import { ensureUsageRow } from './usage-row.ts';

const d = migratedDbPerFile();
const row = (subject: string, day: string) => d.sql.selectFrom('meter_usage').selectAll().where('subject', '=', subject).where('day', '=', day).execute();

test("makes the day's row once, empty", async () => {
  assert.equal(await ensureUsageRow(d.ex, 'sub_a', '2026-11-01', 'mesh_match'), true);
  assert.equal(await ensureUsageRow(d.ex, 'sub_a', '2026-11-01', 'mesh_match'), false);
  const rows = await row('sub_a', '2026-11-01');
  assert.deepEqual(rows.map((r) => [r.event_id, Number(r.used), Number(r.refilled), Number(r.paid), Number(r.bonus)]), [['mesh_match', 0, 0, 0, 0]]);
});

test('a new row copies in the bonus units in force that day for that event', async () => {
  await grantBonus(d.ex, { subject: 'sub_b', reason: 'welcome', events: ['mesh_match'], units: 4, from_day: '2026-11-01', until_day: '2026-11-07', created_at: '2026-11-01T00:00:00.000Z' });
  await ensureUsageRow(d.ex, 'sub_b', '2026-11-03', 'mesh_match');
  await ensureUsageRow(d.ex, 'sub_b', '2026-11-03', 'mesh_compose');
  await ensureUsageRow(d.ex, 'sub_b', '2026-11-08', 'mesh_match');
  const bonus = async (day: string, event: string) => Number((await row('sub_b', day)).find((r) => r.event_id === event)?.bonus);
  assert.equal(await bonus('2026-11-03', 'mesh_match'), 4);
  assert.equal(await bonus('2026-11-03', 'mesh_compose'), 0);
  assert.equal(await bonus('2026-11-08', 'mesh_match'), 0);
});
