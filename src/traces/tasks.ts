// The traces domain's periodic work: deposit counters bound only today, so older days are dropped.
// (The field itself needs no sweep: decay is applied at read time.)
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import { DAY_MS } from '../platform/clock.ts';
import { utcDay } from '../metering/day.ts';
import { pruneCounters } from './queries.ts';

export const pruneCountersTask = (config: Config): PeriodicTask => ({
  name: 'traces.prune_counters',
  periodS: config.sweepIntervalS,
  run: (trx, now) => pruneCounters(trx, utcDay(new Date(now.getTime() - DAY_MS))),
});
