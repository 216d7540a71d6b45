// Charging a metered event (SPEC.md 8.1): one unit of the caller's daily allowance, taken in the
// transaction of the work it pays for, so work that fails gives its unit back by rolling back.
// Past the allowance: a 429 `quota_exhausted` that lists the refills and the reset time, or, with
// X402_ENABLED and a paid-for event, the x402 path (x402.ts).
import type { Executor } from '../platform/db/executor.ts';
import { AppError } from '../platform/errors.ts';
import { meteredEvent, type EventId } from './events.ts';
import { refillsOf } from './refills.ts';
import { grantsOfDay, takeUnit, recordPaidUnit } from './store.ts';
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
  const free = meteredEvent(event).free_per_day;
  const bonus = row.bonus ?? 0;
  return {
    event_id: event,
    used_today: row.used,
    free_per_day: free,
    refills_today: row.refilled,
    remaining: Math.max(0, free + row.refilled + bonus - row.used),
    paid_today: row.paid,
    ...(bonus > 0 ? { bonus_today: bonus } : {}),
    resets_at: nextReset(now),
    subject: { kind: subject.kind, label: subject.label, ...(subject.note ? { note: subject.note } : {}) },
  };
}

/** What a caller can do when an event's allowance is spent: the refills left today and the reset. */
export async function exhaustedDetails(ex: Executor, subject: Subject, event: EventId, now: Date) {
  const grants = await grantsOfDay(ex, subject.allowance, utcDay(now));
  return {
    event_id: event,
    free_per_day: meteredEvent(event).free_per_day,
    resets_at: nextReset(now),
    refills: refillsOf(event).map((r) => ({
      action: r.action,
      condition: r.condition,
      grants_left_today: Math.max(0, r.max_per_day - (grants.get(r.action) ?? 0)),
    })),
  };
}

export async function quotaExhausted(ex: Executor, subject: Subject, event: EventId, now: Date): Promise<AppError> {
  const details = await exhaustedDetails(ex, subject, event, now);
  const ways = details.refills.filter((r) => r.grants_left_today > 0).map((r) => r.action);
  const message = `the free daily allowance of ${event} (${details.free_per_day}) is used up; ${ways.length ? `refill it with ${ways.join(', ')}, or ` : ''}wait for the reset at ${details.resets_at}`;
  const retryAfter = Math.max(1, Math.ceil((Date.parse(details.resets_at) - now.getTime()) / 1000));
  return new AppError(429, 'quota_exhausted', message, undefined, details).withHeaders({ 'retry-after': String(retryAfter) });
}

/**
 * Takes one unit of `event` for `subject` inside `trx` and returns the meter, or throws
 * `quota_exhausted`. `paid`: a payment for this call was already verified (x402.ts), so a call past
 * the allowance is recorded as paid instead of refused.
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
  throw await quotaExhausted(trx, subject, event, now);
}
