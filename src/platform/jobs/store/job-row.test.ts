// jobId and leaseFree (the condition every claim uses) against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { jobId, leaseFree, q } from './job-row.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';

test("a per-subject job's id", () => {
  assert.equal(jobId('probe', 'lst_1'), 'probe:lst_1');
});

test('a lease is free when there is none or it has expired', async () => {
  for (const [id, until] of [['free', null], ['expired', '2026-11-01T11:59:59.000Z'], ['held', '2026-11-01T12:00:01.000Z']] as const) {
    await scheduleJob(d.ex, { id, kind: 'k', subject: null }, T0, T0);
    await d.sql.updateTable('jobs').set({ lease_until: until, lease_token: until && 'tok' }).where('id', '=', id).execute();
  }
  const rows = await q(d.ex).selectFrom('jobs').select('id').where(leaseFree(T0)).orderBy('id').execute();
  assert.deepEqual(rows.map((r) => r.id), ['expired', 'free']);
});
