// Willingness to pay (SPEC.md 2.4 `wtp`, 2.5 currency questions, 8.3 list prices): aggregates of
// the amounts callers name, next to the founding list prices and the per-call prices, with
// recommendations that follow fixed rules over those figures (docs/decisions/feedback-envelope.md).
import type { Executor } from '../platform/db/executor.ts';
import { meteredEvent, type EventId } from '../metering/events.ts';
import { answeredCount, latestAnswering, numericStats, optionCounts } from './aggregates.ts';
import { redact } from './public.ts';
import { WTP_EVENT_QUESTIONS, WTP_PRODUCT_QUESTIONS } from './survey.ts';

/** SPEC.md 8.3 founding list prices (USD); a collab pack has no list price. */
export const LIST_PRICES_USD = { kernel: 14.99, loop: 19.99, alive: 29.99, mesh: 24.99, collab_lab: 49 } as const;
export type PricedSku = keyof typeof LIST_PRICES_USD;
export const SKU_LABELS: Record<string, string> = { kernel: 'Kernel', loop: 'Loop', alive: 'Alive', mesh: 'Mesh', collab_pack: 'Collab pack', collab_lab: 'Collab Lab' };

/** SPEC.md 8.3: a named price is clamped to 50%-300% of the list price, applied only when payments open. */
export const NAME_YOUR_PRICE = { min_share: 0.5, max_share: 3 } as const;

const cents = (usd: number) => Math.round(usd * 100) / 100;

export function nameYourPriceRange(list: number) {
  return { min_usd: cents(list * NAME_YOUR_PRICE.min_share), max_usd: cents(list * NAME_YOUR_PRICE.max_share) };
}

/** The price a named price becomes for a SKU (clamped), and whether it was clamped. */
export function clampNamedPrice(sku: PricedSku, named: number): { list_usd: number; named_usd: number; price_usd: number; clamped: boolean } {
  const list = LIST_PRICES_USD[sku];
  const { min_usd, max_usd } = nameYourPriceRange(list);
  const price = cents(Math.min(max_usd, Math.max(min_usd, named)));
  return { list_usd: list, named_usd: named, price_usd: price, clamped: price !== cents(named) };
}

/** Answers per SKU or event before a recommendation is made. */
export const WTP_MIN_N = 3;
export const WTP_SAMPLES = 5;

const PRODUCT_IDS = Object.keys(WTP_PRODUCT_QUESTIONS) as (keyof typeof WTP_PRODUCT_QUESTIONS)[];
const EVENT_IDS = Object.keys(WTP_EVENT_QUESTIONS) as (keyof typeof WTP_EVENT_QUESTIONS)[];
export const CURRENCY_QUESTIONS = [...PRODUCT_IDS, ...EVENT_IDS];
const COMMERCE_CHOICES = ['would_buy_at_founding', 'name_your_price_intent'];

export interface Recommendation {
  about: string;
  action: 'collect_more_answers' | 'consider_lower_price' | 'room_above_list' | 'keep_list_price' | 'per_call_price_above_wtp' | 'per_call_price_fits' | 'pricing_feels_high' | 'pricing_feels_fair';
  why: string;
}

/** The `wtp` aggregates, computed from stored answers. */
export async function wtpAggregates(ex: Executor) {
  const stats = await numericStats(ex, [...CURRENCY_QUESTIONS, 'pricing_fairness', 'wtp_confidence']);
  const choices = await optionCounts(ex, COMMERCE_CHOICES);
  const n = await answeredCount(ex, CURRENCY_QUESTIONS);
  const avg: Record<string, number | null> = {};
  const zerosBy: Record<string, number> = {};
  let zeros = 0;
  for (const id of CURRENCY_QUESTIONS) {
    const s = stats.get(id);
    avg[`avg_${id}`] = s ? s.avg : null;
    zerosBy[id] = s?.zeros ?? 0;
    zeros += s?.zeros ?? 0;
  }
  const recommendations: Recommendation[] = [];
  const bySku: Record<string, unknown> = {};
  for (const id of PRODUCT_IDS) {
    const sku = WTP_PRODUCT_QUESTIONS[id];
    const s = stats.get(id);
    const list = sku in LIST_PRICES_USD ? LIST_PRICES_USD[sku as PricedSku] : null;
    bySku[sku] = {
      label: SKU_LABELS[sku],
      question: id,
      n: s?.n ?? 0,
      avg_usd: s?.avg ?? null,
      min_usd: s?.min ?? null,
      max_usd: s?.max ?? null,
      zeros: s?.zeros ?? 0,
      list_price_usd: list,
      ...(list !== null ? { name_your_price: nameYourPriceRange(list), avg_to_list: s ? cents(s.avg / list) : null } : {}),
    };
    if (list === null) continue;
    const label = SKU_LABELS[sku]!;
    if (!s || s.n < WTP_MIN_N) recommendations.push({ about: sku, action: 'collect_more_answers', why: `${s?.n ?? 0} answer(s) for ${label}; a recommendation needs ${WTP_MIN_N}` });
    else if (s.avg < list * NAME_YOUR_PRICE.min_share) recommendations.push({ about: sku, action: 'consider_lower_price', why: `the average named price $${s.avg} is below the name-your-price floor $${nameYourPriceRange(list).min_usd} (half of $${list}) over ${s.n} answers` });
    else if (s.avg > list) recommendations.push({ about: sku, action: 'room_above_list', why: `the average named price $${s.avg} is above the list price $${list} over ${s.n} answers` });
    else recommendations.push({ about: sku, action: 'keep_list_price', why: `the average named price $${s.avg} is within half to all of the list price $${list} over ${s.n} answers` });
  }
  const byEvent: Record<string, unknown> = {};
  for (const id of EVENT_IDS) {
    const event = WTP_EVENT_QUESTIONS[id] as EventId;
    const s = stats.get(id);
    const price = meteredEvent(event).price_usd;
    byEvent[event] = { question: id, n: s?.n ?? 0, avg_usd: s?.avg ?? null, zeros: s?.zeros ?? 0, price_usd: price };
    if (s && s.n >= WTP_MIN_N) {
      recommendations.push(
        s.avg < price
          ? { about: event, action: 'per_call_price_above_wtp', why: `callers name $${s.avg} a call on average, below the price $${price} (${s.n} answers)` }
          : { about: event, action: 'per_call_price_fits', why: `callers name $${s.avg} a call on average, at or above the price $${price} (${s.n} answers)` },
      );
    }
  }
  const fairness = stats.get('pricing_fairness');
  if (fairness && fairness.n >= WTP_MIN_N) {
    recommendations.push(
      fairness.avg < 3
        ? { about: 'pricing_fairness', action: 'pricing_feels_high', why: `pricing_fairness averages ${fairness.avg} of 5 over ${fairness.n} answers (3 is fair); low answers already raise the caller's free allowances` }
        : { about: 'pricing_fairness', action: 'pricing_feels_fair', why: `pricing_fairness averages ${fairness.avg} of 5 over ${fairness.n} answers (3 is fair)` },
    );
  }
  const samples = (await latestAnswering(ex, CURRENCY_QUESTIONS, WTP_SAMPLES)).map((item) => ({
    feedback_id: item.id,
    created_at: item.created_at,
    amounts_usd: Object.fromEntries(CURRENCY_QUESTIONS.filter((q) => typeof item.answers?.[q] === 'number').map((q) => [q, item.answers![q] as number])),
    ...(typeof item.answers?.wtp_why === 'string' ? { why: redact(item.answers.wtp_why) } : {}),
    ...(typeof item.answers?.wtp_confidence === 'number' ? { confidence: item.answers.wtp_confidence } : {}),
  }));
  const counts = (q: string) => Object.fromEntries([...(choices.get(q) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  return {
    n,
    ...avg,
    zeros,
    zeros_by_question: zerosBy,
    by_sku: bySku,
    by_event: byEvent,
    pricing_fairness: fairness ? { n: fairness.n, avg: fairness.avg, low: fairness.low } : { n: 0, avg: null, low: 0 },
    wtp_confidence: stats.get('wtp_confidence') ? { n: stats.get('wtp_confidence')!.n, avg: stats.get('wtp_confidence')!.avg } : { n: 0, avg: null },
    would_buy_at_founding: counts('would_buy_at_founding'),
    name_your_price_intent: counts('name_your_price_intent'),
    samples,
    recommendations,
  };
}
