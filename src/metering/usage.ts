// A caller's metering day as the read tools show it: per event the units used, refilled, paid and
// left; per refill action the grants used and left. Pure over the store's rows.
import type { Executor } from '../platform/db/executor.ts';
import { EVENTS, meteredEvent, type EventId } from './events.ts';
import { REFILLS, refillsOf, type RefillAction } from './refills.ts';
import { grantsOfDay, usageOfDay } from './store.ts';
import { nextReset, utcDay } from './day.ts';
import type { Subject } from './caller.ts';

export interface EventUsage {
  used: number;
  refills: number;
  paid: number;
  remaining: number;
}

export interface CallerDay {
  day: string;
  resets_at: string;
  usage: Map<EventId, EventUsage>;
  grants: Map<RefillAction, number>;
}

export async function callerDay(ex: Executor, subject: Subject, now: Date): Promise<CallerDay> {
  const day = utcDay(now);
  const [rows, grants] = await Promise.all([usageOfDay(ex, subject.allowance, day), grantsOfDay(ex, subject.allowance, day)]);
  const byEvent = new Map(rows.map((r) => [r.event_id, r]));
  const usage = new Map<EventId, EventUsage>();
  for (const e of EVENTS) {
    const r = byEvent.get(e.event_id) ?? { used: 0, refilled: 0, paid: 0 };
    usage.set(e.event_id, { used: r.used, refills: r.refilled, paid: r.paid, remaining: Math.max(0, e.free_per_day + r.refilled - r.used) });
  }
  return { day, resets_at: nextReset(now), usage, grants: new Map(REFILLS.map((r) => [r.action, grants.get(r.action) ?? 0])) };
}

export const grantsLeft = (d: CallerDay, action: RefillAction): number => {
  const r = REFILLS.find((x) => x.action === action)!;
  return Math.max(0, r.max_per_day - (d.grants.get(action) ?? 0));
};

/** Units of `event` the caller can still add today through refills (each grant adds one). */
export const refillsReachable = (d: CallerDay, event: EventId): number => refillsOf(event).reduce((sum, r) => sum + grantsLeft(d, r.action), 0);

export const usageOf = (d: CallerDay, event: EventId): EventUsage => d.usage.get(event) ?? { used: 0, refills: 0, paid: 0, remaining: meteredEvent(event).free_per_day };

/** The subject as answers show it (never the raw address or a token). */
export const subjectView = (s: Subject) => ({ kind: s.kind, label: s.label, ...(s.listing_id ? { listing_id: s.listing_id } : {}), ...(s.note ? { note: s.note } : {}) });
