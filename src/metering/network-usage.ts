// The network's metered days for the economics surfaces: per UTC day and event, every allowance's
// figures (figures.ts) summed. Each total is the sum of what each caller's own day says
// (usage.ts, list_event_pricing), unit for unit: both read usageGroups and apply meterFigures.
import type { Executor } from '../platform/db/executor.ts';
import { isEventId, type EventId } from './events.ts';
import { meterFigures } from './figures.ts';
import { usageGroups } from './store.ts';

export interface EventDay {
  day: string;
  event_id: EventId;
  /** Units taken from allowances. */
  used: number;
  /** Used units free allowances (with their bonuses) covered. */
  free_base: number;
  /** Units refills granted. */
  refilled: number;
  /** Used units refills covered. */
  refills_used: number;
  /** Units paid through x402. */
  paid: number;
  /** Allowances that used or paid for at least one unit. */
  callers: number;
}

/** Per day and event since `sinceDay` (inclusive), in day then event order. */
export async function networkUsage(ex: Executor, sinceDay: string, event?: EventId): Promise<EventDay[]> {
  const days = new Map<string, EventDay>();
  for (const g of await usageGroups(ex, { sinceDay, event })) {
    if (!isEventId(g.event_id)) continue;
    const f = meterFigures(g.event_id, g);
    const key = `${g.day} ${g.event_id}`;
    const d = days.get(key) ?? { day: g.day, event_id: g.event_id, used: 0, free_base: 0, refilled: 0, refills_used: 0, paid: 0, callers: 0 };
    d.used += f.used * g.allowances;
    d.free_base += f.free_base * g.allowances;
    d.refilled += f.refilled * g.allowances;
    d.refills_used += f.refills_used * g.allowances;
    d.paid += f.paid * g.allowances;
    if (f.used + f.paid > 0) d.callers += g.allowances;
    days.set(key, d);
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || a.event_id.localeCompare(b.event_id));
}
