// The probe domain's runtime objects, built once per app by the assembly: the prober (with its
// guarded client), the on-demand budget and score cache, the scheduler that wakes probe jobs,
// and the metrics. Operations that need them type their ctx as ProbeCtx.
import type { Ctx } from '../platform/operation.ts';
import type { Prober } from './prober.ts';
import type { OnDemandProbes } from './budget.ts';
import type { ProbeScheduler } from './scheduler.ts';
import type { ProbeMetrics } from './metrics.ts';

export interface ProbeRuntime {
  prober: Prober;
  /** The catalog checks' prober (its `check`): a thread of its own in the service, started at its first check. */
  checker: Prober;
  onDemand: OnDemandProbes;
  scheduler: ProbeScheduler;
  metrics: ProbeMetrics;
  /** A slot of the instance's probe pool for an on-demand probe (waits up to `waitMs`; throws SlotUnavailable). */
  slot(waitMs: number): Promise<() => void>;
}

export type ProbeCtx = Ctx & { probe: ProbeRuntime };
