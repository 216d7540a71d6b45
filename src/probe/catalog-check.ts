// Health checks of the catalog's remotes: each due remote gets a real MCP handshake (streamable
// HTTP in both eras, or the legacy HTTP+SSE transport: remote-check.ts) on the instance's check
// thread, as public work under the host's budget (below the share owners keep), fair across hosts,
// under a lease so two instances never check one remote at once. What it found is stored with the
// remote (catalog/checks-store.ts), a status two checks agree on reaches the public feed when it
// changed from an earlier one; the schedule (catalog/remote-health.ts) says when it is checked next.
// The periodic task only makes the `catalog_checks` job due; the job checks one round of due
// remotes and makes itself due again at once while more are waiting.
import type { Config } from '../config.ts';
import type { BaseServices } from '../platform/operation.ts';
import type { JobHandler, PeriodicTask } from '../platform/jobs/runner.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { completeJob, scheduleJob, stillHeld, type JobSpec, type Lease } from '../platform/jobs/store.ts';
import { claimDueChecks, recordCheck, releaseCheck, type CheckFindings, type CheckRow, type RemoteStatus, type StatusChange } from '../catalog/checks-store.ts';
import { appendCatalogFeedEvent } from '../feed/store.ts';
import type { Prober } from './prober.ts';

export const CATALOG_CHECK_JOB = 'catalog_checks';
const checkJob: JobSpec = { id: CATALOG_CHECK_JOB, kind: CATALOG_CHECK_JOB, subject: null };

/** Remotes claimed per round, and of one host per round (a host with thousands waits its turn). */
export const ROUND_SIZE = 100;
export const PER_HOST_PER_ROUND = 2;
/**
 * How long a claimed remote stays with the instance checking it (a crashed instance's come back
 * after it): a round of 100 at 4 at once, each at most a few requests of PROBE_TIMEOUT_MS, ends well
 * within it; a check recorded after its lease ran out is dropped (recordCheck).
 */
const CLAIM_LEASE_MS = 15 * 60_000;

type Deps = Pick<BaseServices, 'db' | 'clock' | 'budgets'>;

/** What runs a check: a prober of catalog checks (factory.ts), on the check thread or here. */
export type RemoteChecker = Pick<Prober, 'check'>;

export interface RoundResult {
  checked: number;
  byStatus: Partial<Record<RemoteStatus, number>>;
  /** Remotes given back because their host's public budget had no room this hour. */
  waiting: number;
  changes: StatusChange[];
}

/**
 * Checks the remotes claimed for one round (or, of `keys`, those not held elsewhere), at most
 * PER_HOST_PER_ROUND of one host and `concurrency` at once, so no check waits on the client's host
 * slots while its time runs. `onChecked` hears each one as it is recorded (the CLI's progress bar).
 * A failure that is not the remote's (the database) gives back every remote of the round not
 * recorded yet, then is thrown once the checks in flight are done.
 */
export async function checkRound(
  deps: Deps,
  checker: RemoteChecker,
  opts: {
    holder: string;
    concurrency: number;
    keys?: string[];
    limit?: number;
    signal?: AbortSignal;
    onChecked?: (row: CheckRow, status: RemoteStatus | 'waiting') => void;
    /** Awaited before each check: resolves once the check may start (the schedule's pace, listing probes first). */
    beforeCheck?: () => Promise<void>;
  },
): Promise<RoundResult & { claimed: number; done: string[] }> {
  const { db, clock, budgets } = deps;
  const start = clock.now();
  const noRoom = new Set<string>();
  const claimed = await claimDueChecks(db.kysely, {
    now: iso(start),
    limit: opts.limit ?? ROUND_SIZE,
    perHost: PER_HOST_PER_ROUND,
    holder: opts.holder,
    leaseUntil: iso(new Date(start.getTime() + CLAIM_LEASE_MS)),
    keys: opts.keys,
  });
  const result: RoundResult & { claimed: number; done: string[] } = { checked: 0, byStatus: {}, waiting: 0, changes: [], claimed: claimed.length, done: [] };
  // Public work: each request counts in the host's hour, within the share owners do not keep.
  const admit = budgets.admitter('public');
  const queue = [...claimed];
  let failure: unknown;
  const checkOne = async (row: CheckRow) => {
    const wait = noRoom.has(row.host) ? budgets.hourRetryAfterS() : await budgets.noRoomFor(row.host, 'public');
    let found: CheckFindings | undefined;
    if (wait === undefined) {
      // Paced only when it will ask the host something: a remote given back for want of budget costs nothing.
      await opts.beforeCheck?.();
      found = await checker.check(row, { admit });
    }
    if (!found) {
      noRoom.add(row.host);
      await releaseCheck(db.kysely, row.url_key, opts.holder, iso(new Date(clock.now().getTime() + budgets.hourRetryAfterS() * 1000)));
      result.waiting++;
      result.done.push(row.url_key);
      opts.onChecked?.(row, 'waiting');
      return;
    }
    const at = clock.now();
    // The check and the news of a changed status land together (a first status is not a change).
    const recorded = await inTransaction(db.kysely, async (trx) => {
      const done = await recordCheck(trx, row, found, at, opts.holder);
      if (done?.change?.from) await appendCatalogFeedEvent(trx, 'catalog.status_changed', row.url_key, iso(at), { from: done.change.from, to: done.change.to });
      return done;
    });
    result.done.push(row.url_key);
    if (!recorded) return; // the lease ran out and another instance took the remote: its check counts
    if (recorded.change) result.changes.push(recorded.change);
    result.checked++;
    result.byStatus[found.status] = (result.byStatus[found.status] ?? 0) + 1;
    opts.onChecked?.(row, found.status);
  };
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      if (opts.signal?.aborted || failure !== undefined) {
        await releaseCheck(db.kysely, row.url_key, opts.holder, row.next_check_at).catch(() => undefined);
        continue;
      }
      try {
        await checkOne(row);
      } catch (err) {
        failure ??= err;
        await releaseCheck(db.kysely, row.url_key, opts.holder, row.next_check_at).catch(() => undefined);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, claimed.length)) }, worker));
  if (failure !== undefined) throw failure;
  return result;
}

/** The sweep's task: makes the checks job due now (the job does the network work, outside any transaction). */
export const catalogCheckTask = (config: Config): PeriodicTask => ({
  name: 'catalog.check',
  periodS: 60,
  async run(trx, now) {
    if (config.catalogCheckConcurrency === 0) return;
    await scheduleJob(trx, checkJob, iso(now), iso(now));
  },
});

/** How often a check waiting for listing probes looks again, and how long it waits at most. */
const GIVE_WAY_POLL_MS = 10;
const GIVE_WAY_MAX_MS = 2000;

export class CatalogCheckJob implements JobHandler {
  constructor(
    private readonly services: Deps & Pick<BaseServices, 'config' | 'log'>,
    /** The instance's checker: its checks run on a thread of their own (factory.ts). */
    private readonly checker: RemoteChecker,
    private readonly seams: {
      /** Listing probes running in this instance now: a catalog check does not start while there are any. */
      listingProbesRunning?: () => number;
    } = {},
  ) {}

  /** When the next check of this instance's schedule may start (CATALOG_CHECK_RATE a second). */
  private nextStart = 0;

  /**
   * The catalog schedule never slows a publisher: its checks start at most CATALOG_CHECK_RATE a
   * second (20 by default: a first pass of 15,000 remotes in 12.5 minutes, inside the 15 after a
   * sync), and a check waits while this instance probes listings (up to GIVE_WAY_MAX_MS, so a
   * steady stream of re-probes cannot stall it for good).
   */
  private beforeCheck(stopping: AbortSignal): () => Promise<void> {
    const running = this.seams.listingProbesRunning;
    const interval = 1000 / this.services.config.catalogCheckRate;
    return async () => {
      const now = Date.now();
      const at = Math.max(now, this.nextStart);
      this.nextStart = at + interval;
      if (at > now) await sleep(at - now);
      if (!running) return;
      const until = Date.now() + GIVE_WAY_MAX_MS;
      while (running() > 0 && Date.now() < until && !stopping.aborted) await sleep(GIVE_WAY_POLL_MS);
    };
  }

  async run(lease: Lease, stopping: AbortSignal): Promise<void> {
    const { db, clock, log, config } = this.services;
    const began = clock.now().getTime();
    const round = await checkRound(this.services, this.checker, { holder: `job:${lease.lease_token}`, concurrency: config.catalogCheckConcurrency, signal: stopping, beforeCheck: this.beforeCheck(stopping) });
    if (round.checked || round.waiting) log.info({ checked: round.checked, waiting: round.waiting, byStatus: round.byStatus, ms: clock.now().getTime() - began }, 'catalog checks: a round done');
    for (const change of round.changes) log.info(change, 'catalog remote status changed');
    const now = clock.now();
    // A full round, or one that checked something, may leave more due (a round takes at most
    // PER_HOST_PER_ROUND of a host, so a few big hosts fill no round): go on at once. A round that
    // found nothing due, or only hosts with no budget left, waits for the periodic task.
    const next = round.claimed >= ROUND_SIZE || round.checked > 0 ? now : new Date(now.getTime() + 60_000);
    await inTransaction(db.kysely, async (trx) => {
      if (await stillHeld(trx, lease)) await completeJob(trx, lease, iso(next), 0, iso(now));
    });
  }
}
