// Every probe someone asks for outside the schedule goes through here: it spends the caller's
// probe budget (across instances), needs room in the host's outbound budget (a 429 host_budget
// otherwise, before anything is sent; each request counts against it), takes a slot of the
// instance's probe pool (the same outbound budget the job runner uses; 503 when every slot stays
// busy), and runs under the probe deadline.
import { AppError } from '../platform/errors.ts';
import { SlotUnavailable } from '../platform/jobs/runner.ts';
import { hostKey } from '../platform/net/host-key.ts';
import { hostBudgetError, type BudgetShare } from '../platform/budget/host-budgets.ts';
import type { ProbeCtx } from './runtime.ts';

/** Where an on-demand probe goes: the URL (its host's budget) and whose work it is. */
export interface OnDemandTarget {
  url: string;
  share: BudgetShare;
}

/** The 429 of a host whose budget ran out, for a caller waiting on the answer. */
export const hostBudgetSpent = (ctx: ProbeCtx, url: string) => {
  const retryAfterS = ctx.budgets.hourRetryAfterS();
  return hostBudgetError(`${hostKey(url)} has had its outbound requests this hour; retry in ${retryAfterS} s`, retryAfterS, 'url');
};

export async function onDemandProbe<T>(ctx: ProbeCtx, target: OnDemandTarget, work: (signal: AbortSignal, admit?: (host: string) => Promise<void>) => Promise<T>): Promise<T> {
  await ctx.probe.onDemand.budget.take(ctx.caller.address, ctx.clock.now().getTime());
  if ((await ctx.budgets.noRoomFor(hostKey(target.url), target.share)) !== undefined) throw hostBudgetSpent(ctx, target.url);
  let release: () => void;
  try {
    release = await ctx.probe.slot(ctx.config.probeSlotWaitMs);
  } catch (err) {
    if (!(err instanceof SlotUnavailable)) throw err;
    throw new AppError(503, 'busy', 'every probe slot of this instance is busy; retry shortly').withHeaders({ 'retry-after': '5' });
  }
  try {
    return await work(AbortSignal.timeout(ctx.config.probeDeadlineS * 1000), ctx.budgets.admitter(target.share));
  } finally {
    release();
  }
}
