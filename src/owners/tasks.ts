// The owners domain's periodic work: claims that expired a day ago are of no use to anyone.
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import { DAY_MS, iso } from '../platform/clock.ts';
import { pruneClaims } from './store.ts';

export const pruneClaimsTask = (config: Config): PeriodicTask => ({
  name: 'owners.prune_claims',
  periodS: config.sweepIntervalS,
  async run(trx, now) {
    await pruneClaims(trx, iso(new Date(now.getTime() - DAY_MS)));
  },
});
