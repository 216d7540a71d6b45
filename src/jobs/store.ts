// The jobs table (DESIGN.md stack row "jobs"): due work claimed under a lease, so on one instance
// or many a job is never run twice at once, and a job whose runner died is taken over once its
// lease expires. Claims use FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite serializes writers.
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '../platform/db/dialect.ts';
import type { Database, JobsTable } from '../platform/db/schema.ts';
import type { Executor } from '../platform/db/changes.ts';
import { iso } from '../platform/clock.ts';

export type Job = Selectable<JobsTable>;
export type Lease = Job & { lease_token: string };

export const probeJobId = (listingId: string) => `probe:${listingId}`;

type JobSpec = { id: string; kind: JobsTable['kind']; subject: string | null };

const newJobRow = (job: JobSpec, dueAt: string, now: string) => ({ ...job, due_at: dueAt, attempts: 0, lease_token: null, lease_until: null, updated_at: now });

/** The leases that may be taken now: none, or one whose holder let it expire. */
const leaseFree = (nowIso: string) => (eb: ExpressionBuilder<Database, 'jobs'>) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowIso)]);

/** Creates the job or moves its due time; `resetAttempts` also clears its failure count. */
export async function scheduleJob(db: Executor, job: JobSpec, dueAt: string, now: string, options: { resetAttempts?: boolean } = {}): Promise<void> {
  await db
    .insertInto('jobs')
    .values(newJobRow(job, dueAt, now))
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        due_at: eb.ref('excluded.due_at'),
        updated_at: eb.ref('excluded.updated_at'),
        ...(options.resetAttempts ? { attempts: 0 } : {}),
      })),
    )
    .execute();
}

/** Schedules a listing's probe (publish, and a check-in on a dormant listing). */
export const scheduleProbe = (db: Executor, listingId: string, dueAt: string, now: string, options: { resetAttempts?: boolean } = {}) =>
  scheduleJob(db, { id: probeJobId(listingId), kind: 'probe', subject: listingId }, dueAt, now, options);

function claimable(db: Db, nowIso: string, limit: number, id?: string) {
  let q = db.kysely
    .selectFrom('jobs')
    .select('id')
    .where('due_at', '<=', nowIso)
    .where(leaseFree(nowIso));
  if (id !== undefined) q = q.where('id', '=', id);
  q = q.orderBy('due_at').orderBy('id').limit(limit);
  // The dialect difference: PostgreSQL lets concurrent claimers skip rows another one is taking.
  return db.engine === 'postgres' ? q.forUpdate().skipLocked() : q;
}

/** Leases up to `limit` due jobs (or the one job `id`) to the caller until now + leaseMs. */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number, id?: string): Promise<Lease[]> {
  if (limit <= 0) return [];
  const nowIso = iso(now);
  const token = randomUUID();
  const rows = await db.kysely
    .updateTable('jobs')
    .set({ lease_token: token, lease_until: iso(new Date(now.getTime() + leaseMs)), updated_at: nowIso })
    .where('id', 'in', claimable(db, nowIso, limit, id))
    // Repeated here so a row another claimer took between the subquery and the update is left alone.
    .where(leaseFree(nowIso))
    .returningAll()
    .execute();
  return rows as Lease[];
}

/** True while the lease is still the caller's; takes the row lock on PostgreSQL until commit. */
export async function stillHeld(trx: Executor, db: Db, lease: Lease): Promise<boolean> {
  let q = trx.selectFrom('jobs').select('id').where('id', '=', lease.id).where('lease_token', '=', lease.lease_token);
  if (db.engine === 'postgres') q = q.forUpdate();
  return Boolean(await q.executeTakeFirst());
}

/** Ends a lease: the job is next due at `dueAt` with `attempts` consecutive failures. */
export async function completeJob(trx: Executor, lease: Lease, dueAt: string, attempts: number, now: string): Promise<boolean> {
  const res = await trx
    .updateTable('jobs')
    .set({ due_at: dueAt, attempts, lease_token: null, lease_until: null, updated_at: now })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.lease_token)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Gives a lease back unfinished, due as before, so another instance can run the job at once. */
export async function releaseLease(db: Executor, lease: Lease, now: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ lease_token: null, lease_until: null, updated_at: now })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.lease_token)
    .execute();
}

/** Creates the job due at `dueAt` unless it exists (singletons every instance ensures at start). */
export async function ensureJob(db: Executor, job: JobSpec, dueAt: string): Promise<void> {
  await db
    .insertInto('jobs')
    .values(newJobRow(job, dueAt, dueAt))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function removeJob(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).execute();
}
