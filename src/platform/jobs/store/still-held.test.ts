// stillHeld against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { claimJob } from './claim-job.ts';
import { stillHeld } from './still-held.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';
const NOW = new Date(T0);

test('true for the holder of the lease inside its transaction, false once another took it', async () => {
  await scheduleJob(d.ex, { id: 'j', kind: 'k', subject: null }, T0, T0);
  const first = (await claimJob(d.store.db, 'j', NOW, 1000))!;
  assert.equal(await d.store.db.kysely.transaction().execute((trx) => stillHeld(trx, first)), true);
  const second = (await claimJob(d.store.db, 'j', new Date('2026-11-01T12:00:02.000Z'), 1000))!;
  assert.equal(await stillHeld(d.ex, first), false);
  assert.equal(await stillHeld(d.ex, second), true);
});
