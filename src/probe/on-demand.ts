// Every probe someone asks for outside the schedule goes through here: it spends the caller's
// probe budget (across instances), takes a slot of the instance's probe pool (the same outbound
// budget the job runner uses; 503 when every slot stays busy), and runs under the probe deadline.
import { AppError } from '../platform/errors.ts';
import { SlotUnavailable } from '../platform/jobs/runner.ts';
import type { ProbeCtx } from './runtime.ts';

export async function onDemandProbe<T>(ctx: ProbeCtx, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  await ctx.probe.onDemand.budget.take(ctx.caller.address, ctx.clock.now().getTime());
  let release: () => void;
  try {
    release = await ctx.probe.slot(ctx.config.probeSlotWaitMs);
  } catch (err) {
    if (!(err instanceof SlotUnavailable)) throw err;
    throw new AppError(503, 'busy', 'every probe slot of this instance is busy; retry shortly').withHeaders({ 'retry-after': '5' });
  }
  try {
    return await work(AbortSignal.timeout(ctx.config.probeDeadlineS * 1000));
  } finally {
    release();
  }
}
