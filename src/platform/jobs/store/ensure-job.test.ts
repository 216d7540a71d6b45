// ensureJob against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { findJob } from './find-job.ts';
import { ensureJob } from './ensure-job.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';

test('the first call makes the job; later ones (any instance) leave it as it is', async () => {
  await Promise.all([1, 2, 3].map(() => ensureJob(d.ex, { id: 'sweep', kind: 'sweep', subject: null }, T0)));
  await ensureJob(d.ex, { id: 'sweep', kind: 'sweep', subject: null }, '2026-11-05T00:00:00.000Z');
  const job = await findJob(d.ex, 'sweep');
  assert.deepEqual([job?.due_at, job?.updated_at, Number(job?.priority)], [T0, T0, 1]);
  assert.equal((await d.sql.selectFrom('jobs').select('id').execute()).length, 1);
});
