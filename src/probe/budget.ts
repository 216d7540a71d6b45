// Probing a URL on request makes Rollcall send traffic on a caller's behalf, so on-demand probes
// (probe_clean, /api/score, check_liveness) and republishes that re-probe have a per-caller budget
// per minute, tighter than the general per-address rate limit, shared across instances through
// Redis when REDIS_URL is set. They also share the instance's outbound budget with the job
// runner: each takes a slot of the probe pool.
import { AppError } from '../platform/errors.ts';
import type { RateWindow } from '../platform/rate-window.ts';

export class ProbeBudget {
  constructor(
    private readonly perMinute: number,
    private readonly window: RateWindow,
  ) {}

  /** Takes one probe for `caller` at `now`, or throws 429 with the budget's own Retry-After and RateLimit headers. */
  async take(caller: string, now: number): Promise<void> {
    if (this.perMinute === 0) return;
    const t = await this.window.take(`probe:${caller}`, this.perMinute, 60_000, now);
    if (t.allowed) return;
    throw new AppError(429, 'rate_limited', `at most ${this.perMinute} on-demand probes a minute; retry in ${t.resetS} s`, undefined, { retry_after_s: t.resetS }).withHeaders({
      'retry-after': String(t.resetS),
      'ratelimit-limit': String(t.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(t.resetS),
    });
  }
}

/** Per-instance state of on-demand probing: the budget and the free score's short cache. */
export class OnDemandProbes {
  readonly scores = new Map<string, { at: number; body: Record<string, unknown> }>();
  constructor(readonly budget: ProbeBudget) {}
}
