// removeJob against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { ensureJob } from './ensure-job.ts';
import { findJob } from './find-job.ts';
import { removeJob } from './remove-job.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';

test('removes that job only; an unknown id is no error', async () => {
  await ensureJob(d.ex, { id: 'a', kind: 'k', subject: null }, T0);
  await ensureJob(d.ex, { id: 'b', kind: 'k', subject: null }, T0);
  await removeJob(d.ex, 'a');
  await removeJob(d.ex, 'none');
  assert.equal(await findJob(d.ex, 'a'), undefined);
  assert.ok(await findJob(d.ex, 'b'));
});
