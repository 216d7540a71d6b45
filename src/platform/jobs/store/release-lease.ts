// A lease given back unfinished (a runner stopping), so another instance runs the job at once.
import type { Executor } from '../../db/executor.ts';
import { q, type Lease } from './job-row.ts';

/** Gives a lease back unfinished, due as before, so another instance can run the job at once. */
export async function releaseLease(db: Executor, lease: Lease, now: string): Promise<void> {
  await q(db)
    .updateTable('jobs')
    .set({ lease_token: null, lease_until: null, updated_at: now })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.lease_token)
    .execute();
}
