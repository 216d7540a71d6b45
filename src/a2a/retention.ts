// The a2a domain's periodic work: answered tasks are kept for A2A_TASK_KEEP_DAYS, then deleted
// (they hold the requests callers sent, which Rollcall has no reason to keep longer).
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import { DAY_MS, iso } from '../platform/clock.ts';
import { pruneTaskRows } from './store.ts';

export const pruneA2aTasksTask = (config: Config): PeriodicTask => ({
  name: 'a2a.prune_tasks',
  periodS: config.sweepIntervalS,
  run: async (trx, now) => {
    await pruneTaskRows(trx, iso(new Date(now.getTime() - config.a2aTaskKeepDays * DAY_MS)));
  },
});
