// The figures of one allowance's day on one event, from its meter_usage row: the single rule every
// surface that shows usage applies (the meter on a metered result, list_event_pricing, cost_model,
// zero_mc_pack, get_incentives, get_exonomics), so they agree to the unit.
//
// A unit taken from the allowance is one pool (store/take-unit.ts: `used < free + bonus +
// refilled`); which part paid for it is a convention, fixed here: the free allowance (with any
// bonus) first, refills after. So a refill counts as spent only once the free units are gone, and
// refills granted to a caller who never needed them show as granted, not used.
import { meteredEvent, type EventId } from './events.ts';

/** What a meter_usage row holds (store/usage-row.ts). */
export interface UsageCounts {
  used: number;
  refilled: number;
  paid: number;
  bonus?: number;
}

export interface MeterFigures {
  /** Units taken from the allowance (free, bonus and refilled units together). */
  used: number;
  /** The catalog's free units a day (SPEC.md 8.1). */
  free_per_day: number;
  /** Extra free units of a bonus in force this day (bonus.ts). */
  bonus: number;
  /** Units refills granted this day (SPEC.md 8.2). */
  refilled: number;
  /** Units paid through x402 beyond the allowance. */
  paid: number;
  /** The day's cap on free units: free_per_day + bonus + refilled. */
  cap: number;
  /** Units of the allowance still free today. */
  remaining: number;
  /** Used units the free allowance (with its bonus) covered. */
  free_base: number;
  /** Used units refills covered. */
  refills_used: number;
}

export function meterFigures(event: EventId, row: UsageCounts): MeterFigures {
  const free = meteredEvent(event).free_per_day;
  const bonus = row.bonus ?? 0;
  const freeBase = Math.min(row.used, free + bonus);
  const cap = free + bonus + row.refilled;
  return {
    used: row.used,
    free_per_day: free,
    bonus,
    refilled: row.refilled,
    paid: row.paid,
    cap,
    remaining: Math.max(0, cap - row.used),
    free_base: freeBase,
    refills_used: Math.min(row.used - freeBase, row.refilled),
  };
}
