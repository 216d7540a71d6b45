// What a caller hears when an event's allowance for the day is spent (SPEC.md 8.1, 8.2). Both
// answers are a 429 with Retry-After until the UTC reset and list the refills still possible today.
// A paid-for event says its allowance is used up (run.ts then offers x402 when it is on). An
// always-free event is never charged, so its refusal says so: the call is free, this is its daily
// cap, and it comes back with a refill or at the reset; it never mentions a price or a payment.
import type { Executor } from '../platform/db/executor.ts';
import { AppError } from '../platform/errors.ts';
import { meteredEvent, type EventId } from './events.ts';
import { refillsOf } from './refills.ts';
import { meterFigures } from './figures.ts';
import { grantsOfDay, usageGroups } from './store.ts';
import { nextReset, utcDay } from './day.ts';
import type { Subject } from './caller.ts';

/** What a caller can do when an event's allowance is spent: the refills left today and the reset. */
export async function exhaustedDetails(ex: Executor, subject: Subject, event: EventId, now: Date) {
  const grants = await grantsOfDay(ex, subject.allowance, utcDay(now));
  const resetsAt = nextReset(now);
  return {
    event_id: event,
    free_per_day: meteredEvent(event).free_per_day,
    resets_at: resetsAt,
    retry_after_s: secondsUntil(resetsAt, now),
    refills: refillsOf(event).map((r) => ({
      action: r.action,
      condition: r.condition,
      grants_left_today: Math.max(0, r.max_per_day - (grants.get(r.action) ?? 0)),
    })),
  };
}

const secondsUntil = (iso: string, now: Date) => Math.max(1, Math.ceil((Date.parse(iso) - now.getTime()) / 1000));

const refillWays = (refills: { action: string; grants_left_today: number }[]) => refills.filter((r) => r.grants_left_today > 0).map((r) => r.action);

/** The refusal of a call past the day's allowance: quota_exhausted, or daily_cap_reached for an always-free event. */
export async function allowanceSpent(ex: Executor, subject: Subject, event: EventId, now: Date): Promise<AppError> {
  return meteredEvent(event).always_free ? dailyCapReached(ex, subject, event, now) : quotaExhausted(ex, subject, event, now);
}

export async function quotaExhausted(ex: Executor, subject: Subject, event: EventId, now: Date): Promise<AppError> {
  const details = await exhaustedDetails(ex, subject, event, now);
  const ways = refillWays(details.refills);
  const message = `the free daily allowance of ${event} (${details.free_per_day}) is used up; ${ways.length ? `refill it with ${ways.join(', ')}, or ` : ''}wait for the reset at ${details.resets_at}`;
  return new AppError(429, 'quota_exhausted', message, undefined, details).withHeaders({ 'retry-after': String(details.retry_after_s) });
}

/** An always-free event past its daily cap: free, capped per day, back at the reset; nothing to pay. */
export async function dailyCapReached(ex: Executor, subject: Subject, event: EventId, now: Date): Promise<AppError> {
  const details = await exhaustedDetails(ex, subject, event, now);
  const [row] = await usageGroups(ex, { sinceDay: utcDay(now), untilDay: utcDay(now), allowance: subject.allowance, event });
  const f = meterFigures(event, row ?? { used: 0, refilled: 0, paid: 0 });
  const ways = refillWays(details.refills);
  const extra = f.refilled + f.bonus > 0 ? ` (${f.free_per_day} a day${f.refilled ? ` + ${f.refilled} refilled` : ''}${f.bonus ? ` + ${f.bonus} bonus` : ''})` : '';
  const message =
    `${event} is always free and never charged: its daily cap of ${f.cap} calls${extra} is reached for today. ` +
    `It resets at ${details.resets_at} (in ${details.retry_after_s} s)${ways.length ? `; ${ways.join(' or ')} adds a call today` : ''}. There is nothing to pay.`;
  return new AppError(429, 'daily_cap_reached', message, undefined, { ...details, always_free: true, daily_cap: f.cap, used_today: f.used, payable: false }).withHeaders({ 'retry-after': String(details.retry_after_s) });
}
