// What the jobs store operations share: the job and lease shapes, priorities, a new job's row,
// and which leases may be taken now.
import type { ExpressionBuilder, Selectable } from 'kysely';
import { typed, type Executor } from '../../db/executor.ts';
import type { JobTables, JobsTable } from '../tables.ts';

export type Job = Selectable<JobsTable>;
export type Lease = Job & { lease_token: string };

/** Someone is waiting for this job (a newcomer's first probe); routine work is ROUTINE. */
export const URGENT = 0;
export const ROUTINE = 1;

export interface JobSpec {
  id: string;
  kind: string;
  subject: string | null;
  priority?: number;
  group?: string | null;
}

export const q = (ex: Executor) => typed<JobTables>(ex);

/** The id of a per-subject job. */
export const jobId = (kind: string, subject: string) => `${kind}:${subject}`;

export const newJobRow = (job: JobSpec, dueAt: string, now: string) => ({
  id: job.id,
  kind: job.kind,
  subject: job.subject,
  priority: job.priority ?? ROUTINE,
  group_key: job.group ?? null,
  due_at: dueAt,
  attempts: 0,
  lease_token: null,
  lease_until: null,
  updated_at: now,
});

/** The leases that may be taken now: none, or one whose holder let it expire. */
export const leaseFree = (nowIso: string) => (eb: ExpressionBuilder<JobTables, 'jobs'>) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowIso)]);
