// Runs leased jobs in every instance. Kinds are open: a domain registers each of its job kinds
// (handler, pool size, cap per fairness group) and its periodic tasks (period) with the runner at
// assembly; the runner knows none of them.
//
// Each kind is a pool that stays busy: when a job ends and due jobs remain, the freed slot claims
// the next at once (claims are batched to the free slots), so the tick only matters when the pool
// is idle or new work came due. A claim takes waiting work first and never more of one group than
// the pool may still run of it, so a group at its cap holds no slot another group could use. A
// handler finishes its own lease inside the transaction that writes its result, so a runner that
// lost its lease never overwrites the work of the instance that took it over.
import { Cron } from 'croner';
import { Gauge } from 'prom-client';
import type { Transaction } from 'kysely';
import type { BaseServices } from '../operation.ts';
import { iso } from '../clock.ts';
import { inTransaction, type Executor, type NoTables } from '../db/executor.ts';
import { anyDue, claimDue, completeJob, ensureJob, queueStats, releaseLease, stillHeld, type Lease, type QueueStats } from './store.ts';
import { dbFailure } from '../db/failures.ts';

export interface JobHandler {
  /** `stopping` is aborted when the instance shuts down: a handler then gives its lease back unfinished. */
  run(lease: Lease, stopping: AbortSignal): Promise<void>;
  /**
   * Runs in the claim's transaction for the jobs just leased, before any of them runs: writes that
   * mark the work as started commit with the claim instead of costing a transaction each.
   */
  claimed?(trx: Executor, leases: Lease[]): Promise<void>;
  /**
   * Runs in the transaction that gives back the lease of a run that threw (the database went away,
   * a bug): undoes what `claimed` showed, so nothing stays marked as running.
   */
  abandoned?(trx: Executor, lease: Lease): Promise<void>;
}

/**
 * A periodic task: runs in the runner's singleton `sweep` job (one lease across all instances),
 * in a transaction of its own that holds the sweep's lease, whenever a multiple of its period
 * has passed since the sweep last ran.
 */
export interface PeriodicTask {
  name: string;
  periodS: number;
  run(trx: Transaction<NoTables>, now: Date): Promise<void>;
}

export interface KindOptions {
  /** Jobs of this kind running at once in this instance (slots borrowed by acquire() included). */
  concurrency: number;
  /** At most this many jobs of one fairness group at once (a probe's host); unset: no cap. */
  groupCap?: number;
}

export interface JobRunnerOptions {
  leaseMs: number;
  /** A job whose run threw for another reason than the database runs again after this long. */
  retryAfterFailureMs?: number;
  /** Seconds between ticks; 0: no timer (tests call tick() themselves). */
  tickS: number;
  /** Seconds between runs of the sweep that carries the periodic tasks. */
  sweepIntervalS: number;
}

type Base = Pick<BaseServices, 'db' | 'clock' | 'log' | 'metrics'>;

interface Pool extends KindOptions {
  name: string;
  handler: JobHandler;
  running: number;
  groups: Map<string, number>;
  /** A fill pass in progress, and one queued behind it (which covers every caller meanwhile). */
  active?: Promise<number>;
  queued?: Promise<number>;
  /** Callers of acquire() waiting for a slot, first come first served. */
  waiters: { grant: () => void; refuse: (why: string) => void }[];
  /** The last claim found less than it asked for: the next asks first whether anything is due. */
  drained: boolean;
}

export const SWEEP_JOB = { id: 'sweep', kind: 'sweep', subject: null };

export class SlotUnavailable extends Error {}

export class JobRunner {
  private readonly pools = new Map<string, Pool>();
  private readonly tasks: PeriodicTask[] = [];
  /** Jobs and fill passes under way: idle() waits for all of them. */
  private readonly inflight = new Set<Promise<unknown>>();
  private cron?: Cron;
  private closing = false;
  private readonly stopping = new AbortController();
  /** Jobs this runner has started since it was built. */
  started = 0;
  /** Leases of runs that threw, not yet given back (the database was down): retried every tick. */
  private readonly toGiveBack = new Map<string, { pool: Pool; lease: Lease; dueAt: string }>();
  /** The database stopped answering: claims failed and wait for it (logged once, and once when it is back). */
  private paused = false;

  constructor(
    private readonly services: Base,
    private readonly options: JobRunnerOptions,
  ) {
    this.define(SWEEP_JOB.kind, { run: (lease) => this.sweep(lease) }, { concurrency: 1 });
    this.registerMetrics();
  }

  /** The queue as /metrics shows it: the table's view (all instances) read once per scrape, and this instance's pools. */
  private registerMetrics() {
    const { db, clock, metrics } = this.services;
    const registers = [metrics.registry];
    const labelNames = ['kind'] as const;
    // The gauges are collected concurrently; they share one read of the table per scrape.
    let read: { at: number; stats: Promise<QueueStats[]> } | undefined;
    const stats = () => {
      const at = Date.now();
      if (!read || at - read.at > 1000) read = { at, stats: queueStats(db.kysely, clock.now()) };
      return read.stats;
    };
    const fromTable = (name: string, help: string, value: (s: QueueStats, now: number) => number) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          const now = clock.now().getTime();
          for (const s of await stats()) this.set({ kind: s.kind }, value(s, now));
        },
      });
    fromTable('rollcall_jobs_due', 'Jobs due and not leased, by kind (all instances)', (s) => s.due);
    fromTable('rollcall_jobs_leased', 'Jobs under a lease, by kind (all instances)', (s) => s.running);
    fromTable('rollcall_jobs_oldest_due_seconds', 'How long the oldest due job has waited, by kind (0 when none)', (s, now) =>
      s.oldestDueAt ? Math.max(0, (now - new Date(s.oldestDueAt).getTime()) / 1000) : 0,
    );
    const runningByKind = () => this.runningByKind();
    new Gauge({
      name: 'rollcall_jobs_running',
      help: 'Jobs running in this instance, by kind (slots lent to on-demand work included)',
      labelNames,
      registers,
      collect() {
        for (const [kind, n] of Object.entries(runningByKind())) this.set({ kind }, n);
      },
    });
  }

  /** Registers a job kind: its handler, its pool size and its cap per fairness group. */
  define(kind: string, handler: JobHandler, options: KindOptions): void {
    if (this.pools.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    this.pools.set(kind, { ...options, concurrency: Math.max(1, options.concurrency), name: kind, handler, running: 0, groups: new Map(), waiters: [], drained: false });
  }

  /** Registers a periodic task (see PeriodicTask). */
  every(task: PeriodicTask): void {
    if (this.tasks.some((t) => t.name === task.name)) throw new Error(`periodic task ${task.name} is registered twice`);
    this.tasks.push(task);
  }

  /** Creates the singleton rows every instance needs (idempotent); call once before ticking. */
  async prepare(): Promise<void> {
    await ensureJob(this.services.db.kysely, SWEEP_JOB, iso(this.services.clock.now()));
  }

  start(): void {
    if (this.options.tickS <= 0 || this.cron) return;
    this.cron = new Cron('* * * * * *', { interval: this.options.tickS, protect: true, catch: (err) => this.services.log.error({ err }, 'job tick failed') }, () =>
      this.tick().then(() => undefined),
    );
  }

  /** Fills every pool with due jobs; returns how many jobs this call started. */
  async tick(): Promise<number> {
    let started = 0;
    try {
      await this.giveBackPending();
      for (const pool of this.pools.values()) started += await this.fill(pool);
    } catch (err) {
      if (!this.databaseDown(err)) throw err;
    }
    return started;
  }

  /**
   * Whether `err` is the database not answering; if so the runner is paused until a claim works
   * again (claims keep being tried on every tick and wake-up, so it resumes by itself).
   */
  private databaseDown(err: unknown): boolean {
    if (!dbFailure(err)) return false;
    if (!this.paused) this.services.log.warn({ err }, 'the database is unavailable: jobs wait for it');
    this.paused = true;
    return true;
  }

  private resumed(): void {
    if (!this.paused) return;
    this.paused = false;
    this.services.log.info('the database answers again: jobs resume');
  }

  /**
   * Gives back the lease of a run that threw, due again at once when the database was the cause
   * (the next claim after it answers runs it) or after retryAfterFailureMs otherwise; the handler
   * undoes what its claim showed. While the database is down the hand-back waits for a later tick.
   */
  private async giveBack(pool: Pool, lease: Lease, dueAt: string): Promise<void> {
    this.toGiveBack.set(lease.lease_token, { pool, lease, dueAt });
    try {
      await inTransaction(
        this.services.db.kysely,
        async (trx) => {
          if (!(await stillHeld(trx, lease))) return;
          await pool.handler.abandoned?.(trx, lease);
          await releaseLease(trx, lease, iso(this.services.clock.now()), dueAt);
        },
        { idempotent: true },
      );
      this.toGiveBack.delete(lease.lease_token);
    } catch (err) {
      if (!this.databaseDown(err)) {
        this.toGiveBack.delete(lease.lease_token);
        throw err;
      }
    }
  }

  private async giveBackPending(): Promise<void> {
    for (const { pool, lease, dueAt } of [...this.toGiveBack.values()]) await this.giveBack(pool, lease, dueAt);
  }

  /**
   * Asks a pool to claim due work now (publish's wake-up). When its slots are full nothing is
   * lost: the job stays due in the table, and the next slot to free claims waiting work first.
   */
  wake(kind: string): void {
    const pool = this.pools.get(kind);
    if (!pool) return;
    // Whoever wakes the pool has just made work due: the claim need not ask first.
    pool.drained = false;
    this.fill(pool).catch((err) => this.databaseDown(err) || this.services.log.error({ err, kind }, 'job wake-up failed'));
  }

  /** Jobs of each kind running in this instance now (for /metrics). */
  runningByKind(): Record<string, number> {
    return Object.fromEntries([...this.pools.values()].map((p) => [p.name, p.running]));
  }

  /**
   * Takes one slot of a kind's pool for work done outside a job (an on-demand probe shares the
   * instance's outbound budget with the runner), waiting up to `waitMs`; returns its release.
   */
  async acquire(kind: string, waitMs: number): Promise<() => void> {
    const pool = this.pools.get(kind);
    if (!pool) throw new Error(`no job kind ${kind}`);
    if (this.closing) throw new SlotUnavailable('the instance is stopping');
    if (pool.running < pool.concurrency) {
      pool.running++;
      return this.releaser(pool);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser(pool));
        },
        refuse: (why: string) => {
          clearTimeout(timer);
          reject(new SlotUnavailable(why));
        },
      };
      const timer = setTimeout(() => {
        pool.waiters.splice(pool.waiters.indexOf(waiter), 1);
        reject(new SlotUnavailable(`all ${pool.concurrency} ${kind} slots stayed busy for ${waitMs} ms`));
      }, waitMs);
      pool.waiters.push(waiter);
    });
  }

  private releaser(pool: Pool): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.slotFreed(pool);
    };
  }

  /** A slot came free: a waiting acquire() takes it over, else the pool claims more due work. */
  private slotFreed(pool: Pool): void {
    const waiter = pool.waiters.shift();
    if (waiter) {
      waiter.grant();
      return;
    }
    pool.running--;
    if (!this.closing) this.fill(pool).catch((err) => this.databaseDown(err) || this.services.log.error({ err, kind: pool.name }, 'job claim failed'));
  }

  /** One fill pass at a time per pool; calls made meanwhile share the one queued behind it. */
  private fill(pool: Pool): Promise<number> {
    if (pool.queued) return pool.queued;
    const previous = pool.active;
    if (!previous) return this.beginPass(pool);
    const queued = previous.catch(() => 0).then(() => this.beginPass(pool));
    pool.queued = queued;
    this.track(queued);
    return queued;
  }

  private beginPass(pool: Pool): Promise<number> {
    pool.queued = undefined;
    const pass: Promise<number> = this.fillPass(pool).finally(() => {
      if (pool.active === pass) pool.active = undefined;
    });
    pool.active = pass;
    this.track(pass);
    return pass;
  }

  private async fillPass(pool: Pool): Promise<number> {
    let started = 0;
    while (!this.closing) {
      const free = pool.concurrency - pool.running;
      if (free <= 0) break;
      const groupRoom = pool.groupCap === undefined ? undefined : new Map([...pool.groups].map(([g, n]) => [g, pool.groupCap! - n]));
      const now = this.services.clock.now();
      // A slot that frees while nothing is due (the common case once a queue is worked off) costs
      // one read instead of a claim's transaction (on PostgreSQL four round trips and a lock). A
      // claim that is one statement anyway (no group cap, no claim hook) is simply made.
      const claimIsTransaction = pool.groupCap !== undefined || pool.handler.claimed !== undefined;
      if (pool.drained && claimIsTransaction && !(await anyDue(this.services.db.kysely, iso(now), pool.name))) {
        this.resumed();
        break;
      }
      const leases = await claimDue(this.services.db, now, this.options.leaseMs, free, {
        kind: pool.name,
        ...(pool.groupCap !== undefined ? { groupCap: pool.groupCap, groupRoom } : {}),
      }, pool.handler.claimed?.bind(pool.handler));
      this.resumed();
      pool.drained = leases.length < free;
      for (const lease of leases) this.start1(pool, lease);
      started += leases.length;
      if (leases.length < free) break; // nothing more is due (or what is due waits for its group)
    }
    return started;
  }

  private start1(pool: Pool, lease: Lease) {
    this.started++;
    pool.running++;
    const group = lease.group_key;
    if (group !== null) pool.groups.set(group, (pool.groups.get(group) ?? 0) + 1);
    const run = pool.handler
      .run(lease, this.stopping.signal)
      .then(() => void this.services.metrics.jobs.inc({ kind: lease.kind, result: 'done' }))
      .catch(async (err) => {
        // Never blamed on the job's subject: the lease is given back and the job runs again.
        const database = this.databaseDown(err);
        this.services.metrics.jobs.inc({ kind: lease.kind, result: database ? 'db_unavailable' : 'error' });
        if (!database) this.services.log.error({ err, job: lease.id }, 'job failed: it runs again later');
        const now = this.services.clock.now().getTime();
        await this.giveBack(pool, lease, iso(new Date(database ? now : now + (this.options.retryAfterFailureMs ?? 60_000)))).catch((e) =>
          this.services.log.error({ err: e, job: lease.id }, 'a failed job could not be given back; its lease lapses instead'),
        );
      })
      .finally(() => {
        if (group !== null) {
          const n = (pool.groups.get(group) ?? 1) - 1;
          if (n > 0) pool.groups.set(group, n);
          else pool.groups.delete(group);
        }
        this.slotFreed(pool);
      });
    this.track(run);
  }

  private track(work: Promise<unknown>) {
    const tracked = work.then(
      () => undefined,
      () => undefined,
    );
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked));
  }

  /** The sweep: each periodic task whose period came round since the last run, then the next due time. */
  private async sweep(lease: Lease): Promise<void> {
    const { db, clock, log } = this.services;
    const now = clock.now();
    const intervalMs = this.options.sweepIntervalS * 1000;
    const previous = new Date(lease.due_at).getTime() - intervalMs;
    for (const task of this.tasks) {
      const periodMs = task.periodS * 1000;
      if (Math.floor(now.getTime() / periodMs) <= Math.floor(previous / periodMs)) continue;
      try {
        await inTransaction(db.kysely, async (trx) => {
          if (await stillHeld(trx, lease)) await task.run(trx, now);
        });
      } catch (err) {
        // One task failing does not hold the others up; it runs again next period.
        log.error({ err, task: task.name }, 'periodic task failed');
      }
    }
    await inTransaction(db.kysely, async (trx) => {
      if (await stillHeld(trx, lease)) await completeJob(trx, lease, iso(new Date(now.getTime() + intervalMs)), 0, iso(now));
    });
  }

  /** Resolves when every job and claim started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.all(this.inflight);
  }

  /** Takes no new jobs and tells running ones the instance is stopping. */
  stop(): void {
    this.closing = true;
    this.cron?.stop();
    this.stopping.abort();
    for (const pool of this.pools.values()) for (const waiter of pool.waiters.splice(0)) waiter.refuse('the instance is stopping');
  }

  async close(): Promise<void> {
    this.stop();
    await this.idle();
  }
}
