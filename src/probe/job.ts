// The probe job: one per listing, due at once after publishing, then every PROBE_INTERVAL_H while
// the listing is healthy, and with a doubling backoff (PROBE_BACKOFF_S, capped at the interval)
// while its probes fail. A whole probe has a deadline (PROBE_DEADLINE_S) well under the lease, so
// a stalling host costs one slot for seconds. A listing failing for PROBE_RETIRE_AFTER_H is retired
// from probing until its publisher republishes it.
import { reservedNames, type ReservedNames } from '../listings/name-key.ts';
import type { BaseServices } from '../platform/operation.ts';
import type { JobHandler } from '../platform/jobs/runner.ts';
import { HOUR_MS, iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { known, together, type Part } from '../platform/db/together.ts';
import { completeJob, completeJobPart, releaseLease, removeJob, removeJobPart, stillHeldPart, URGENT, type Lease } from '../platform/jobs/store.ts';
import { hostKey } from '../platform/net/host-key.ts';
import type { HostReservation } from '../platform/budget/reservation.ts';
import { markProbingParts, spellingOwnedByOther, updateListing, type Lane, type ListingRow } from '../listings/store.ts';
import { sameSpelling } from '../listings/identity.ts';
import type { Config } from '../config.ts';
import type { ProbeRuntime } from './runtime.ts';
import type { ProbeReport } from './prober.ts';
import { applyProbe, seeProbe } from './apply.ts';
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

/**
 * Requests to its listing's host a probe counts ahead with one take of the host's budget (a probe
 * of an MCP server makes about half a dozen, an agent's two or three); those it did not make are
 * given back with its result (platform/budget/reservation.ts).
 */
export const PROBE_REQUESTS_AHEAD = 8;

/** What a claim hands a job's run: its listing as it was before it showed `probing` (null: gone), and its host's requests taken ahead. */
interface Claimed {
  row: ListingRow | null;
  /** The take ahead made with the claim (undefined: none was tried; `period` undefined: refused). */
  takenIn?: { period: string | undefined };
}

export class ProbeJob implements JobHandler {
  /** Each claimed job's listing and budget, until its run begins. */
  private readonly claimedRows = new Map<string, Claimed>();
  /** Each running job's requests taken ahead, given back by `abandoned` when the run throws. */
  private readonly reservations = new Map<string, HostReservation>();
  private readonly reservedNames: ReservedNames;

  constructor(
    private readonly services: Pick<BaseServices, 'db' | 'clock' | 'log' | 'config' | 'metrics' | 'budgets'>,
    private readonly probe: Pick<ProbeRuntime, 'prober' | 'metrics'>,
  ) {
    this.reservedNames = reservedNames(services.config);
  }

  /**
   * The host's outbound budget has no room this hour: the job waits for the next one in its queue,
   * the listing keeps its lane (lane_reason host_budget says why it waits), nothing counts as a failure.
   */
  private async deferForBudget(lease: Lease, row: ListingRow, shownProbing: boolean, retryAfterS: number, giveBack: Part<void>): Promise<void> {
    const { db, clock, metrics } = this.services;
    const now = clock.now();
    await inTransaction(db.kysely, async (trx) => {
      const [held] = await together(trx, [stillHeldPart(trx, lease), giveBack]);
      if (!held) return;
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
    const claimed = this.claimedRows.get(key);
    const lane = this.shownBefore.get(key) ?? claimed?.row?.lane;
    const reservation = this.reservations.get(key) ?? (claimed ? this.reservationOf(lease, claimed) : undefined);
    this.shownBefore.delete(key);
    this.claimedRows.delete(key);
    this.reservations.delete(key);
    if (reservation) await together(trx, [await reservation.giveBack()]);
    if (lane === 'queued' || lane === 'failed') await updateListing(trx, lease.subject!, { lane }, iso(this.services.clock.now()));
  }

  /**
   * In the claim's transaction, one batch for all the claimed jobs: their listings show `probing`,
   * and each host's budget counts its probes' requests ahead (one take per host), so a probe sends
   * no statement of its own before its requests. Counted in Redis, the takes are made before the
   * batch is sent: a claim that rolls back leaves them counted until the hour ends (an overcount).
   */
  async claimed(trx: Executor, leases: Lease[]): Promise<void> {
    const { budgets, clock } = this.services;
    const perHost = new Map<string, number>();
    for (const lease of leases) if (lease.group_key !== null) perHost.set(lease.group_key, (perHost.get(lease.group_key) ?? 0) + 1);
    const hosts = [...perHost.keys()];
    const takes = budgets.limits.requestsPerHour > 0 ? await Promise.all(hosts.map((host) => budgets.takeAheadPart(host, PROBE_REQUESTS_AHEAD, perHost.get(host)!))) : [];
    const marking = markProbingParts(trx, leases.map((l) => l.subject!), iso(clock.now()));
    const [rows, , , ...taken] = await together(trx, [...marking, ...takes]);
    const periods = new Map(hosts.map((host, i) => [host, taken[i] as string | undefined]));
    for (const lease of leases) {
      const takenIn = lease.group_key !== null && periods.has(lease.group_key) ? { period: periods.get(lease.group_key) } : undefined;
      this.claimedRows.set(leaseKey(lease), { row: rows.get(lease.subject!) ?? null, ...(takenIn ? { takenIn } : {}) });
    }
  }

  async run(lease: Lease, stopping: AbortSignal): Promise<void> {
    const { db } = this.services;
    const key = leaseKey(lease);
    // A lease taken without the pool's claim (`rollcall list` running one job here) marks it now.
    if (!this.claimedRows.has(key)) await inTransaction(db.kysely, (trx) => this.claimed(trx, [lease]));
    const claimed = this.claimedRows.get(key)!;
    this.claimedRows.delete(key);
    const reservation = this.reservationOf(lease, claimed);
    if (!claimed.row) {
      await together(db.kysely, [(await reservation?.giveBack()) ?? known(undefined)]);
      return removeJob(db.kysely, lease.id);
    }
    const row = claimed.row;
    const shownProbing = row.lane === 'queued' || row.lane === 'failed';
    // Kept for `abandoned` when the run throws (the runner calls it then); dropped when it ends well.
    this.shownBefore.set(key, row.lane);
    if (reservation) this.reservations.set(key, reservation);
    await this.probeAndApply(lease, row, shownProbing, stopping, reservation);
    this.shownBefore.delete(key);
    this.reservations.delete(key);
  }

  /**
   * Every request of the probe counts against its host's hourly budget, taken ahead with its claim
   * for the probe's own host; a claimed listing's probes are its owner's own work, which public work
   * cannot crowd out (host-budgets.ts): asked only when the public share has no room.
   */
  private reservationOf(lease: Lease, claimed: Claimed): HostReservation | undefined {
    const { budgets, db } = this.services;
    const host = lease.group_key ?? (claimed.row ? hostKey(claimed.row.url) : undefined);
    if (host === undefined || !lease.subject) return undefined;
    const subject = lease.subject;
    return budgets.reserve(host, PROBE_REQUESTS_AHEAD, async () => (await ownerOf(db.kysely, subject))?.lapsed_at === null, claimed.takenIn);
  }

  private async probeAndApply(lease: Lease, row: ListingRow, shownProbing: boolean, stopping: AbortSignal, reservation: HostReservation | undefined): Promise<void> {
    const { db, clock, config, log, metrics, budgets } = this.services;
    const { prober, metrics: probeMetrics } = this.probe;
    const id = row.id;
    const stopTimer = probeMetrics.probeSeconds.startTimer();
    const report = await prober.probe(row.url, {
      hint: row.kind,
      // The listing's own URL is its own spelling (publish claimed it for it): only another spelling
      // the probe reaches (an agent's endpoint, a redirect) can be another listing's.
      takenByOther: (url) => (sameSpelling(url, row.url) ? Promise.resolve(undefined) : spellingOwnedByOther(db.kysely, url, id)),
      signal: AbortSignal.any([stopping, AbortSignal.timeout(config.probeDeadlineS * 1000)]),
      onPhase: (phase, ms) => probeMetrics.phaseSeconds.observe({ phase }, ms / 1000),
      admit: reservation?.admit,
    });
    stopTimer();
    // What the probe did not use of the requests taken ahead goes back with what it writes.
    const giveBack = (await reservation?.giveBack()) ?? known(undefined);
    if (report.reason === 'host_budget' && !stopping.aborted) return this.deferForBudget(lease, row, shownProbing, budgets.hourRetryAfterS(), giveBack);
    if (stopping.aborted) {
      // Cut short by shutdown: the failure is ours, not the listing's. Nothing is applied, and the
      // lane shows what it showed before this probe began.
      const now = iso(clock.now());
      await inTransaction(db.kysely, async (trx) => {
        await together(trx, [giveBack]);
        if (shownProbing) await updateListing(trx, id, { lane: row.lane }, now);
        await releaseLease(trx, lease, now);
      });
      metrics.jobs.inc({ kind: lease.kind, result: 'released' });
      return;
    }
    probeMetrics.probes.inc({ kind: report.kind, outcome: report.live ? 'live' : report.reason ?? 'failed' });
    const now = clock.now();
    const applied = await this.writeResult(lease, row, report, now, giveBack);
    if (!applied) metrics.jobs.inc({ kind: lease.kind, result: 'lost_lease' });
    log.info({ listingId: id, live: report.live, reason: report.reason, score: report.score, applied: Boolean(applied), retired: applied?.retire }, 'probe finished');
  }

  /**
   * The result's one transaction: one batch reads (the lease, checked and locked first of all, and
   * what the result depends on), one batch writes (the result and the job's end). A runner whose
   * lease expired has been replaced: its late result is dropped, never applied twice.
   */
  private async writeResult(lease: Lease, row: ListingRow, report: ProbeReport, now: Date, giveBack: Part<void>): Promise<ProbeOutcome | undefined> {
    const { db, config } = this.services;
    const applied = await inTransaction(db.kysely, async (trx) => {
      const seen = await seeProbe(trx, row.id, report, now, stillHeldPart(trx, lease));
      if (!seen.held) return undefined;
      const outcome = probeOutcome(config, report, { attempts: lease.attempts, urgent: lease.priority === URGENT, lane: row.lane, failingSince: seen.state?.failing_since ?? null }, now);
      // A duplicate has nothing of its own to probe: its spellings now reach the original listing.
      const end = outcome.retire || seen.duplicateOf ? removeJobPart(trx, lease.id) : completeJobPart(trx, lease, iso(new Date(now.getTime() + outcome.nextDueMs)), outcome.failuresInRow, iso(now), hostKey(row.url));
      await applyProbe(trx, seen, report, { now, graceDays: config.talkGraceDays, reservedNames: this.reservedNames, ...outcome }, [end, giveBack]);
      return outcome;
    });
    // The requests taken ahead go back even when the result is dropped.
    if (!applied) await together(db.kysely, [giveBack]);
    return applied;
  }
}
