// Runs leased jobs in every instance: a croner tick claims due jobs up to the free capacity, and
// `runNow` claims one job at once (the in-process wake-up after a publish). Each handler finishes
// its own lease inside the transaction that writes its result, so a runner that lost its lease
// never overwrites the work of the instance that took it over.
import { Cron } from 'croner';
import type { Services } from '../platform/operation.ts';
import { claimDue, type Lease } from './store.ts';
import type { JobsTable } from '../platform/db/schema.ts';

export interface JobHandler {
  /** `stopping` is aborted when the instance shuts down: a handler then gives its lease back unfinished. */
  run(lease: Lease, stopping: AbortSignal): Promise<void>;
}

export interface JobRunnerOptions {
  concurrency: number;
  leaseMs: number;
  /** Seconds between ticks; 0: no timer (tests call tick() themselves). */
  tickS: number;
}

type Base = Pick<Services, 'db' | 'clock' | 'log' | 'metrics'>;

export class JobRunner {
  private readonly running = new Set<Promise<void>>();
  private readonly runningIds = new Set<string>();
  private cron?: Cron;
  private closing = false;
  private readonly stopping = new AbortController();
  /** Jobs this runner has started since it was built. */
  started = 0;

  constructor(
    private readonly services: Base,
    private readonly handlers: Record<JobsTable['kind'], JobHandler>,
    private readonly options: JobRunnerOptions,
  ) {}

  start(): void {
    if (this.options.tickS <= 0 || this.cron) return;
    this.cron = new Cron('* * * * * *', { interval: this.options.tickS, protect: true, catch: (err) => this.services.log.error({ err }, 'job tick failed') }, () =>
      this.tick().then(() => undefined),
    );
  }

  /** Claims and starts due jobs up to the free capacity; returns how many it started. */
  async tick(): Promise<number> {
    if (this.closing) return 0;
    const free = this.options.concurrency - this.running.size;
    const leases = await claimDue(this.services.db, this.services.clock.now(), this.options.leaseMs, free);
    for (const lease of leases) this.start1(lease);
    return leases.length;
  }

  /** Claims one job now if it is due and free (publish's wake-up); the tick picks it up otherwise. */
  runNow(jobId: string): Promise<boolean> {
    if (this.closing || this.runningIds.has(jobId) || this.running.size >= this.options.concurrency) return Promise.resolve(false);
    const claim = claimDue(this.services.db, this.services.clock.now(), this.options.leaseMs, 1, jobId).then(([lease]) => {
      if (lease) this.start1(lease);
      return Boolean(lease);
    });
    // Counted as running while the claim is in flight, so idle() and close() wait for it too.
    const tracked: Promise<void> = claim.then(
      () => undefined,
      () => undefined,
    ).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    return claim;
  }

  private start1(lease: Lease) {
    this.started++;
    this.runningIds.add(lease.id);
    const run: Promise<void> = this.handlers[lease.kind]
      .run(lease, this.stopping.signal)
      .then(() => void this.services.metrics.jobs.inc({ kind: lease.kind, result: 'done' }))
      .catch((err) => {
        this.services.metrics.jobs.inc({ kind: lease.kind, result: 'error' });
        this.services.log.error({ err, job: lease.id }, 'job failed');
      })
      .finally(() => {
        this.running.delete(run);
        this.runningIds.delete(lease.id);
      });
    this.running.add(run);
  }

  /** Resolves when every job started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
  }

  /** Takes no new jobs and tells running ones the instance is stopping. */
  stop(): void {
    this.closing = true;
    this.cron?.stop();
    this.stopping.abort();
  }

  async close(): Promise<void> {
    this.stop();
    await this.idle();
  }
}
