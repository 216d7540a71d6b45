// The inbox domain's periodic work: the day's send counts bound only today, so older days are dropped.
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import { DAY_MS } from '../platform/clock.ts';
import { pruneInboxCounters } from './store.ts';

export const pruneInboxCountersTask = (config: Config): PeriodicTask => ({
  name: 'inbox.prune_counters',
  periodS: config.sweepIntervalS,
  run: (trx, now) => pruneInboxCounters(trx, new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10)),
});
