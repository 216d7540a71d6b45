// Charging a metered event (SPEC.md 8.1): one unit of the caller's daily allowance, taken in the
// transaction of the work it pays for, so work that fails gives its unit back by rolling back.
// Past the allowance: a 429 that lists the refills and the reset time (refusals.ts), or, with
// X402_ENABLED and a paid-for event, the x402 path (x402.ts).
import type { Executor } from '../platform/db/executor.ts';
import { meteredEvent, type EventId } from './events.ts';
import { meterFigures } from './figures.ts';
import { allowanceSpent } from './refusals.ts';
import { takeUnit, recordPaidUnit } from './store.ts';
import { nextReset, utcDay } from './day.ts';
import type { Subject } from './caller.ts';

/** `meter` of every metered result (TOOLS.md conventions). */
export interface MeterView {
  event_id: EventId;
  used_today: number;
  free_per_day: number;
  refills_today: number;
  remaining: number;
  /** Units paid through x402 today (beyond the allowance). */
  paid_today: number;
  /** Extra free units today from a bonus (a low pricing_fairness answer, bonus.ts); absent when none. */
  bonus_today?: number;
  resets_at: string;
  subject: { kind: Subject['kind']; label: string; note?: string };
}

export function meterView(subject: Subject, event: EventId, row: { used: number; refilled: number; paid: number; bonus?: number }, now: Date): MeterView {
  const f = meterFigures(event, row);
  return {
    event_id: event,
    used_today: f.used,
    free_per_day: f.free_per_day,
    refills_today: f.refilled,
    remaining: f.remaining,
    paid_today: f.paid,
    ...(f.bonus > 0 ? { bonus_today: f.bonus } : {}),
    resets_at: nextReset(now),
    subject: { kind: subject.kind, label: subject.label, ...(subject.note ? { note: subject.note } : {}) },
  };
}

/**
 * Takes one unit of `event` for `subject` inside `trx` and returns the meter, or throws the
 * refusal of refusals.ts. `paid`: a payment for this call was already verified (x402.ts), so a
 * call past the allowance of a paid-for event is recorded as paid instead of refused.
 */
export async function charge(trx: Executor, subject: Subject, event: EventId, now: Date, paid = false): Promise<MeterView> {
  return (await chargeUnit(trx, subject, event, now, paid)).meter;
}

/** charge(), also saying whether the unit was a paid one (false: a free unit was still left). */
export async function chargeUnit(trx: Executor, subject: Subject, event: EventId, now: Date, paid = false): Promise<{ meter: MeterView; paid: boolean }> {
  const day = utcDay(now);
  const taken = await takeUnit(trx, subject.allowance, day, event, meteredEvent(event).free_per_day);
  if (taken) return { meter: meterView(subject, event, taken, now), paid: false };
  if (paid && !meteredEvent(event).always_free) return { meter: meterView(subject, event, await recordPaidUnit(trx, subject.allowance, day, event), now), paid: true };
  throw await allowanceSpent(trx, subject, event, now);
}
