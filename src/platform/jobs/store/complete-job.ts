// A finished run ends its lease and sets when the job is next due.
import type { Executor } from '../../db/executor.ts';
import { part, together, type Part } from '../../db/together.ts';
import { q, ROUTINE, type Lease } from './job-row.ts';

/** completeJob as a part of a batch (platform/db/together.ts): true when the lease was still the caller's. */
export function completeJobPart(trx: Executor, lease: Lease, dueAt: string, attempts: number, now: string, group?: string | null): Part<boolean> {
  const update = q(trx)
    .updateTable('jobs')
    .set({ due_at: dueAt, attempts, priority: ROUTINE, lease_token: null, lease_until: null, updated_at: now, ...(group !== undefined ? { group_key: group } : {}) })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.lease_token)
    .returning('id');
  return part(update, (rows) => rows.length === 1);
}

/** Ends a lease: the job is next due at `dueAt` with `attempts` consecutive failures, as routine work. */
export async function completeJob(trx: Executor, lease: Lease, dueAt: string, attempts: number, now: string, group?: string | null): Promise<boolean> {
  const [done] = await together(trx, [completeJobPart(trx, lease, dueAt, attempts, now, group)]);
  return done;
}
