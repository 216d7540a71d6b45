// The jobs table (DESIGN.md stack row "jobs"): due work claimed under a lease, so on one instance
// or many a job is never run twice at once, and a job whose runner died is taken over once its
// lease expires. A claim takes waiting work first (priority 0), then the longest due, and never
// more of one fairness group (a probe's host) than the caller may still run of it. On PostgreSQL
// concurrent claimers skip rows another one is taking (FOR UPDATE SKIP LOCKED); SQLite has one
// writer at a time.
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/dialect.ts';
import { inTransaction, takesRowLocks, typed, type Executor } from '../db/executor.ts';
import { iso } from '../clock.ts';
import type { JobTables, JobsTable } from './tables.ts';

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

const q = (ex: Executor) => typed<JobTables>(ex);

/** The id of a per-subject job. */
export const jobId = (kind: string, subject: string) => `${kind}:${subject}`;

const newJobRow = (job: JobSpec, dueAt: string, now: string) => ({
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
const leaseFree = (nowIso: string) => (eb: ExpressionBuilder<JobTables, 'jobs'>) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowIso)]);

/**
 * Creates the job or moves its due time (and priority and group, when given); `resetAttempts`
 * also clears its failure count.
 */
export async function scheduleJob(db: Executor, job: JobSpec, dueAt: string, now: string, options: { resetAttempts?: boolean } = {}): Promise<void> {
  await q(db)
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
    )
    .execute();
}

export async function findJob(db: Executor, id: string): Promise<Job | undefined> {
  return q(db).selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Which due jobs a claim may take. */
export interface ClaimFilter {
  kind?: string;
  /** Only the job with this id. */
  id?: string;
  /** Per fairness group: how many more the caller may run now. Groups not named get `groupCap`. */
  groupRoom?: Map<string, number>;
  groupCap?: number;
}

/** The ids a claim may take: due, free, waiting work first, at most the room left per group. */
function candidates(db: Db, nowIso: string, limit: number, filter: ClaimFilter) {
  const k = q(db.kysely);
  let due = k.selectFrom('jobs').where('due_at', '<=', nowIso).where(leaseFree(nowIso));
  if (filter.id !== undefined) due = due.where('id', '=', filter.id);
  if (filter.kind !== undefined) due = due.where('kind', '=', filter.kind);
  const full = [...(filter.groupRoom ?? [])].filter(([, room]) => room <= 0).map(([g]) => g);
  if (full.length) due = due.where((eb) => eb.or([eb('group_key', 'is', null), eb('group_key', 'not in', full)]));

  const ids = filter.groupCap === undefined ? due.select('id').orderBy('priority').orderBy('due_at').orderBy('id').limit(limit) : fairCandidates();
  // The dialect difference: PostgreSQL lets concurrent claimers skip rows another one is taking.
  return db.engine === 'postgres' ? ids.forUpdate().skipLocked() : ids;

  function fairCandidates() {
    const cap = filter.groupCap!;
    // Rank each group's due jobs; a group contributes no more than the room it has left.
    const room = [...(filter.groupRoom ?? [])].filter(([, r]) => r > 0);
    const allowance = room.length
      ? sql`case ${sql.join(room.map(([g, r]) => sql`when group_key = ${g} then ${sql.lit(Math.floor(r))}`), sql` `)} else ${sql.lit(Math.floor(cap))} end`
      : sql.lit(Math.floor(cap));
    const ranked = due.select([
      'id',
      'group_key',
      sql<number>`row_number() over (partition by coalesce(group_key, id) order by priority, due_at, id)`.as('rn'),
    ]);
    const fair = k
      .selectFrom(ranked.as('r'))
      .select('r.id')
      .where(sql<boolean>`r.rn <= (case when r.group_key is null then 1 else ${allowance} end)`);
    return k.selectFrom('jobs').select('id').where('id', 'in', fair).where(leaseFree(nowIso)).orderBy('priority').orderBy('due_at').orderBy('id').limit(limit);
  }
}

/** How far down the due queue a fair claim looks before it ranks every due job of every group. */
const HEAD_FACTOR = 16;

/**
 * The fast path of a fair claim: the head of the due queue (waiting work first, then the longest
 * due), kept in order while each group has room. Undefined when the head could not fill the claim
 * while more is due (one group crowds the head): then every group's jobs must be ranked.
 */
async function fairHead(ex: Executor, nowIso: string, limit: number, f: ClaimFilter): Promise<string[] | undefined> {
  let sel = q(ex).selectFrom('jobs').select(['id', 'group_key']).where('due_at', '<=', nowIso).where(leaseFree(nowIso));
  if (f.kind !== undefined) sel = sel.where('kind', '=', f.kind);
  const head = await sel.orderBy('priority').orderBy('due_at').orderBy('id').limit(limit * HEAD_FACTOR).execute();
  const room = new Map(f.groupRoom ?? []);
  const picked: string[] = [];
  for (const job of head) {
    if (picked.length === limit) break;
    if (job.group_key === null) {
      picked.push(job.id);
      continue;
    }
    const left = room.get(job.group_key) ?? f.groupCap!;
    if (left <= 0) continue;
    room.set(job.group_key, left - 1);
    picked.push(job.id);
  }
  return picked.length === limit || head.length < limit * HEAD_FACTOR ? picked : undefined;
}

/** Leases up to `limit` due jobs (see ClaimFilter; a string is one job id) to the caller until now + leaseMs. */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number, filter: ClaimFilter | string = {}): Promise<Lease[]> {
  if (limit <= 0) return [];
  const nowIso = iso(now);
  const token = randomUUID();
  const f = typeof filter === 'string' ? { id: filter } : filter;
  const lease = (ex: Executor, ids: string[] | ReturnType<typeof candidates>) =>
    q(ex)
      .updateTable('jobs')
      .set({ lease_token: token, lease_until: iso(new Date(now.getTime() + leaseMs)), updated_at: nowIso })
      .where('id', 'in', ids)
      // Repeated here so a row another claimer took between the selection and the update is left alone.
      .where(leaseFree(nowIso))
      .returningAll()
      .execute();
  if (f.groupCap === undefined) return (await lease(db.kysely, candidates(db, nowIso, limit, f))) as Lease[];
  // A fair claim first looks at the head of the queue, which is cheap and usually enough; only when
  // one group crowds the head are all due jobs ranked per group (measured: ranking every due job on
  // every claim cost 8 ms at 10,000 due and 100 ms at 100,000 on SQLite).
  const fair = async (ex: Executor) => {
    const head = await fairHead(ex, nowIso, limit, f);
    if (head) return head.length ? lease(ex, head) : [];
    return lease(ex, candidates(db, nowIso, limit, f));
  };
  if (db.engine !== 'postgres') return (await inTransaction(db.kysely, fair)) as Lease[];
  // On PostgreSQL the selection cannot see rows a concurrent claimer is taking (SKIP LOCKED applies
  // after ranking), so two instances claiming at once would pick the same rows and the second would
  // get none. Fair claims of one kind therefore take turns (a transaction-scoped advisory lock, held
  // for the milliseconds of one claim), and each sees the leases of the claim before it.
  return (await inTransaction(db.kysely, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`rollcall.claim:${f.kind ?? ''}`}))`.execute(trx);
    return fair(trx);
  })) as Lease[];
}

/** Leases one job whether or not it is due (work asked for now, such as check_liveness); undefined while another holds it. */
export async function claimJob(db: Db, id: string, now: Date, leaseMs: number): Promise<Lease | undefined> {
  const nowIso = iso(now);
  const row = await q(db.kysely)
    .updateTable('jobs')
    .set({ lease_token: randomUUID(), lease_until: iso(new Date(now.getTime() + leaseMs)), updated_at: nowIso })
    .where('id', '=', id)
    .where(leaseFree(nowIso))
    .returningAll()
    .executeTakeFirst();
  return row as Lease | undefined;
}

/** True while the lease is still the caller's; takes the row lock on PostgreSQL until commit. */
export async function stillHeld(trx: Executor, lease: Lease): Promise<boolean> {
  let sel = q(trx).selectFrom('jobs').select('id').where('id', '=', lease.id).where('lease_token', '=', lease.lease_token);
  if (takesRowLocks(trx)) sel = sel.forUpdate();
  return Boolean(await sel.executeTakeFirst());
}

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

/** Gives a lease back unfinished, due as before, so another instance can run the job at once. */
export async function releaseLease(db: Executor, lease: Lease, now: string): Promise<void> {
  await q(db)
    .updateTable('jobs')
    .set({ lease_token: null, lease_until: null, updated_at: now })
    .where('id', '=', lease.id)
    .where('lease_token', '=', lease.lease_token)
    .execute();
}

/** Creates the job due at `dueAt` unless it exists (singletons every instance ensures at start). */
export async function ensureJob(db: Executor, job: JobSpec, dueAt: string): Promise<void> {
  await q(db)
    .insertInto('jobs')
    .values(newJobRow(job, dueAt, dueAt))
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function removeJob(db: Executor, id: string): Promise<void> {
  await q(db).deleteFrom('jobs').where('id', '=', id).execute();
}

export interface QueueStats {
  kind: string;
  due: number;
  running: number;
  oldestDueAt: string | null;
}

/** Per kind: jobs due and free, jobs under a lease, and the oldest due time (for /metrics). */
export async function queueStats(db: Executor, now: Date): Promise<QueueStats[]> {
  const nowIso = iso(now);
  const rows = await q(db)
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      eb.fn.sum<number>(eb.case().when(eb.and([eb('due_at', '<=', nowIso), leaseFree(nowIso)(eb)])).then(1).else(0).end()).as('due'),
      eb.fn.sum<number>(eb.case().when(eb.and([eb('lease_until', 'is not', null), eb('lease_until', '>=', nowIso)])).then(1).else(0).end()).as('running'),
      eb.fn.min<string>(eb.case().when(eb.and([eb('due_at', '<=', nowIso), leaseFree(nowIso)(eb)])).then(eb.ref('due_at')).else(null).end()).as('oldest'),
    ])
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, due: Number(r.due ?? 0), running: Number(r.running ?? 0), oldestDueAt: r.oldest ?? null }));
}
