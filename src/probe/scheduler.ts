// The seam between publishing and probing. Publishing a listing schedules its probe job in the
// same transaction and wakes the probe pool (DESIGN.md: the first probe starts at once in the
// instance that accepted the listing, not at the next tick). A probe someone is waiting for (a
// newcomer's first, a republish, a check-in) is urgent: claims take it before routine re-probes.
// Its fairness group is the host it talks to, so one host's many listings never fill the pool.
import type { Executor } from '../platform/db/executor.ts';
import type { JobRunner } from '../platform/jobs/runner.ts';
import { findJob, jobId, scheduleJob, scheduleJobPart, URGENT } from '../platform/jobs/store.ts';
import { iso } from '../platform/clock.ts';
import { saveProbeState } from './store.ts';
import { hostKey } from '../platform/net/host-key.ts';

export const PROBE_JOB = 'probe';
export const probeJobId = (listingId: string) => jobId(PROBE_JOB, listingId);

const urgentProbe = (listing: { id: string; url: string }) => ({ id: probeJobId(listing.id), kind: PROBE_JOB, subject: listing.id, priority: URGENT, group: hostKey(listing.url) });

/** Schedules a listing's probe now-ish for someone waiting (publish, republish, a check-in on a dormant listing). */
export const scheduleProbe = (ex: Executor, listing: { id: string; url: string }, dueAt: string, now: string, options: { resetAttempts?: boolean } = {}) =>
  scheduleJob(ex, urgentProbe(listing), dueAt, now, options);

/** scheduleProbe as a part of a batch (platform/db/together.ts): a new listing's first probe is written with it. */
export const scheduleProbePart = (ex: Executor, listing: { id: string; url: string }, dueAt: string, now: string, options: { resetAttempts?: boolean } = {}) =>
  scheduleJobPart(ex, urgentProbe(listing), dueAt, now, options);

export interface ProbeScheduler {
  /** Asks for a probe of this listing as soon as possible; never throws, never blocks the caller. */
  wake(listingId: string): void;
  /** Waits for probes already running, then stops taking new ones. */
  close(): Promise<void>;
}

/** Wakes this instance's probe pool; a full pool loses nothing (the job stays due and urgent). */
export class LeasedProbeScheduler implements ProbeScheduler {
  constructor(private readonly runner: JobRunner) {}
  wake(): void {
    this.runner.wake(PROBE_JOB);
  }
  close(): Promise<void> {
    return this.runner.close();
  }
}

export interface Reprobe {
  /** A probe is (now) due for someone waiting: this request scheduled it or found one already due. */
  queued: boolean;
  /** When the listing's next probe runs. */
  next_probe_at: string | null;
  /** Why no probe was scheduled now. */
  reason?: 'recently_probed';
}

/**
 * Schedules an urgent probe of an existing listing (a republish, a check-in on a dormant one) at
 * most once per REPUBLISH_MIN_INTERVAL_S: a burst of requests makes at most one probe. A retired
 * listing (no job) is brought back with a fresh retirement window. Call it in a transaction that
 * holds the listing's row lock, so concurrent requests decide one at a time.
 */
export async function requestReprobe(
  trx: Executor,
  listing: { id: string; url: string },
  now: Date,
  minIntervalS: number,
  options: { resetAttempts?: boolean; lastProbedAt: string | null; beforeScheduling?: () => Promise<void> },
): Promise<Reprobe> {
  const nowIso = iso(now);
  const job = await findJob(trx, probeJobId(listing.id));
  if (job) {
    const leased = job.lease_until !== null && job.lease_until >= nowIso;
    if (leased || job.due_at <= nowIso) return { queued: true, next_probe_at: leased ? nowIso : job.due_at < nowIso ? nowIso : job.due_at };
    const last = options.lastProbedAt ? new Date(options.lastProbedAt).getTime() : null;
    if (last !== null && now.getTime() - last < minIntervalS * 1000) return { queued: false, next_probe_at: job.due_at, reason: 'recently_probed' };
  }
  // Only a probe that will really run spends anything (the caller's budget, when it has one).
  await options.beforeScheduling?.();
  if (!job || options.resetAttempts) await saveProbeState(trx, listing.id, { failing_since: null });
  await scheduleProbe(trx, listing, nowIso, nowIso, { resetAttempts: options.resetAttempts || !job });
  return { queued: true, next_probe_at: nowIso };
}
