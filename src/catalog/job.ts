// The periodic catalog sync. Periodic tasks run inside the sweep's transaction, and a network sync
// must not hold a transaction open for minutes, so the task (`catalog.sync`, every
// CATALOG_SYNC_INTERVAL_S) only makes the `catalog_sync` job due now; the job, one at a time across
// instances (its pool has one slot, and the sync's own lock guards against the CLI and a taken-over
// lease), pulls what changed upstream page by page, each page in a short transaction of its own.
// A failed run is retried after CATALOG_SYNC_RETRY_S (doubling, capped at the interval) and resumes
// at the page it stopped on; a run cut short by shutdown gives its lease back for the next start.
import type { BaseServices } from '../platform/operation.ts';
import type { JobHandler, PeriodicTask } from '../platform/jobs/runner.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { completeJob, releaseLease, scheduleJob, stillHeld, type JobSpec, type Lease } from '../platform/jobs/store.ts';
import type { Config } from '../config.ts';
import type { Resolver } from '../platform/net/guarded-client.ts';
import { createCatalogClient } from './client.ts';
import { syncCatalog } from './sync.ts';
import { SyncBusy } from './sync-state.ts';

export const CATALOG_SYNC_JOB = 'catalog_sync';
export const catalogSyncJob: JobSpec = { id: CATALOG_SYNC_JOB, kind: CATALOG_SYNC_JOB, subject: null };

/** The sweep's task: makes the sync job due now (it only schedules; the job does the network work). */
export const catalogSyncTask = (config: Config): PeriodicTask => ({
  name: 'catalog.sync',
  periodS: config.catalogSyncIntervalS,
  async run(trx, now) {
    if (!config.upstreamRegistryUrl) return;
    await scheduleJob(trx, catalogSyncJob, iso(now), iso(now));
  },
});

export function retryDelayMs(config: Config, failuresInRow: number): number {
  return Math.min(config.catalogSyncIntervalS, config.catalogSyncRetryS * 2 ** Math.max(0, failuresInRow - 1)) * 1000;
}

type Deps = Pick<BaseServices, 'db' | 'clock' | 'log' | 'config'>;

export class CatalogSyncJob implements JobHandler {
  constructor(
    private readonly services: Deps,
    /** Tests may resolve names their own way; production uses the system resolver. */
    private readonly seams: { resolver?: Resolver } = {},
  ) {}

  async run(lease: Lease, stopping: AbortSignal): Promise<void> {
    const { db, clock, log, config } = this.services;
    const upstream = config.upstreamRegistryUrl;
    let attempts = 0;
    let next = config.catalogSyncIntervalS * 1000;
    if (upstream) {
      const client = createCatalogClient(config, this.seams);
      try {
        const result = await syncCatalog(
          { db: db.kysely, clock },
          {
            upstream,
            fetcher: client,
            pageSize: config.catalogSyncPageSize,
            leaseS: config.catalogSyncLeaseS,
            overlapS: config.catalogSyncOverlapS,
            signal: stopping,
          },
        );
        const { skippedReasons: _reasons, ...summary } = result;
        log.info(summary, 'catalog sync finished');
      } catch (err) {
        if (stopping.aborted) {
          // Shutdown: the run's cursor is saved; the job is handed back for the next start.
          await releaseLease(db.kysely, lease, iso(clock.now()));
          return;
        }
        attempts = err instanceof SyncBusy ? lease.attempts : lease.attempts + 1;
        next = err instanceof SyncBusy ? config.catalogSyncRetryS * 1000 : retryDelayMs(config, attempts);
        log.warn({ err: err instanceof Error ? err.message : String(err), retryInS: next / 1000 }, 'catalog sync stopped; it resumes where it stopped');
      } finally {
        await client.destroy();
      }
    }
    const now = clock.now();
    await inTransaction(db.kysely, async (trx) => {
      if (await stillHeld(trx, lease)) await completeJob(trx, lease, iso(new Date(now.getTime() + next)), attempts, iso(now));
    });
  }
}
