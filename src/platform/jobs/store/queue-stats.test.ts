// queueStats against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { claimJob } from './claim-job.ts';
import { queueStats } from './queue-stats.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';
const NOW = new Date(T0);

test('per kind: due and free, running under a lease, the oldest due time', async () => {
  assert.deepEqual(await queueStats(d.ex, NOW), []);
  await scheduleJob(d.ex, { id: 'p1', kind: 'probe', subject: null }, '2026-11-01T11:00:00.000Z', T0);
  await scheduleJob(d.ex, { id: 'p2', kind: 'probe', subject: null }, '2026-11-01T11:30:00.000Z', T0);
  await scheduleJob(d.ex, { id: 'p3', kind: 'probe', subject: null }, '2026-11-01T13:00:00.000Z', T0);
  await scheduleJob(d.ex, { id: 's1', kind: 'sweep', subject: null }, '2026-11-01T13:00:00.000Z', T0);
  await claimJob(d.store.db, 'p1', NOW, 60_000);
  const stats = (await queueStats(d.ex, NOW)).sort((a, b) => a.kind.localeCompare(b.kind));
  assert.deepEqual(stats, [
    { kind: 'probe', due: 1, running: 1, oldestDueAt: '2026-11-01T11:30:00.000Z' },
    { kind: 'sweep', due: 0, running: 0, oldestDueAt: null },
  ]);
});
