// claimJob against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { claimJob } from './claim-job.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';
const NOW = new Date(T0);

test('leases a job that is not due yet, once until the lease ends', async () => {
  await scheduleJob(d.ex, { id: 'probe:x', kind: 'probe', subject: 'x' }, '2026-11-09T00:00:00.000Z', T0);
  const lease = await claimJob(d.store.db, 'probe:x', NOW, 5000);
  assert.equal(lease?.lease_until, '2026-11-01T12:00:05.000Z');
  assert.equal(typeof lease?.lease_token, 'string');
  assert.equal(await claimJob(d.store.db, 'probe:x', NOW, 5000), undefined);
  assert.notEqual((await claimJob(d.store.db, 'probe:x', new Date('2026-11-01T12:00:06.000Z'), 5000))?.lease_token, lease?.lease_token);
  assert.equal(await claimJob(d.store.db, 'probe:none', NOW, 5000), undefined);
});
