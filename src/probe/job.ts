// The probe job: one per listing, due at once after publishing, then every PROBE_INTERVAL_H while
// the listing is healthy, and with a doubling backoff (PROBE_BACKOFF_S, capped at the interval)
// while its probes fail. A whole probe has a deadline (PROBE_DEADLINE_S) well under the lease, so
// a stalling host costs one slot for seconds. A listing failing for PROBE_RETIRE_AFTER_H is retired
// from probing until its publisher republishes it.
import type { BaseServices } from '../platform/operation.ts';
import type { JobHandler } from '../platform/jobs/runner.ts';
import { HOUR_MS, iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { completeJob, releaseLease, removeJob, stillHeld, URGENT, type Lease } from '../platform/jobs/store.ts';
import { hostKey } from '../platform/net/host-key.ts';
import { markProbing, spellingOwnedByOther, updateListing, type Lane, type ListingRow } from '../listings/store.ts';
import type { Config } from '../config.ts';
import type { ProbeRuntime } from './runtime.ts';
import type { ProbeReport } from './prober.ts';
import { applyProbe } from './apply.ts';
import { loadProbeState } from './store.ts';
import { ownerOf } from '../owners/store.ts';

export function nextProbeDelayMs(config: Config, failuresInRow: number): number {
  const interval = config.probeIntervalH * HOUR_MS;
  if (failuresInRow === 0) return interval;
  return Math.min(interval, config.probeBackoffS * 1000 * 2 ** (failuresInRow - 1));
}

export interface ProbeOutcome {
  /** Counted failures in a row after this probe. */
  failuresInRow: number;
  failingSince: string | null;
  retire: boolean;
  nextDueMs: number;
}

/**
 * What a probe's result means for the schedule. A probe somebody asked for (urgent: a republish,
 * a check-in) that fails on a Live or dormant listing is not counted toward dormancy: dormancy
 * needs scheduled probes failing, spaced by the backoff, which no burst of requests can make.
 */
export function probeOutcome(
  config: Config,
  report: Pick<ProbeReport, 'live'>,
  job: { attempts: number; urgent: boolean; lane: Lane; failingSince: string | null },
  now: Date,
): ProbeOutcome {
  if (report.live) return { failuresInRow: 0, failingSince: null, retire: false, nextDueMs: nextProbeDelayMs(config, 0) };
  const onDemand = job.urgent && (job.lane === 'active' || job.lane === 'dormant');
  // The schedule goes on as the counted failures say: a requested probe can neither advance nor
  // delay the probes that decide dormancy.
  if (onDemand) return { failuresInRow: job.attempts, failingSince: job.failingSince, retire: false, nextDueMs: nextProbeDelayMs(config, job.attempts) };
  const failingSince = job.failingSince ?? iso(now);
  const retire = now.getTime() - new Date(failingSince).getTime() >= config.probeRetireAfterH * HOUR_MS;
  const failuresInRow = job.attempts + 1;
  return { failuresInRow, failingSince, retire, nextDueMs: nextProbeDelayMs(config, failuresInRow) };
}

const leaseKey = (lease: Lease) => `${lease.id} ${lease.lease_token}`;

export class ProbeJob implements JobHandler {
  /** Each claimed job's listing as it was before it showed `probing` (null: gone), until its run begins. */
  private readonly claimedRows = new Map<string, ListingRow | null>();

  constructor(
    private readonly services: Pick<BaseServices, 'db' | 'clock' | 'log' | 'config' | 'metrics' | 'budgets'>,
    private readonly probe: Pick<ProbeRuntime, 'prober' | 'metrics'>,
  ) {}

  /**
   * The host's outbound budget has no room this hour: the job waits for the next one in its queue,
   * the listing keeps its lane (lane_reason host_budget says why it waits), nothing counts as a failure.
   */
  private async deferForBudget(lease: Lease, row: ListingRow, shownProbing: boolean, retryAfterS: number): Promise<void> {
    const { db, clock, metrics } = this.services;
    const now = clock.now();
    await inTransaction(db.kysely, async (trx) => {
      if (!(await stillHeld(trx, lease))) return;
      await updateListing(trx, row.id, { ...(shownProbing ? { lane: row.lane } : {}), lane_reason: 'host_budget' }, iso(now));
      await completeJob(trx, lease, iso(new Date(now.getTime() + retryAfterS * 1000)), lease.attempts, iso(now), hostKey(row.url));
    });
    metrics.jobs.inc({ kind: lease.kind, result: 'host_budget' });
  }

  /** The lane each running job's listing showed before its claim marked it `probing`. */
  private readonly shownBefore = new Map<string, ListingRow['lane']>();

  /** A run that threw (the database went away, a bug): the listing shows again what it showed before; nothing is applied. */
  async abandoned(trx: Executor, lease: Lease): Promise<void> {
    const key = leaseKey(lease);
    const lane = this.shownBefore.get(key) ?? this.claimedRows.get(key)?.lane;
    this.shownBefore.delete(key);
    this.claimedRows.delete(key);
    if (lane === 'queued' || lane === 'failed') await updateListing(trx, lease.subject!, { lane }, iso(this.services.clock.now()));
  }

  /** In the claim's transaction: the claimed listings show `probing` (one write for the batch). */
  async claimed(trx: Executor, leases: Lease[]): Promise<void> {
    const rows = await markProbing(trx, leases.map((l) => l.subject!), iso(this.services.clock.now()));
    for (const lease of leases) this.claimedRows.set(leaseKey(lease), rows.get(lease.subject!) ?? null);
  }

  async run(lease: Lease, stopping: AbortSignal): Promise<void> {
    const { db } = this.services;
    const key = leaseKey(lease);
    // A lease taken without the pool's claim (`rollcall list` running one job here) marks it now.
    if (!this.claimedRows.has(key)) await inTransaction(db.kysely, (trx) => this.claimed(trx, [lease]));
    const row = this.claimedRows.get(key);
    this.claimedRows.delete(key);
    if (!row) return removeJob(db.kysely, lease.id);
    const shownProbing = row.lane === 'queued' || row.lane === 'failed';
    // Kept for `abandoned` when the run throws (the runner calls it then); dropped when it ends well.
    this.shownBefore.set(key, row.lane);
    await this.probeAndApply(lease, row, shownProbing, stopping);
    this.shownBefore.delete(key);
  }

  private async probeAndApply(lease: Lease, row: ListingRow, shownProbing: boolean, stopping: AbortSignal): Promise<void> {
    const { db, clock, config, log, metrics } = this.services;
    const { prober, metrics: probeMetrics } = this.probe;
    const id = row.id;
    // Every request of the probe counts against its host's hourly budget; a claimed listing's
    // probes are its owner's own work, which public work cannot crowd out (host-budgets.ts).
    const { budgets } = this.services;
    const share = budgets.limits.requestsPerHour > 0 && (await ownerOf(db.kysely, id))?.lapsed_at === null ? 'owner' : 'public';
    const noRoom = await budgets.noRoomFor(hostKey(row.url), share);
    if (noRoom !== undefined) return this.deferForBudget(lease, row, shownProbing, noRoom);
    const stopTimer = probeMetrics.probeSeconds.startTimer();
    const report = await prober.probe(row.url, {
      hint: row.kind,
      takenByOther: (url) => spellingOwnedByOther(db.kysely, url, id),
      signal: AbortSignal.any([stopping, AbortSignal.timeout(config.probeDeadlineS * 1000)]),
      onPhase: (phase, ms) => probeMetrics.phaseSeconds.observe({ phase }, ms / 1000),
      admit: budgets.admitter(share),
    });
    stopTimer();
    if (report.reason === 'host_budget' && !stopping.aborted) return this.deferForBudget(lease, row, shownProbing, budgets.hourRetryAfterS());
    if (stopping.aborted) {
      // Cut short by shutdown: the failure is ours, not the listing's. Nothing is applied, and the
      // lane shows what it showed before this probe began.
      const now = iso(clock.now());
      await inTransaction(db.kysely, async (trx) => {
        if (shownProbing) await updateListing(trx, id, { lane: row.lane }, now);
        await releaseLease(trx, lease, now);
      });
      metrics.jobs.inc({ kind: lease.kind, result: 'released' });
      return;
    }
    probeMetrics.probes.inc({ kind: report.kind, outcome: report.live ? 'live' : report.reason ?? 'failed' });
    const now = clock.now();
    const applied = await inTransaction(db.kysely, async (trx) => {
      // A runner whose lease expired has been replaced: its late result is dropped, never applied twice.
      if (!(await stillHeld(trx, lease))) return undefined;
      const state = await loadProbeState(trx, id);
      const outcome = probeOutcome(config, report, { attempts: lease.attempts, urgent: lease.priority === URGENT, lane: row.lane, failingSince: state?.failing_since ?? null }, now);
      const { duplicateOf } = await applyProbe(trx, id, report, { now, graceDays: config.talkGraceDays, ...outcome });
      // A duplicate has nothing of its own to probe: its spellings now reach the original listing.
      if (outcome.retire || duplicateOf) await removeJob(trx, lease.id);
      else await completeJob(trx, lease, iso(new Date(now.getTime() + outcome.nextDueMs)), outcome.failuresInRow, iso(now), hostKey(row.url));
      return outcome;
    });
    if (!applied) metrics.jobs.inc({ kind: lease.kind, result: 'lost_lease' });
    log.info({ listingId: id, live: report.live, reason: report.reason, score: report.score, applied: Boolean(applied), retired: applied?.retire }, 'probe finished');
  }
}
