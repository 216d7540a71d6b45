// A job made, or moved to a new due time.
import type { Executor } from '../../db/executor.ts';
import { together, write, type Part } from '../../db/together.ts';
import { newJobRow, q, type JobSpec } from './job-row.ts';

/** scheduleJob as a part of a batch (platform/db/together.ts). */
export function scheduleJobPart(db: Executor, job: JobSpec, dueAt: string, now: string, options: { resetAttempts?: boolean } = {}): Part<void> {
  return write(
    q(db)
      .insertInto('jobs')
      .values(newJobRow(job, dueAt, now))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          due_at: eb.ref('excluded.due_at'),
          updated_at: eb.ref('excluded.updated_at'),
          ...(job.priority !== undefined ? { priority: eb.ref('excluded.priority') } : {}),
          ...(job.group !== undefined ? { group_key: eb.ref('excluded.group_key') } : {}),
          ...(options.resetAttempts ? { attempts: 0 } : {}),
        })),
      ),
  );
}

/**
 * Creates the job or moves its due time (and priority and group, when given); `resetAttempts`
 * also clears its failure count.
 */
export async function scheduleJob(db: Executor, job: JobSpec, dueAt: string, now: string, options: { resetAttempts?: boolean } = {}): Promise<void> {
  await together(db, [scheduleJobPart(db, job, dueAt, now, options)]);
}
