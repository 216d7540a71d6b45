// One listing's probe job, run in this process now: what `rollcall list` waits on. A process that
// is not a server starts no pool (a pool would also take other listings' due probes); it claims
// only this listing's job, and only when it is due and no instance holds it, then runs it as the
// pool would (same lease, same result, same schedule after it).
import type { BaseServices } from '../platform/operation.ts';
import { claimDue } from '../platform/jobs/store.ts';
import type { ProbeRuntime } from './runtime.ts';
import { ProbeJob } from './job.ts';
import { probeJobId } from './scheduler.ts';

/** false when the job is not due yet, held by another instance, or gone (retired, a duplicate). */
export async function probeListingHere(
  services: Pick<BaseServices, 'db' | 'clock' | 'log' | 'config' | 'metrics' | 'budgets'>,
  probe: Pick<ProbeRuntime, 'prober' | 'metrics'>,
  listingId: string,
  stopping: AbortSignal,
): Promise<boolean> {
  const [lease] = await claimDue(services.db, services.clock.now(), services.config.jobLeaseS * 1000, 1, probeJobId(listingId));
  if (!lease) return false;
  await new ProbeJob(services, probe).run(lease, stopping);
  return true;
}
