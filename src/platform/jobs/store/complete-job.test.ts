// completeJob against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { claimJob } from './claim-job.ts';
import { findJob } from './find-job.ts';
import { completeJob } from './complete-job.ts';
import { URGENT } from './job-row.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';
const NOW = new Date(T0);

test('ends the lease and sets the next due time, attempts and routine priority; only for its holder', async () => {
  await scheduleJob(d.ex, { id: 'j', kind: 'k', subject: null, priority: URGENT, group: 'h' }, T0, T0);
  const lease = (await claimJob(d.store.db, 'j', NOW, 1000))!;
  assert.equal(await completeJob(d.ex, { ...lease, lease_token: 'not-mine' }, '2026-11-02T00:00:00.000Z', 0, T0), false);
  assert.equal(await completeJob(d.ex, lease, '2026-11-02T00:00:00.000Z', 2, '2026-11-01T12:00:01.000Z'), true);
  const job = await findJob(d.ex, 'j');
  assert.deepEqual([job?.due_at, Number(job?.attempts), Number(job?.priority), job?.lease_token, job?.lease_until, job?.group_key], ['2026-11-02T00:00:00.000Z', 2, 1, null, null, 'h']);
  assert.equal(await completeJob(d.ex, lease, T0, 0, T0), false);
});

test('a new group when given', async () => {
  await scheduleJob(d.ex, { id: 'g', kind: 'k', subject: null, group: 'old' }, T0, T0);
  const lease = (await claimJob(d.store.db, 'g', NOW, 1000))!;
  await completeJob(d.ex, lease, T0, 0, T0, 'new');
  assert.equal((await findJob(d.ex, 'g'))?.group_key, 'new');
});
