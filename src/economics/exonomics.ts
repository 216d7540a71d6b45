// get_exonomics: what the metered economy gave and got back, per event and per UTC day, with the
// value created per unit (summed outcome quality per unit consumed). Units come from metering's
// networkUsage, the per-caller figures every allowance's own list_event_pricing shows, summed: used
// (from the free allowance, `free_base`, or from refills, `refills_used`), refills granted
// (`refilled`, spent or not), paid through x402. Outcomes come from trace_outcomes.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { networkUsage } from '../metering/network-usage.ts';
import { EVENTS, isEventId, meteredEvent } from '../metering/events.ts';
import { dailyOutcomes } from '../traces/counts.ts';
import { daysArg, READ_ONLY, sinceDayOf } from './window.ts';

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const perUnit = (quality: number, units: number) => (units > 0 ? round6(quality / units) : null);

interface EventTotals {
  event_id: string;
  used: number;
  free_base: number;
  refilled: number;
  refills_used: number;
  paid: number;
  paid_cents: number;
  outcomes: number;
  outcome_quality: number;
}

export const getExonomics = defineOperation({
  name: 'get_exonomics',
  title: 'Network exonomics: units given, refilled, paid; outcomes back',
  annotations: READ_ONLY,
  description:
    'The network\'s metered economy per event and UTC day over a window: units used (free_base: from free allowances; refills_used: from refills), refills granted (refilled, spent or not), units paid through x402 (and cents), outcomes deposited, and value created per unit (outcome quality per unit consumed). Each figure is the sum of every caller\'s own list_event_pricing usage.',
  input: z.strictObject({ days: daysArg(30), event_id: z.string().min(1).max(64).optional().describe('Only this metered event (list_event_pricing lists them).') }),
  output: z.looseObject({ ok: z.literal(true), totals: z.looseObject({ units: z.number(), outcomes: z.number() }), events: z.array(z.looseObject({ event_id: z.string() })), days: z.array(z.looseObject({ day: z.string() })) }),
  handler: async (ctx: Ctx, input) => {
    if (input.event_id !== undefined && !isEventId(input.event_id)) {
      throw badRequest('unknown_event', `no metered event is named ${JSON.stringify(input.event_id)}; one of: ${EVENTS.map((e) => e.event_id).join(', ')}`, 'event_id');
    }
    const ex = ctx.db.kysely;
    const sinceDay = sinceDayOf(ctx.clock.now(), input.days);
    const usage = await networkUsage(ex, sinceDay, input.event_id);
    const outcomes = (await dailyOutcomes(ex, sinceDay)).filter((o) => input.event_id === undefined || o.from === input.event_id);

    const byEvent = new Map<string, EventTotals>();
    const eventOf = (id: string) => byEvent.get(id) ?? { event_id: id, used: 0, free_base: 0, refilled: 0, refills_used: 0, paid: 0, paid_cents: 0, outcomes: 0, outcome_quality: 0 };
    const byDay = new Map<string, { day: string; events: Record<string, unknown>[]; units: number; paid_cents: number; outcomes: number; ok: number; quality: number }>();
    const dayOf = (day: string) => byDay.get(day) ?? { day, events: [], units: 0, paid_cents: 0, outcomes: 0, ok: 0, quality: 0 };

    for (const r of usage) {
      const paidCents = r.paid * meteredEvent(r.event_id).price_cents;
      const e = eventOf(r.event_id);
      byEvent.set(r.event_id, {
        ...e,
        used: e.used + r.used,
        free_base: e.free_base + r.free_base,
        refilled: e.refilled + r.refilled,
        refills_used: e.refills_used + r.refills_used,
        paid: e.paid + r.paid,
        paid_cents: e.paid_cents + paidCents,
      });
      const d = dayOf(r.day);
      d.events.push({ event_id: r.event_id, used: r.used, free_base: r.free_base, refilled: r.refilled, refills_used: r.refills_used, paid: r.paid, paid_cents: paidCents, callers: r.callers });
      d.units += r.used + r.paid;
      d.paid_cents += paidCents;
      byDay.set(r.day, d);
    }
    for (const o of outcomes) {
      if (o.from !== null && isEventId(o.from)) {
        const e = eventOf(o.from);
        byEvent.set(o.from, { ...e, outcomes: e.outcomes + o.count, outcome_quality: e.outcome_quality + o.quality });
      }
      const d = dayOf(o.day);
      d.outcomes += o.count;
      d.ok += o.ok;
      d.quality += o.quality;
      byDay.set(o.day, d);
    }

    const events = [...byEvent.values()]
      .map((e) => ({ ...e, outcome_quality: round6(e.outcome_quality), value_per_unit: perUnit(e.outcome_quality, e.used + e.paid) }))
      .sort((a, b) => b.used + b.paid - (a.used + a.paid) || a.event_id.localeCompare(b.event_id));
    const days = [...byDay.values()]
      .sort((a, b) => a.day.localeCompare(b.day))
      .map((d) => ({ day: d.day, units: d.units, paid_cents: d.paid_cents, outcomes: { count: d.outcomes, ok: d.ok, quality: round6(d.quality) }, value_per_unit: perUnit(d.quality, d.units), events: d.events }));
    const units = days.reduce((s, d) => s + d.units, 0);
    const quality = days.reduce((s, d) => s + d.outcomes.quality, 0);
    return {
      ok: true as const,
      window_days: input.days,
      since_day: sinceDay,
      totals: {
        units,
        used: events.reduce((s, e) => s + e.used, 0),
        free_base: events.reduce((s, e) => s + e.free_base, 0),
        refilled: events.reduce((s, e) => s + e.refilled, 0),
        refills_used: events.reduce((s, e) => s + e.refills_used, 0),
        paid: events.reduce((s, e) => s + e.paid, 0),
        paid_cents: events.reduce((s, e) => s + e.paid_cents, 0),
        outcomes: days.reduce((s, d) => s + d.outcomes.count, 0),
        outcome_quality: round6(quality),
        value_per_unit: perUnit(quality, units),
      },
      events,
      days,
    };
  },
});
