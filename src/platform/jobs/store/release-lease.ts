// A lease given back unfinished: a runner stopping (another instance runs the job at once), or a
// job that failed (it runs again later, after the database is back or a pause).
import type { Executor } from '../../db/executor.ts';
import { q, type Lease } from './job-row.ts';

/**
 * Gives a lease back unfinished, due as before (so another instance can run the job at once), or
 * due at `dueAt` (a job that failed runs again later). Idempotent: it matches the lease's token.
 */
export async function releaseLease(db: Executor, lease: Lease, now: string, dueAt?: string): Promise<void> {
  await q(db)
    .updateTable('jobs')
    .set({ lease_token: null, lease_until: null, updated_at: now, ...(dueAt !== undefined ? { due_at: dueAt } : {}) })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.lease_token)
    .execute();
}
