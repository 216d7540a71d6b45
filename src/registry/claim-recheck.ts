// A claim stays true only while its proof does: every held claim's proof is looked for again
// weekly (daily while it is missing), and one missing for 7 days lapses the claim (the listing
// stays; its owner's powers wait for a new claim). Periodic tasks run inside the sweep's
// transaction and a fetch must not hold one open, so the task (`owners.recheck`) only makes the
// `owner_recheck` job due; the job, one at a time across instances, looks for each due proof
// through the guarded client and writes each result in a short transaction of its own.
import type { JobHandler, PeriodicTask } from '../platform/jobs/runner.ts';
import { iso } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { completeJob, releaseLease, scheduleJob, stillHeld, type JobSpec, type Lease } from '../platform/jobs/store.ts';
import type { Config } from '../config.ts';
import { findListingById } from '../listings/store.ts';
import { dueRechecks } from '../owners/store.ts';
import { lookForProof, recordRecheck, type ClaimCtx } from './claim-proof.ts';

export const OWNER_RECHECK_JOB = 'owner_recheck';
const recheckJob: JobSpec = { id: OWNER_RECHECK_JOB, kind: OWNER_RECHECK_JOB, subject: null };
/** Proofs one run looks for at most; more due ones wait for the next run. */
const BATCH = 200;

/** The sweep's task: makes the re-check job due now (the job does the network work). */
export const claimRecheckTask = (config: Config): PeriodicTask => ({
  name: 'owners.recheck',
  periodS: Math.max(config.sweepIntervalS, 3600),
  async run(trx, now) {
    await scheduleJob(trx, recheckJob, iso(now), iso(now));
  },
});

export class ClaimRecheckJob implements JobHandler {
  constructor(private readonly ctx: Omit<ClaimCtx, 'caller' | 'requestId'>) {}

  async run(lease: Lease, stopping: AbortSignal): Promise<void> {
    const { db, clock, log } = this.ctx;
    const ctx = { ...this.ctx, caller: { address: 'rollcall' }, requestId: `job:${OWNER_RECHECK_JOB}` } as ClaimCtx;
    const due = await dueRechecks(db.kysely, iso(clock.now()), BATCH);
    let lapsed = 0;
    for (const owner of due) {
      if (stopping.aborted) {
        await releaseLease(db.kysely, lease, iso(clock.now()));
        return;
      }
      const listing = await findListingById(db.kysely, owner.listing_id);
      if (!listing) continue;
      let look: Awaited<ReturnType<typeof lookForProof>>;
      try {
        look = await lookForProof(ctx, { url: listing.url, kind: listing.kind }, owner.proof, owner.method, 'owner');
      } catch (err) {
        // The host's outbound budget has no room: this proof waits for a later run.
        if (err instanceof AppError && err.code === 'host_budget') continue;
        throw err;
      }
      if ((await recordRecheck(db.kysely, owner.listing_id, look, clock.now())).lapsed) lapsed++;
    }
    if (due.length) log.info({ checked: due.length, lapsed }, 'owner proofs checked again');
    const now = clock.now();
    await inTransaction(db.kysely, async (trx) => {
      // The next run comes with the task; this one's row waits for it.
      if (await stillHeld(trx, lease)) await completeJob(trx, lease, iso(new Date(now.getTime() + 24 * 3600_000)), 0, iso(now));
    });
  }
}
