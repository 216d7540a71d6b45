// One listing's probe job, run in this process now: what `rollcall list` waits on. A process that
// is not a server starts no pool (a pool would also take other listings' due probes); it claims
// only this listing's job, and only when it is due and no instance holds it, then runs it as the
// pool would (same lease, same result, same schedule after it).
import type { BaseServices } from '../platform/operation.ts';
import { claimDue, releaseLease, stillHeld } from '../platform/jobs/store.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import type { ProbeRuntime } from './runtime.ts';
import { ProbeJob } from './job.ts';
import { probeJobId } from './scheduler.ts';

/**
 * false when the job is not due yet, held by another instance, or gone (retired, a duplicate). A
 * run that throws (the database, a bug) is never recorded against the listing: the lease is given
 * back, the lane shows what it showed, and the error goes to the caller.
 */
export async function probeListingHere(
  services: Pick<BaseServices, 'db' | 'clock' | 'log' | 'config' | 'metrics' | 'budgets'>,
  probe: Pick<ProbeRuntime, 'prober' | 'metrics'>,
  listingId: string,
  stopping: AbortSignal,
): Promise<boolean> {
  const [lease] = await claimDue(services.db, services.clock.now(), services.config.jobLeaseS * 1000, 1, probeJobId(listingId));
  if (!lease) return false;
  const job = new ProbeJob(services, probe);
  try {
    await job.run(lease, stopping);
  } catch (err) {
    await inTransaction(
      services.db.kysely,
      async (trx) => {
        if (!(await stillHeld(trx, lease))) return;
        await job.abandoned(trx, lease);
        await releaseLease(trx, lease, iso(services.clock.now()));
      },
      { idempotent: true },
    ).catch((e) => services.log.error({ err: e, job: lease.id }, 'the probe could not be given back; its lease lapses instead'));
    throw err;
  }
  return true;
}
