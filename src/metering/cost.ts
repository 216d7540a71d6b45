// cost_model's arithmetic (TOOLS.md): for a planned mix of calls, what today's free units cover,
// what the refills still reachable today can add, and what is left beyond, at the list price.
import { EVENT_IDS, isEventId, meteredEvent, type EventId } from './events.ts';
import { refillsOf } from './refills.ts';
import { grantsLeft, refillsReachable, usageOf, type CallerDay } from './usage.ts';

/**
 * The metered tools and the events one call of each spends. Event ids are accepted as themselves;
 * the collab tools spend the collab events of SPEC.md 8.1.
 */
export const TOOL_EVENTS: Readonly<Record<string, readonly EventId[]>> = {
  ...Object.fromEntries(EVENT_IDS.map((e) => [e, [e]])),
  collab_run: ['collab_session_step'],
  collab_session_claim: ['collab_session_step'],
  collab_session_message: ['collab_talk'],
  collab_session_close: ['collab_converge', 'collab_package'],
  publish_collab_product: ['collab_publish'],
};

export const plannableNames = (): string[] => Object.keys(TOOL_EVENTS);

export interface EventPlan {
  event_id: EventId;
  planned: number;
  free_left: number;
  refills_reachable: number;
  covered_free: number;
  covered_by_refills: number;
  units_beyond: number;
  price_cents: number;
  /** Price of the units beyond (always-free events: 0). */
  cost_cents: number;
  /** What the units beyond would cost if no refill is made. */
  cost_cents_without_refills: number;
  always_free: boolean;
  refill_with: string[];
  note: string;
}

/** Sums the mix per event (a tool may spend several events; several tools one event). */
export function eventsOfMix(mix: Record<string, number>): Map<EventId, number> {
  const planned = new Map<EventId, number>();
  for (const [name, count] of Object.entries(mix)) {
    for (const e of TOOL_EVENTS[name] ?? (isEventId(name) ? [name] : [])) planned.set(e, (planned.get(e) ?? 0) + count);
  }
  return planned;
}

export function planEvent(day: CallerDay, event: EventId, planned: number, x402Enabled: boolean): EventPlan {
  const e = meteredEvent(event);
  const free = usageOf(day, event).remaining;
  const reachable = refillsReachable(day, event);
  const coveredFree = Math.min(planned, free);
  const coveredByRefills = Math.min(planned - coveredFree, reachable);
  const beyond = planned - coveredFree - coveredByRefills;
  const withoutRefills = planned - coveredFree;
  const price = e.always_free ? 0 : e.price_cents;
  const refillWith = refillsOf(event)
    .filter((r) => grantsLeft(day, r.action) > 0)
    .map((r) => r.action);
  let note: string;
  if (beyond === 0 && coveredByRefills === 0) note = `covered by today's free allowance (${free} left)`;
  else if (beyond === 0) note = `${coveredByRefills} unit(s) need refills: ${refillWith.join(', ')} (get_reciprocity says what counts)`;
  else if (e.always_free) note = `always free, never paid: ${beyond} unit(s) beyond today's allowance and refills wait for the reset at ${day.resets_at}`;
  else if (x402Enabled) note = `${beyond} unit(s) beyond today's allowance and refills: ${e.price_cents} cents each through x402, or wait for the reset at ${day.resets_at}`;
  else note = `${beyond} unit(s) beyond today's allowance and refills: x402 is off on this server, so they wait for the reset at ${day.resets_at} (list price ${e.price_cents} cents each)`;
  return {
    event_id: event,
    planned,
    free_left: free,
    refills_reachable: reachable,
    covered_free: coveredFree,
    covered_by_refills: coveredByRefills,
    units_beyond: beyond,
    price_cents: e.price_cents,
    cost_cents: beyond * price,
    cost_cents_without_refills: withoutRefills * price,
    always_free: e.always_free,
    refill_with: refillWith,
    note,
  };
}
