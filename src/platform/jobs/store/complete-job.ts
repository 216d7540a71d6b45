// A finished run ends its lease and sets when the job is next due.
import type { Executor } from '../../db/executor.ts';
import { q, ROUTINE, type Lease } from './job-row.ts';

/** Ends a lease: the job is next due at `dueAt` with `attempts` consecutive failures, as routine work. */
export async function completeJob(trx: Executor, lease: Lease, dueAt: string, attempts: number, now: string, group?: string | null): Promise<boolean> {
  const res = await q(trx)
    .updateTable('jobs')
    .set({ due_at: dueAt, attempts, priority: ROUTINE, lease_token: null, lease_until: null, updated_at: now, ...(group !== undefined ? { group_key: group } : {}) })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.lease_token)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
