// SPEC.md 8.1: "A low pricing_fairness score slightly raises free daily allowances." A survey
// answer of pricing_fairness 1 or 2 ("too expensive") with real feedback gives the caller one more
// free unit of improve_kernel and run_loop_tick a day for 7 UTC days (the answer's day and the 6
// after), once per caller ever: enough to get more value before paying, too small to farm.
import type { Executor } from '../platform/db/executor.ts';
import type { EventId } from './events.ts';
import type { Subject } from './caller.ts';
import { utcDay } from './day.ts';
import { bonusesOf, grantBonus } from './store.ts';

export const FAIRNESS_BONUS = {
  reason: 'pricing_fairness',
  /** Answers at or below this (1 too expensive .. 3 fair) earn the bonus. */
  at_most: 2,
  events: ['improve_kernel', 'run_loop_tick'] as readonly EventId[],
  units: 1,
  days: 7,
} as const;

export interface BonusResult {
  granted: boolean;
  reason: string;
  events: readonly EventId[];
  units: number;
  from_day: string;
  until_day: string;
  /** Why nothing was granted. */
  why?: string;
}

const DAY_MS = 86_400_000;

/** Grants the pricing_fairness bonus to `subject` in `trx` (atomic; once per subject). */
export async function grantFairnessBonus(trx: Executor, subject: Subject, now: Date): Promise<BonusResult> {
  const b = FAIRNESS_BONUS;
  const from = utcDay(now);
  const until = utcDay(new Date(now.getTime() + (b.days - 1) * DAY_MS));
  const granted = await grantBonus(trx, { subject: subject.allowance, reason: b.reason, events: b.events, units: b.units, from_day: from, until_day: until, created_at: now.toISOString() });
  if (granted) return { granted, reason: b.reason, events: b.events, units: b.units, from_day: from, until_day: until };
  const had = (await bonusesOf(trx, subject.allowance)).find((x) => x.reason === b.reason);
  return {
    granted,
    reason: b.reason,
    events: had?.events ?? b.events,
    units: had?.units ?? b.units,
    from_day: had?.from_day ?? from,
    until_day: had?.until_day ?? until,
    why: `the pricing_fairness bonus is given once per caller; yours runs ${had?.from_day} to ${had?.until_day}`,
  };
}
