// The claim: leases up to a number of due jobs to the caller, waiting work first, then the longest
// due, never more of one fairness group than the caller may still run of it. On PostgreSQL
// concurrent claimers skip rows another one is taking (FOR UPDATE SKIP LOCKED); SQLite has one
// writer at a time.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/dialect.ts';
import { inTransaction, type Executor } from '../../db/executor.ts';
import { iso } from '../../clock.ts';
import { leaseFree, q, type Lease } from './job-row.ts';

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

/** How far down the due queue a fair claim looks in one read. */
const HEAD_FACTOR = 16;
/** Reads of the head, each leaving out the groups found at their cap, before every group is ranked. */
const HEAD_READS = 4;

/**
 * The fast path of a fair claim: the head of the due queue (waiting work first, then the longest
 * due), kept in order while each group has room. A group with no room left is left out of the
 * next read, so one host crowding the head costs one more read that skips its jobs, not a ranking
 * of every due job. Undefined when HEAD_READS reads could not fill the claim while more is due
 * (many groups at their cap in the head): then every group's jobs are ranked.
 */
async function fairHead(ex: Executor, nowIso: string, limit: number, f: ClaimFilter): Promise<string[] | undefined> {
  const room = new Map(f.groupRoom ?? []);
  const full = new Set([...room].filter(([, left]) => left <= 0).map(([group]) => group));
  const picked = new Set<string>();
  const window = limit * HEAD_FACTOR;
  for (let read = 0; read < HEAD_READS; read++) {
    let sel = q(ex).selectFrom('jobs').select(['id', 'group_key']).where('due_at', '<=', nowIso).where(leaseFree(nowIso));
    if (f.kind !== undefined) sel = sel.where('kind', '=', f.kind);
    if (full.size) sel = sel.where((eb) => eb.or([eb('group_key', 'is', null), eb('group_key', 'not in', [...full])]));
    // The jobs picked by an earlier read are still at the head (they are leased after): read past them.
    const size = window + picked.size;
    const head = await sel.orderBy('priority').orderBy('due_at').orderBy('id').limit(size).execute();
    for (const job of head) {
      if (picked.size === limit) break;
      if (picked.has(job.id)) continue;
      if (job.group_key === null) {
        picked.add(job.id);
        continue;
      }
      if (full.has(job.group_key)) continue;
      const left = (room.get(job.group_key) ?? f.groupCap!) - 1;
      room.set(job.group_key, left);
      picked.add(job.id);
      if (left <= 0) full.add(job.group_key);
    }
    if (picked.size === limit || head.length < size) return [...picked];
  }
  return undefined;
}

/** Writes that belong to a claim: run in its transaction right after the leases are taken. */
export type OnClaimed = (trx: Executor, leases: Lease[]) => Promise<void>;

/**
 * Leases up to `limit` due jobs (see ClaimFilter; a string is one job id) to the caller until now
 * + leaseMs. `onClaimed`, when given, runs in the claim's transaction for the leases taken (none:
 * not called), so what it writes commits or rolls back with the claim.
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number, filter: ClaimFilter | string = {}, onClaimed?: OnClaimed): Promise<Lease[]> {
  if (limit <= 0) return [];
  const nowIso = iso(now);
  const token = randomUUID();
  const f = typeof filter === 'string' ? { id: filter } : filter;
  const lease = async (ex: Executor, ids: string[] | ReturnType<typeof candidates>) =>
    (await q(ex)
      .updateTable('jobs')
      .set({ lease_token: token, lease_until: iso(new Date(now.getTime() + leaseMs)), updated_at: nowIso })
      .where('id', 'in', ids)
      // Repeated here so a row another claimer took between the selection and the update is left alone.
      .where(leaseFree(nowIso))
      .returningAll()
      .execute()) as Lease[];
  // A fair claim first looks at the head of the queue, which is cheap and usually enough; only when
  // one group crowds the head are all due jobs ranked per group (measured: ranking every due job on
  // every claim cost 8 ms at 10,000 due and 100 ms at 100,000 on SQLite).
  const take = async (ex: Executor) => {
    let leases: Lease[];
    if (f.groupCap === undefined) leases = await lease(ex, candidates(db, nowIso, limit, f));
    else {
      const head = await fairHead(ex, nowIso, limit, f);
      leases = !head ? await lease(ex, candidates(db, nowIso, limit, f)) : head.length ? await lease(ex, head) : [];
    }
    if (leases.length && onClaimed) await onClaimed(ex, leases);
    return leases;
  };
  // An unfair claim without writes of its own is one statement, no transaction needed.
  if (f.groupCap === undefined && !onClaimed) return take(db.kysely);
  if (db.engine !== 'postgres' || f.groupCap === undefined) return inTransaction(db.kysely, take);
  // On PostgreSQL the selection cannot see rows a concurrent claimer is taking (SKIP LOCKED applies
  // after ranking), so two instances claiming at once would pick the same rows and the second would
  // get none. Fair claims of one kind therefore take turns (a transaction-scoped advisory lock, held
  // for the milliseconds of one claim), and each sees the leases of the claim before it.
  return inTransaction(db.kysely, async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`rollcall.claim:${f.kind ?? ''}`}))`.execute(trx);
    return take(trx);
  });
}
