// s_curve_board: adoption curves with a logistic fit and the phase each is in. Per product (the
// metered events' products: the first UTC day each caller used any of its events makes it an
// adopter) and for listings (listings created per day). Cumulative counts per day from the first
// day seen to today, gaps filled, the fit (logistic.ts) over the whole curve.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { DAY_MS } from '../platform/clock.ts';
import { firstUses } from '../metering/store.ts';
import { EVENTS, isEventId, meteredEvent } from '../metering/events.ts';
import { listingsPerDay } from '../listings/counts.ts';
import { fitLogistic, logistic, phaseOf, MIN_POINTS } from './logistic.ts';
import { daysArg, MAX_DAYS, READ_ONLY } from './window.ts';

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const dayAt = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface Curve {
  curve: string;
  what: string;
  current: number;
  phase: 'seed' | 'takeoff' | 'saturation';
  fit: { k: number; r: number; t0_day: string; r2: number; next_day_forecast: number } | null;
  days: { day: string; new: number; cumulative: number }[];
}

/** A cumulative curve from new-per-day counts, its fit and phase (pure; `today` closes it). */
export function curveOf(curve: string, what: string, perDay: ReadonlyMap<string, number>, today: string, showDays: number): Curve {
  const known = [...perDay.keys()].filter((d) => d <= today).sort();
  if (known.length === 0) return { curve, what, current: 0, phase: 'seed', fit: null, days: [] };
  // At most MAX_DAYS points are fitted: the curve's most recent year.
  const first = Math.max(dayMs(known[0]!), dayMs(today) - (MAX_DAYS - 1) * DAY_MS);
  let cumulative = known.filter((d) => dayMs(d) < first).reduce((s, d) => s + perDay.get(d)!, 0);
  const days: Curve['days'] = [];
  for (let t = first; t <= dayMs(today); t += DAY_MS) {
    const day = dayAt(t);
    const n = perDay.get(day) ?? 0;
    cumulative += n;
    days.push({ day, new: n, cumulative });
  }
  const ts = days.map((_, i) => i);
  const fitted = days.length >= MIN_POINTS ? fitLogistic(ts, days.map((d) => d.cumulative)) : undefined;
  return {
    curve,
    what,
    current: cumulative,
    phase: phaseOf(cumulative, fitted),
    fit: fitted
      ? { k: round4(fitted.k), r: round4(fitted.r), t0_day: dayAt(first + Math.round(fitted.t0) * DAY_MS), r2: round4(fitted.r2), next_day_forecast: round4(logistic(days.length, fitted)) }
      : null,
    days: days.slice(-showDays),
  };
}

export const sCurveBoard = defineOperation({
  name: 's_curve_board',
  title: 'Adoption S-curves per product and for listings',
  annotations: READ_ONLY,
  description:
    'Adoption curves per product and for listings: cumulative counts per UTC day, a logistic fit (ceiling K, growth rate r, inflection t0_day) and the phase (seed, takeoff, saturation). A fit needs 4 days; `days` limits the days shown.',
  input: z.strictObject({ days: daysArg(30) }),
  output: z.looseObject({ ok: z.literal(true), curves: z.array(z.looseObject({ curve: z.string(), phase: z.enum(['seed', 'takeoff', 'saturation']), current: z.number() })) }),
  handler: async (ctx: Ctx, input) => {
    const ex = ctx.db.kysely;
    const today = ctx.clock.now().toISOString().slice(0, 10);
    const products = [...new Set(EVENTS.map((e) => e.product))];
    const firstDay = new Map<string, string>(); // `${product}\t${subject}` -> first day
    for (const u of await firstUses(ex)) {
      if (!isEventId(u.event_id)) continue;
      const key = `${meteredEvent(u.event_id).product}\t${u.subject}`;
      const seen = firstDay.get(key);
      if (seen === undefined || u.day < seen) firstDay.set(key, u.day);
    }
    const perProduct = new Map<string, Map<string, number>>(products.map((p) => [p, new Map()]));
    for (const [key, day] of firstDay) {
      const m = perProduct.get(key.split('\t')[0]!)!;
      m.set(day, (m.get(day) ?? 0) + 1);
    }
    const listed = new Map((await listingsPerDay(ex)).map((d) => [d.day, d.listed]));
    const curves = [
      ...products.map((p) => curveOf(`product:${p}`, `callers who used ${p} (${EVENTS.filter((e) => e.product === p).map((e) => e.event_id).join(', ')})`, perProduct.get(p)!, today, input.days)),
      curveOf('listings', 'listings created', listed, today, input.days),
    ];
    return { ok: true as const, day: today, model: 'y(t) = K / (1 + e^(-r (t - t0))), t in days', curves };
  },
});
