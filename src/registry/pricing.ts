// get_feedback_pricing (TOOLS.md) and GET /api/products/wtp: the willingness-to-pay aggregates of
// stored survey answers (SPEC.md 2.4 `wtp`), the founding list prices (SPEC.md 8.3), the per-call
// prices (SPEC.md 8.1) and the name-your-price clamp, which applies only once payments open.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { clampNamedPrice, LIST_PRICES_USD, NAME_YOUR_PRICE, nameYourPriceRange, SKU_LABELS, wtpAggregates, type PricedSku } from '../feedback/wtp.ts';
import { WTP_PRODUCT_MAX_USD } from '../feedback/survey.ts';
import { EVENTS } from '../metering/events.ts';
import { FAIRNESS_BONUS } from '../metering/bonus.ts';
import { discountState } from '../funnel/stage-counts.ts';

const SKUS = Object.keys(LIST_PRICES_USD) as PricedSku[];

const pricingShape = {
  sku: z.enum(SKUS as [PricedSku, ...PricedSku[]]).optional().describe(`A product to price: ${SKUS.join(', ')}.`),
  named_price_usd: z.coerce.number().min(0).max(WTP_PRODUCT_MAX_USD).optional().describe('A price you would name for that product (USD): shows the clamped price.'),
};

export const getFeedbackPricing = defineOperation({
  name: 'get_feedback_pricing',
  title: 'Feedback pricing',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'What callers say they would pay (survey willingness-to-pay) beside the founding list prices and per-call prices (same as GET /api/products/wtp). Give sku and named_price_usd for your named price, clamped to 50%-300% of list.',
  input: z.object(pricingShape),
  // Tools refuse arguments they do not know (a model learns its mistake); REST ignores extra query parameters.
  toolInput: z.strictObject(pricingShape),
  output: z.looseObject({
    ok: z.literal(true),
    wtp: z.looseObject({ n: z.number(), zeros: z.number(), by_sku: z.record(z.string(), z.unknown()), samples: z.array(z.unknown()), recommendations: z.array(z.unknown()) }),
    list_prices: z.array(z.looseObject({ sku: z.string(), list_price_usd: z.number() })),
    name_your_price: z.looseObject({ min_share: z.number(), max_share: z.number(), applies_now: z.boolean() }),
  }),
  handler: async (ctx: Ctx, input) => {
    if ((input.sku === undefined) !== (input.named_price_usd === undefined)) {
      throw badRequest('invalid_input', 'sku and named_price_usd go together: give both to see the clamped price, or neither', input.sku === undefined ? 'sku' : 'named_price_usd');
    }
    const ex = ctx.db.kysely;
    const discount = await discountState(ex);
    return {
      ok: true as const,
      wtp: await wtpAggregates(ex),
      list_prices: SKUS.map((sku) => ({ sku, label: SKU_LABELS[sku], list_price_usd: LIST_PRICES_USD[sku], name_your_price: nameYourPriceRange(LIST_PRICES_USD[sku]) })),
      // An always-free event is never charged, but its free_per_day is a daily cap, said as such.
      per_call: EVENTS.map((e) => ({ event_id: e.event_id, price_usd: e.price_usd, free_per_day: e.free_per_day, always_free: e.always_free, ...(e.always_free ? { daily_cap: e.free_per_day } : {}) })),
      name_your_price: {
        field: 'named_price_usd',
        ...NAME_YOUR_PRICE,
        applies_now: discount.payments_open,
        rule: 'clamped to 50%-300% of the list price; applied only when payments open',
        payments_gate: discount.payments_gate,
        ...(input.sku !== undefined && input.named_price_usd !== undefined ? { yours: { sku: input.sku, ...clampNamedPrice(input.sku, input.named_price_usd) } } : {}),
      },
      founding: { seats_left: discount.seats_left, percent_off: discount.founding_percent_off, later_percent_off: discount.later_percent_off },
      pricing_fairness: `answer pricing_fairness (1 too expensive .. 5 great value) in leave_feedback's answers; ${FAIRNESS_BONUS.at_most} or less raises your free ${FAIRNESS_BONUS.events.join(' and ')} allowance by ${FAIRNESS_BONUS.units} a day for ${FAIRNESS_BONUS.days} days, once`,
    };
  },
});
