// The network's value over time: network_value (the DESIGN.md formula of N, E, Q, today's point
// stored, history per day) and get_acceleration (its velocity and acceleration day over day).
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { FORMULA, motionOf, recordNetworkValue, valueHistory } from './value.ts';
import { daysArg, READ_ONLY, sinceDayOf } from './window.ts';

const pointOutput = z.looseObject({ day: z.string(), value: z.number(), active: z.number(), edges: z.number(), quality: z.number() });

export const networkValue = defineOperation({
  name: 'network_value',
  title: 'Network value and its history',
  annotations: READ_ONLY,
  description:
    'The network\'s value now and its parts: N Active listings, E composition edges, Q summed outcome quality; value = N * (1 + ln(1 + E)) * (1 + Q/N). One point per UTC day is stored; `history` lists the window\'s points.',
  input: z.strictObject({ days: daysArg(30) }),
  output: z.looseObject({ ok: z.literal(true), value: z.number(), parts: z.looseObject({ active: z.number(), edges: z.number(), quality: z.number() }), history: z.array(pointOutput) }),
  handler: async (ctx: Ctx, input) => {
    const now = ctx.clock.now();
    const m = await recordNetworkValue(ctx.db.kysely, now);
    const history = await valueHistory(ctx.db.kysely, sinceDayOf(now, input.days));
    return {
      ok: true as const,
      day: m.day,
      value: m.value,
      formula: FORMULA,
      parts: { active: m.active, agents: m.agents, mcps: m.mcps, edges: m.edges, compositions: m.compositions, quality: m.quality, outcomes: m.outcomes },
      measured_at: m.computed_at,
      window_days: input.days,
      history: history.map(({ computed_at: _, ...p }) => p),
      next_step: { tool: 'get_acceleration', args: { days: input.days }, why: 'how fast the value is changing day over day' },
    };
  },
});

export const getAcceleration = defineOperation({
  name: 'get_acceleration',
  title: 'Network value velocity and acceleration',
  annotations: READ_ONLY,
  description:
    'Day-over-day change of network_value (velocity) and of that change (acceleration) over the window\'s stored daily points, with a `trend`: speeding up, steady or slowing.',
  input: z.strictObject({ days: daysArg(30) }),
  output: z.looseObject({ ok: z.literal(true), days: z.array(z.looseObject({ day: z.string(), value: z.number(), velocity: z.number().nullable(), acceleration: z.number().nullable() })) }),
  handler: async (ctx: Ctx, input) => {
    const now = ctx.clock.now();
    await recordNetworkValue(ctx.db.kysely, now);
    const motion = motionOf(await valueHistory(ctx.db.kysely, sinceDayOf(now, input.days)));
    const latest = motion.at(-1);
    const a = latest?.acceleration;
    const trend = a === null || a === undefined ? 'unknown' : a > 1e-9 ? 'accelerating' : a < -1e-9 ? 'decelerating' : 'steady';
    return {
      ok: true as const,
      window_days: input.days,
      latest: latest ?? null,
      trend,
      days: motion,
      note: 'velocity needs two stored days and acceleration three; one point is stored per UTC day',
    };
  },
});
