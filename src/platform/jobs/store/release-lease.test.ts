// releaseLease against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { claimJob } from './claim-job.ts';
import { findJob } from './find-job.ts';
import { releaseLease } from './release-lease.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';
const NOW = new Date(T0);

test('gives the lease back, due as before; a stale token changes nothing', async () => {
  await scheduleJob(d.ex, { id: 'j', kind: 'k', subject: null }, T0, T0);
  const lease = (await claimJob(d.store.db, 'j', NOW, 60_000))!;
  await releaseLease(d.ex, { ...lease, lease_token: 'stale' }, T0);
  assert.equal((await findJob(d.ex, 'j'))?.lease_token, lease.lease_token);
  await releaseLease(d.ex, lease, '2026-11-01T12:00:01.000Z');
  const job = await findJob(d.ex, 'j');
  assert.deepEqual([job?.lease_token, job?.lease_until, job?.due_at, job?.updated_at], [null, null, T0, '2026-11-01T12:00:01.000Z']);
  assert.ok(await claimJob(d.store.db, 'j', NOW, 1000));
});
