// Deposit bounds (DESIGN.md "Traces": per-caller deposit limits). Each bound is a per-day counter
// taken with one conditional UPDATE (`... WHERE n < max`), in the transaction of the deposit, so
// concurrent calls on several instances never pass a bound and a refused deposit leaves nothing.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { part, together, write, type Part } from '../platform/db/together.ts';
import { AppError } from '../platform/errors.ts';
import { nextReset, utcDay } from '../metering/day.ts';
import { traceTables as q } from './tables.ts';
import type { Channel } from './channels.ts';
import type { SubjectKey } from './subjects.ts';

/** Deposits one caller may make per UTC day, all subjects together (leave_trace and deposit_outcome). */
export const DEPOSITS_PER_DAY = 40;
/** Deposits one caller may make per UTC day on one subject in one channel. */
export const DEPOSITS_PER_SUBJECT_PER_DAY = 3;
/** Endorsements one listing may have counted per UTC day (each partner at most once). */
export const ENDORSEMENTS_PER_DAY = 20;

/**
 * Counts one more under `scope` when fewer than `max` were counted today: the count after it, or
 * undefined at the bound. One statement: the first of the day inserts 1, a later one adds 1 only
 * while under the bound (an upsert whose update is refused returns no row).
 */
export async function takeCount(ex: Executor, owner: string, now: Date, scope: string, max: number): Promise<number | undefined> {
  if (max < 1) return undefined;
  const [n] = await together(ex, [takeCountPart(ex, owner, now, scope, max)]);
  return n;
}

/** takeCount as a part of a batch (platform/db/together.ts); `max` must be at least 1. */
export function takeCountPart(ex: Executor, owner: string, now: Date, scope: string, max: number): Part<number | undefined> {
  const upsert = q(ex)
    .insertInto('trace_counters')
    .values({ owner, day: utcDay(now), scope, n: 1 })
    .onConflict((oc) =>
      oc
        .columns(['owner', 'day', 'scope'])
        .doUpdateSet({ n: sql`trace_counters.n + 1` })
        .where('trace_counters.n', '<', max),
    )
    .returning('n');
  return part(upsert, (rows) => (rows[0] === undefined ? undefined : Number(rows[0].n)));
}

/** Adds `amount` under `scope` on the UTC day of `now`, as a part of a batch (a sum the caller bounds itself). */
export function addCountPart(ex: Executor, owner: string, now: Date, scope: string, amount: number): Part<void> {
  return write(
    q(ex)
      .insertInto('trace_counters')
      .values({ owner, day: utcDay(now), scope, n: amount })
      .onConflict((oc) => oc.columns(['owner', 'day', 'scope']).doUpdateSet({ n: sql`trace_counters.n + ${amount}` })),
  );
}

/** How many are counted today under `scope`, as a part of a batch (platform/db/together.ts). */
export function countedPart(ex: Executor, owner: string, now: Date, scope: string): Part<number> {
  const sel = q(ex).selectFrom('trace_counters').select('n').where('owner', '=', owner).where('day', '=', utcDay(now)).where('scope', '=', scope);
  return part(sel, (rows) => Number(rows[0]?.n ?? 0));
}

export function limitReached(what: string, limit: number, now: Date, details: Record<string, unknown> = {}): AppError {
  const resets = nextReset(now);
  const retryAfter = Math.max(1, Math.ceil((Date.parse(resets) - now.getTime()) / 1000));
  return new AppError(429, 'trace_limit_reached', `${what} (at most ${limit} per UTC day); the count resets at ${resets}`, undefined, { limit, resets_at: resets, ...details }).withHeaders({
    'retry-after': String(retryAfter),
  });
}

/**
 * Takes one deposit of `depositor` today in `channel` (on `subject` when it has one) under both
 * bounds, or throws `trace_limit_reached` (429, with when it resets). Returns what is left today.
 */
export async function takeDepositSlot(trx: Executor, depositor: string, channel: Channel, now: Date, subject?: SubjectKey): Promise<{ left_today: number; left_on_subject?: number }> {
  const total = await takeCount(trx, depositor, now, 'total', DEPOSITS_PER_DAY);
  if (total === undefined) {
    throw limitReached(`you have left ${DEPOSITS_PER_DAY} traces today`, DEPOSITS_PER_DAY, now, { bound: 'per_caller' });
  }
  if (!subject) return { left_today: DEPOSITS_PER_DAY - total };
  const onSubject = await takeCount(trx, depositor, now, `${channel} ${subject.key}`, DEPOSITS_PER_SUBJECT_PER_DAY);
  if (onSubject === undefined) {
    throw limitReached(`you have left ${DEPOSITS_PER_SUBJECT_PER_DAY} ${channel} traces on this subject today`, DEPOSITS_PER_SUBJECT_PER_DAY, now, { bound: 'per_subject_channel', channel });
  }
  return { left_today: DEPOSITS_PER_DAY - total, left_on_subject: DEPOSITS_PER_SUBJECT_PER_DAY - onSubject };
}
