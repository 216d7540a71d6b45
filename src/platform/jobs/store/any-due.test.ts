// anyDue against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { claimJob } from './claim-job.ts';
import { anyDue } from './any-due.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';

test('a due, free job of the kind is something to claim; one not due yet, leased or of another kind is not', async () => {
  assert.equal(await anyDue(d.ex, T0, 'k'), false);
  await scheduleJob(d.ex, { id: 'later', kind: 'k', subject: null }, '2026-11-01T13:00:00.000Z', T0);
  await scheduleJob(d.ex, { id: 'other', kind: 'other', subject: null }, T0, T0);
  assert.equal(await anyDue(d.ex, T0, 'k'), false);
  await scheduleJob(d.ex, { id: 'now', kind: 'k', subject: null }, T0, T0);
  assert.equal(await anyDue(d.ex, T0, 'k'), true);
  await claimJob(d.store.db, 'now', new Date(T0), 60_000);
  assert.equal(await anyDue(d.ex, T0, 'k'), false);
  // A lease that lapsed frees the job again.
  assert.equal(await anyDue(d.ex, '2026-11-01T12:05:00.000Z', 'k'), true);
});
