// The listings domain's periodic work: active-list snapshots are kept for SNAPSHOT_KEEP_S.
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import { iso } from '../platform/clock.ts';
import { pruneActiveSnapshots } from './store.ts';

export const pruneSnapshotsTask = (config: Config): PeriodicTask => ({
  name: 'listings.prune_snapshots',
  periodS: config.sweepIntervalS,
  run: (trx, now) => pruneActiveSnapshots(trx, iso(new Date(now.getTime() - config.snapshotKeepS * 1000))),
});
