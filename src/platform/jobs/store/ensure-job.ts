// A singleton job every instance ensures at start; the first one makes it.
import type { Executor } from '../../db/executor.ts';
import { newJobRow, q, type JobSpec } from './job-row.ts';

/** Creates the job due at `dueAt` unless it exists (singletons every instance ensures at start). */
export async function ensureJob(db: Executor, job: JobSpec, dueAt: string): Promise<void> {
  await q(db)
    .insertInto('jobs')
    .values(newJobRow(job, dueAt, dueAt))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
