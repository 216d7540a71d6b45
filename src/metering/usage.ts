// A caller's metering day as the read tools show it: per event the units used, refilled, paid and
// left (figures.ts, the rule the economics totals apply too); per refill action the grants used and
// left.
import type { Executor } from '../platform/db/executor.ts';
import { EVENTS, isEventId, type EventId } from './events.ts';
import { REFILLS, refillsOf, type RefillAction } from './refills.ts';
import { meterFigures } from './figures.ts';
import { grantsOfDay, usageGroups } from './store.ts';
import { nextReset, utcDay } from './day.ts';
import type { Subject } from './caller.ts';

export interface EventUsage {
  used: number;
  /** Units refills granted today. */
  refills: number;
  paid: number;
  remaining: number;
  /** Today's cap on free units: free_per_day + bonus + refills. */
  cap: number;
  /** Used units the free allowance (with any bonus) covered. */
  free_base: number;
  /** Used units refills covered. */
  refills_used: number;
  /** Extra free units today from a bonus (bonus.ts); absent when none. */
  bonus?: number;
}

export interface CallerDay {
  day: string;
  resets_at: string;
  usage: Map<EventId, EventUsage>;
  grants: Map<RefillAction, number>;
}

const eventUsage = (event: EventId, row: { used: number; refilled: number; paid: number; bonus?: number }): EventUsage => {
  const f = meterFigures(event, row);
  return { used: f.used, refills: f.refilled, paid: f.paid, remaining: f.remaining, cap: f.cap, free_base: f.free_base, refills_used: f.refills_used, ...(f.bonus > 0 ? { bonus: f.bonus } : {}) };
};

export async function callerDay(ex: Executor, subject: Subject, now: Date): Promise<CallerDay> {
  const day = utcDay(now);
  const [rows, grants] = await Promise.all([usageGroups(ex, { sinceDay: day, untilDay: day, allowance: subject.allowance }), grantsOfDay(ex, subject.allowance, day)]);
  const byEvent = new Map(rows.filter((r) => isEventId(r.event_id)).map((r) => [r.event_id, r]));
  const usage = new Map<EventId, EventUsage>();
  for (const e of EVENTS) usage.set(e.event_id, eventUsage(e.event_id, byEvent.get(e.event_id) ?? { used: 0, refilled: 0, paid: 0 }));
  return { day, resets_at: nextReset(now), usage, grants: new Map(REFILLS.map((r) => [r.action, grants.get(r.action) ?? 0])) };
}

export const grantsLeft = (d: CallerDay, action: RefillAction): number => {
  const r = REFILLS.find((x) => x.action === action)!;
  return Math.max(0, r.max_per_day - (d.grants.get(action) ?? 0));
};

/** Units of `event` the caller can still add today through refills (each grant adds one). */
export const refillsReachable = (d: CallerDay, event: EventId): number => refillsOf(event).reduce((sum, r) => sum + grantsLeft(d, r.action), 0);

export const usageOf = (d: CallerDay, event: EventId): EventUsage => d.usage.get(event) ?? eventUsage(event, { used: 0, refilled: 0, paid: 0 });

/** The subject as answers show it (never the raw address or a token). */
export const subjectView = (s: Subject) => ({ kind: s.kind, label: s.label, ...(s.listing_id ? { listing_id: s.listing_id } : {}), ...(s.note ? { note: s.note } : {}) });
