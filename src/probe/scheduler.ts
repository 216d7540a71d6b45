// The seam the prober plugs into. Publishing a listing wakes the scheduler for it (DESIGN.md:
// the first probe starts at once in the instance that accepted the listing). The prober itself
// (guarded client, handshakes, score) implements this interface; until one is installed, listings
// simply wait in lane `queued`: nothing here ever marks a listing Live.
export interface ProbeScheduler {
  /** Asks for a probe of this listing as soon as possible; never throws, never blocks the caller. */
  wake(listingId: string): void;
  /** Waits for probes already running, then stops taking new ones. */
  close(): Promise<void>;
}

/** The scheduler of a process without a prober: listings stay `queued` until a prober runs. */
export const waitingScheduler: ProbeScheduler = {
  wake() {},
  async close() {},
};
