// The seam between publishing and probing. Publishing a listing wakes the scheduler for it
// (DESIGN.md: the first probe starts at once in the instance that accepted the listing).
// LocalProbeScheduler (runner.ts) is the implementation; tests may pass their own.
export interface ProbeScheduler {
  /** Asks for a probe of this listing as soon as possible; never throws, never blocks the caller. */
  wake(listingId: string): void;
  /** Waits for probes already running, then stops taking new ones. */
  close(): Promise<void>;
}
