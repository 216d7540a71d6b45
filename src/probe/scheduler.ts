// The seam between publishing and probing. Publishing a listing schedules its probe job in the
// same transaction and wakes the scheduler (DESIGN.md: the first probe starts at once in the
// instance that accepted the listing, not at the next tick).
import type { JobRunner } from '../jobs/runner.ts';
import { probeJobId } from '../jobs/store.ts';

export interface ProbeScheduler {
  /** Asks for a probe of this listing as soon as possible; never throws, never blocks the caller. */
  wake(listingId: string): void;
  /** Waits for probes already running, then stops taking new ones. */
  close(): Promise<void>;
}

/** Wakes the leased probe job of a listing in this instance; the job table keeps it if not now. */
export class LeasedProbeScheduler implements ProbeScheduler {
  constructor(
    private readonly runner: JobRunner,
    private readonly onError: (err: unknown) => void,
  ) {}
  wake(listingId: string): void {
    this.runner.runNow(probeJobId(listingId)).catch(this.onError);
  }
  close(): Promise<void> {
    return this.runner.close();
  }
}
