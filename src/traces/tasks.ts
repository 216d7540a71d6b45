// The traces domain's periodic work: deposit counters bound only today, so older days are dropped.
// (The field itself needs no sweep: decay is applied at read time.) The trail rank part does: it is
// a stored number, refreshed as the attraction behind it decays (trail-rank.ts).
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import { DAY_MS } from '../platform/clock.ts';
import { utcDay } from '../metering/day.ts';
import { pruneCounters } from './queries.ts';
import { strongest } from './store.ts';
import { refreshTrailParts } from './trail-rank.ts';

/** Listings refreshed per sweep: the strongest attraction subjects (older ones are near 0 already). */
const REFRESH_MAX = 2000;

export const pruneCountersTask = (config: Config): PeriodicTask => ({
  name: 'traces.prune_counters',
  periodS: config.sweepIntervalS,
  run: (trx, now) => pruneCounters(trx, utcDay(new Date(now.getTime() - DAY_MS))),
});

export const refreshTrailsTask = (config: Config): PeriodicTask => ({
  name: 'traces.refresh_trails',
  periodS: config.sweepIntervalS,
  run: async (trx, now) => {
    const listed = await strongest(trx, 'attraction', now, REFRESH_MAX, 'listing');
    await refreshTrailParts(trx, listed.map((e) => e.a), now);
  },
});
