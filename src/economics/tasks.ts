// The economics domain's periodic work: today's network_value point is refreshed every
// NETWORK_VALUE_INTERVAL_S, so each UTC day keeps a point even when nobody asks for it.
import type { Config } from '../config.ts';
import type { PeriodicTask } from '../platform/jobs/runner.ts';
import { recordNetworkValue } from './value.ts';

export const networkValueTask = (config: Config): PeriodicTask => ({
  name: 'economics.network_value',
  periodS: config.networkValueIntervalS,
  run: async (trx, now) => void (await recordNetworkValue(trx, now)),
});
