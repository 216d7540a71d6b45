// scheduleJob against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { findJob } from './find-job.ts';
import { scheduleJob } from './schedule-job.ts';
import { URGENT } from './job-row.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';

test('creates a routine job, then moves its due time, keeping what was not given', async () => {
  await scheduleJob(d.ex, { id: 'probe:a', kind: 'probe', subject: 'a', group: 'host-a' }, T0, T0);
  assert.deepEqual(await findJob(d.ex, 'probe:a'), { id: 'probe:a', kind: 'probe', subject: 'a', priority: 1, group_key: 'host-a', due_at: T0, attempts: 0, lease_token: null, lease_until: null, updated_at: T0 });
  await d.sql.updateTable('jobs').set({ attempts: 3 }).where('id', '=', 'probe:a').execute();
  await scheduleJob(d.ex, { id: 'probe:a', kind: 'probe', subject: 'a' }, '2026-11-02T00:00:00.000Z', '2026-11-01T13:00:00.000Z');
  const moved = await findJob(d.ex, 'probe:a');
  assert.deepEqual([moved?.due_at, moved?.updated_at, moved?.group_key, Number(moved?.priority), Number(moved?.attempts)], ['2026-11-02T00:00:00.000Z', '2026-11-01T13:00:00.000Z', 'host-a', 1, 3]);
});

test('priority, group and a reset of attempts when given', async () => {
  await scheduleJob(d.ex, { id: 'probe:b', kind: 'probe', subject: 'b', group: 'h1' }, T0, T0);
  await d.sql.updateTable('jobs').set({ attempts: 2 }).where('id', '=', 'probe:b').execute();
  await scheduleJob(d.ex, { id: 'probe:b', kind: 'probe', subject: 'b', priority: URGENT, group: null }, T0, T0, { resetAttempts: true });
  const job = await findJob(d.ex, 'probe:b');
  assert.deepEqual([Number(job?.priority), job?.group_key, Number(job?.attempts)], [URGENT, null, 0]);
});
