// findJob against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { ensureJob } from './ensure-job.ts';
import { findJob } from './find-job.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';

test('a job by id; undefined for an unknown one', async () => {
  await ensureJob(d.ex, { id: 'sweep', kind: 'sweep', subject: null }, T0);
  assert.equal((await findJob(d.ex, 'sweep'))?.kind, 'sweep');
  assert.equal(await findJob(d.ex, 'nothing'), undefined);
});
