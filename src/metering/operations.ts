// The metering read tools (TOOLS.md): list_event_pricing (SPEC.md 2.6 catalog with the caller's
// usage today), get_reciprocity (SPEC.md 8.2 refills with the caller's grants today) and cost_model
// (what a planned mix of calls costs today). They show the caller's own day: the subject is
// resolved as a metered call would resolve it (caller.ts), without counting a new agent name.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { MAX_NAME } from '../listings/text.ts';
import { EVENTS, meteredEvent, type MeteredEvent } from './events.ts';
import { REFILLS, refillsOf, type RefillAction } from './refills.ts';
import { resolveSubject, type Claims } from './caller.ts';
import { callerDay, grantsLeft, subjectView, usageOf } from './usage.ts';
import { eventsOfMix, planEvent, plannableNames, TOOL_EVENTS } from './cost.ts';
import { offerFor } from './x402-shapes.ts';

/** Who is asking: the same claims a metered call takes (DESIGN.md "Caller identity"). */
export const callerArgs = {
  listing_id: z.string().min(1).max(64).optional().describe('Your listing id, to use its allowance (with its owner token as Bearer).'),
  agent_name: z.string().min(1).max(MAX_NAME).optional().describe('Your agent name: a label for your runs inside your own allowance.'),
};

type CallerInput = Claims;

/** The caller's claims to repeat in a next_step: never a token (the Bearer header goes again by itself). */
function sameCaller(input: CallerInput): Record<string, string> {
  return { ...(input.listing_id !== undefined ? { listing_id: input.listing_id } : {}), ...(input.agent_name !== undefined ? { agent_name: input.agent_name } : {}) };
}

const subjectOf = (ctx: Ctx, input: CallerInput) =>
  resolveSubject(ctx.db.kysely, ctx, { listing_id: input.listing_id, agent_name: input.agent_name }, { record: false });

const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
const callerOutput = z.looseObject({ kind: z.enum(['listing', 'name', 'address']), label: z.string(), note: z.string().optional() });

/** What a refill action takes and what it is refused for (TOOLS.md, DESIGN.md "Real feedback"). */
const REFILL_TOOLS: Record<RefillAction, { tool: string | null; refused: string }> = {
  leave_feedback: { tool: 'leave_feedback', refused: 'junk text (repeated characters, keyboard runs, placeholder words) is feedback_not_real: no refill' },
  leave_trace: { tool: 'leave_trace', refused: 'an empty body or a subject that does not exist grants nothing' },
  endorse: { tool: 'endorse', refused: 'endorsing a listing that is not Live is refused; the same partner again the same day grants nothing' },
  deposit_outcome: { tool: 'deposit_outcome', refused: 'an outcome before any value tool that day (improve_kernel, run_loop_tick, mesh_match, mesh_compose, network_sense) grants nothing' },
  connector_onboard: { tool: null, refused: 'granted only for a warm introduction made through the operator\'s connector playbook' },
};

/** An always-free event's cap as list_event_pricing shows it: free, but capped per day (DESIGN.md "Always-free events"). */
function alwaysFreeCap(e: MeteredEvent) {
  const refills = refillsOf(e.event_id).map((r) => r.action);
  return {
    daily_cap: e.free_per_day,
    daily_cap_note: `always free: never charged, never offered x402; at most ${e.free_per_day} calls a day${refills.length ? `, one more per ${refills.join(' or ')} refill` : ''}; past the cap a call is refused with daily_cap_reached until the UTC reset`,
  };
}

export const listEventPricing = defineOperation({
  name: 'list_event_pricing',
  title: 'Metered events, prices and your usage today',
  description:
    'The metered event catalog: each value event\'s free daily allowance, price beyond it and whether it is always free, with your usage today and the UTC reset. Check it before a run of value tools; identify as for a metered call.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object(callerArgs),
  output: z.looseObject({
    ok: z.literal(true),
    caller: callerOutput,
    day: z.string(),
    resets_at: z.string(),
    events: z.array(
      z.looseObject({
        event_id: z.string(),
        product: z.string(),
        unit: z.string(),
        title: z.string(),
        description: z.string(),
        free_per_day: z.number(),
        price_usd: z.number(),
        price_cents: z.number(),
        base_price_cents: z.number(),
        feedback_driven: z.boolean(),
        always_free: z.boolean(),
        daily_cap: z.number().optional().describe('Always-free events: calls a day before refills; past it a call waits (daily_cap_reached), never pays.'),
        usage: z.looseObject({ used: z.number(), refills: z.number(), paid: z.number(), remaining: z.number(), cap: z.number(), free_base: z.number(), refills_used: z.number() }),
      }),
    ),
    x402: z.looseObject({ enabled: z.boolean() }),
    next_step: nextStepOutput,
  }),
  async handler(ctx, input) {
    const subject = await subjectOf(ctx, input);
    const day = await callerDay(ctx.db.kysely, subject, ctx.clock.now());
    const x = ctx.config.x402;
    const events = EVENTS.map((e) => ({
      ...e,
      ...(e.always_free ? alwaysFreeCap(e) : {}),
      usage: usageOf(day, e.event_id),
      refilled_by: REFILLS.filter((r) => r.events.includes(e.event_id)).map((r) => r.action),
      x402_payable: x.enabled && !e.always_free,
      ...(x.enabled && !e.always_free ? { x402_amount: offerFor(ctx.config, e).v1.maxAmountRequired } : {}),
    }));
    const spent = events.filter((e) => e.usage.remaining === 0);
    const args = sameCaller(input);
    const next: NextStep = spent.length
      ? nextStep('get_reciprocity', args, `${spent.map((e) => e.event_id).join(', ')} ${spent.length === 1 ? 'is' : 'are'} used up today: see which honest actions refill ${spent.length === 1 ? 'it' : 'them'}.`)
      : nextStep('cost_model', { ...args, mix: { improve_kernel: 3, mesh_match: 5 } }, 'Plan a run of value tools: what today\'s allowance and refills cover and what is beyond.');
    return {
      ok: true as const,
      caller: subjectView(subject),
      day: day.day,
      resets_at: day.resets_at,
      events,
      x402: x.enabled ? { enabled: true, scheme: 'exact', network: x.network, asset: x.asset, asset_name: x.assetName, pay_to: x.payTo, headers: ['X-PAYMENT', 'PAYMENT-SIGNATURE'], argument: 'payment_proof' } : { enabled: false },
      beyond_allowance: x.enabled
        ? 'Past the free allowance: refill it with an honest action, pay per call through x402, or wait for the UTC reset. Always-free events are never paid for: past their daily_cap they wait for a refill or the reset.'
        : 'Past the free allowance: refill it with an honest action or wait for the UTC reset (x402 payments are off on this server). Always-free events are never paid for: past their daily_cap they wait the same way.',
      next_step: next,
    };
  },
});

export const getReciprocity = defineOperation({
  name: 'get_reciprocity',
  title: 'Refills: honest actions that add free units',
  description:
    'The reciprocity refill table: which honest action (real feedback, a real trace, an endorsement, an outcome after a value tool) adds free units to which events, how often a day, and your grants left today. Use it when an allowance runs out.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object(callerArgs),
  output: z.looseObject({
    ok: z.literal(true),
    caller: callerOutput,
    day: z.string(),
    resets_at: z.string(),
    refills: z.array(
      z.looseObject({
        action: z.string(),
        tool: z.string().nullable(),
        events: z.array(z.string()),
        max_per_day: z.number(),
        grants_today: z.number(),
        grants_left_today: z.number(),
        honest_when: z.string(),
        refused_when: z.string(),
      }),
    ),
    next_step: nextStepOutput,
  }),
  async handler(ctx, input) {
    const subject = await subjectOf(ctx, input);
    const day = await callerDay(ctx.db.kysely, subject, ctx.clock.now());
    const refills = REFILLS.map((r) => ({
      action: r.action,
      tool: REFILL_TOOLS[r.action].tool,
      events: [...r.events],
      units_per_grant: 1,
      max_per_day: r.max_per_day,
      grants_today: day.grants.get(r.action) ?? 0,
      grants_left_today: grantsLeft(day, r.action),
      honest_when: r.condition,
      refused_when: REFILL_TOOLS[r.action].refused,
    }));
    return {
      ok: true as const,
      caller: subjectView(subject),
      day: day.day,
      resets_at: day.resets_at,
      refills,
      note: 'Each grant adds one free unit to every event it lists, today only (UTC). Grants are counted per caller, atomically across instances; only the honest form of an action grants.',
      next_step: nextStep('list_event_pricing', sameCaller(input), 'See your allowance per event after a refill.'),
    };
  },
});

const mixField = z
  .record(z.string().min(1).max(64), z.number().int().min(0).max(100_000))
  .refine((m) => Object.keys(m).length >= 1 && Object.keys(m).length <= 40, 'give 1 to 40 tools, each with a call count')
  .describe('Planned calls per tool or event id, e.g. {"improve_kernel": 5, "mesh_match": 10}.');

export const costModel = defineOperation({
  name: 'cost_model',
  title: 'Cost of a planned mix of calls',
  description:
    'For a planned mix of metered calls ({tool: count}): per event your free units left today, the refills still possible, the units beyond both and their cost in cents at list price, and the total. Use it before a batch of value tools.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({ mix: mixField, ...callerArgs }),
  output: z.looseObject({
    ok: z.literal(true),
    caller: callerOutput,
    events: z.array(
      z.looseObject({
        event_id: z.string(),
        planned: z.number(),
        free_left: z.number(),
        refills_reachable: z.number(),
        units_beyond: z.number(),
        cost_cents: z.number(),
        always_free: z.boolean(),
        note: z.string(),
      }),
    ),
    total: z.looseObject({ planned: z.number(), covered_free: z.number(), covered_by_refills: z.number(), units_beyond: z.number(), cost_cents: z.number(), cost_usd: z.number() }),
    next_step: nextStepOutput,
  }),
  async handler(ctx, input) {
    const unknown = Object.keys(input.mix).filter((name) => !plannableNames().includes(name));
    if (unknown.length) {
      throw badRequest(
        'unknown_tool',
        `not metered tools or events: ${unknown.join(', ')}. cost_model plans metered calls only (other tools are free): ${plannableNames().join(', ')}`,
        `mix.${unknown[0]}`,
        unknown.map((name) => ({ field: `mix.${name}`, message: 'not a metered tool or event id' })),
      );
    }
    const subject = await subjectOf(ctx, input);
    const day = await callerDay(ctx.db.kysely, subject, ctx.clock.now());
    const plans = [...eventsOfMix(input.mix)].map(([event, planned]) => planEvent(day, event, planned, ctx.config.x402.enabled));
    const sum = (k: 'planned' | 'covered_free' | 'covered_by_refills' | 'units_beyond' | 'cost_cents' | 'cost_cents_without_refills') => plans.reduce((s, p) => s + p[k], 0);
    const needRefills = plans.some((p) => p.covered_by_refills > 0);
    const args = sameCaller(input);
    return {
      ok: true as const,
      caller: subjectView(subject),
      day: day.day,
      resets_at: day.resets_at,
      x402_enabled: ctx.config.x402.enabled,
      tools: Object.fromEntries(Object.keys(input.mix).map((name) => [name, [...(TOOL_EVENTS[name] ?? [])]])),
      events: plans.map((p) => ({ ...p, price_usd: meteredEvent(p.event_id).price_usd })),
      total: {
        planned: sum('planned'),
        covered_free: sum('covered_free'),
        covered_by_refills: sum('covered_by_refills'),
        units_beyond: sum('units_beyond'),
        cost_cents: sum('cost_cents'),
        cost_usd: sum('cost_cents') / 100,
        cost_cents_without_refills: sum('cost_cents_without_refills'),
        payable: ctx.config.x402.enabled ? 'through x402, per call, once the free units are used' : 'not on this server (x402 is off): units beyond wait for the reset',
      },
      next_step: needRefills
        ? nextStep('get_reciprocity', args, 'Part of the plan needs refills: see which honest actions add the units.')
        : nextStep('list_event_pricing', args, 'Your allowance per event today.'),
    };
  },
});
