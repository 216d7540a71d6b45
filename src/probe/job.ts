// The probe job: one per listing, due at once after publishing, then every PROBE_INTERVAL_H while
// the listing is healthy, and with a doubling backoff (PROBE_BACKOFF_S, capped at the interval)
// while its probes fail.
import type { Services } from '../platform/operation.ts';
import { HOUR_MS, iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/changes.ts';
import { findListingById, updateListing, urlOwnedByOther } from '../listings/store.ts';
import { completeJob, releaseLease, removeJob, stillHeld, type Lease } from '../jobs/store.ts';
import type { JobHandler } from '../jobs/runner.ts';
import type { Config } from '../config.ts';
import { applyProbe } from './apply.ts';

export function nextProbeDelayMs(config: Config, failuresInRow: number): number {
  const interval = config.probeIntervalH * HOUR_MS;
  if (failuresInRow === 0) return interval;
  return Math.min(interval, config.probeBackoffS * 1000 * 2 ** (failuresInRow - 1));
}

export class ProbeJob implements JobHandler {
  constructor(private readonly services: Pick<Services, 'db' | 'clock' | 'log' | 'config' | 'prober' | 'metrics'>) {}

  async run(lease: Lease, stopping: AbortSignal): Promise<void> {
    const { db, clock, config, prober, log, metrics } = this.services;
    const id = lease.subject!;
    const row = await findListingById(db.kysely, id);
    if (!row) return removeJob(db.kysely, lease.id);
    if (row.lane === 'queued' || row.lane === 'failed') await updateListing(db.kysely, id, { lane: 'probing' }, iso(clock.now()));
    const stopTimer = metrics.probeSeconds.startTimer();
    const report = await prober.probe(row.url, {
      hint: row.kind,
      takenByOther: (url) => urlOwnedByOther(db.kysely, url, id),
    });
    stopTimer();
    if (stopping.aborted) {
      // Cut short by shutdown: the failure is ours, not the listing's. Nothing is applied.
      await releaseLease(db.kysely, lease, iso(clock.now()));
      metrics.jobs.inc({ kind: 'probe', result: 'released' });
      return;
    }
    metrics.probes.inc({ kind: report.kind, outcome: report.live ? 'live' : report.reason ?? 'failed' });
    const now = clock.now();
    const failuresInRow = report.live ? 0 : lease.attempts + 1;
    const applied = await inTransaction(db.kysely, async (trx) => {
      // A runner whose lease expired has been replaced: its late result is dropped, never applied twice.
      if (!(await stillHeld(trx, db, lease))) return false;
      await applyProbe(trx, id, report, { now, graceDays: config.talkGraceDays, failuresInRow });
      return completeJob(trx, lease, iso(new Date(now.getTime() + nextProbeDelayMs(config, failuresInRow))), failuresInRow, iso(now));
    });
    if (!applied) metrics.jobs.inc({ kind: 'probe', result: 'lost_lease' });
    log.info({ listingId: id, live: report.live, reason: report.reason, score: report.score, applied }, 'probe finished');
  }
}
