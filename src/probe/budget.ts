// Probing a URL on request makes Rollcall send traffic on a caller's behalf, so on-demand probes
// (probe_clean, /api/score, check_liveness) have their own per-caller budget per minute, tighter
// than the general per-address rate limit. It is kept per instance.
import { AppError } from '../platform/errors.ts';

export class ProbeBudget {
  private readonly used = new Map<string, number[]>();
  constructor(private readonly perMinute: number) {}

  /** Takes one probe for `caller` at `now`, or throws 429 with the seconds to wait. */
  take(caller: string, now: number): void {
    if (this.perMinute === 0) return;
    const recent = (this.used.get(caller) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= this.perMinute) {
      const wait = Math.ceil((60_000 - (now - recent[0]!)) / 1000);
      throw new AppError(429, 'rate_limited', `at most ${this.perMinute} on-demand probes a minute; retry in ${wait} s`, undefined, { retry_after_s: wait });
    }
    recent.push(now);
    this.used.set(caller, recent);
    if (this.used.size > 10_000) this.used.delete(this.used.keys().next().value!); // bound memory under many callers
  }
}

/** Per-instance state of on-demand probing: the budget and the free score's short cache. */
export class OnDemandProbes {
  readonly budget: ProbeBudget;
  readonly scores = new Map<string, { at: number; body: Record<string, unknown> }>();
  constructor(perMinute: number) {
    this.budget = new ProbeBudget(perMinute);
  }
}
