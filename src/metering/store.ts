// Metering's SQL. Every grant is one conditional UPDATE (`... WHERE used < allowance`), so two
// instances racing for the last unit never both get it: PostgreSQL re-checks the condition under
// the row lock, SQLite has one writer at a time.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { meteringTables as q, type X402PaymentsTable } from './tables.ts';
import type { EventId } from './events.ts';
import type { RefillAction } from './refills.ts';

export interface UsageRow {
  event_id: string;
  used: number;
  refilled: number;
  paid: number;
  /** Extra free units of a bonus in force this day (bonus.ts). */
  bonus: number;
}

const USAGE_COLUMNS = ['event_id', 'used', 'refilled', 'paid', 'bonus'] as const;
const usageRow = (r: { event_id: string; used: number; refilled: number; paid: number; bonus: number }): UsageRow => ({ event_id: r.event_id, used: Number(r.used), refilled: Number(r.refilled), paid: Number(r.paid), bonus: Number(r.bonus) });

/** Makes the day's row when missing (with the bonus units in force that day); true when this call made it. */
async function ensureUsageRow(ex: Executor, subject: string, day: string, event: EventId): Promise<boolean> {
  const known = await q(ex).selectFrom('meter_usage').select('used').where('subject', '=', subject).where('day', '=', day).where('event_id', '=', event).executeTakeFirst();
  if (known) return false;
  const made = await q(ex)
    .insertInto('meter_usage')
    .values({ subject, day, event_id: event, used: 0, refilled: 0, paid: 0, bonus: await bonusUnits(ex, subject, day, event) })
    .onConflict((oc) => oc.columns(['subject', 'day', 'event_id']).doNothing())
    .returning('used')
    .executeTakeFirst();
  return made !== undefined;
}

/** Extra free units of `event` that the subject's bonuses give on `day`. */
async function bonusUnits(ex: Executor, subject: string, day: string, event: EventId): Promise<number> {
  const rows = await q(ex).selectFrom('meter_bonuses').select(['events', 'units']).where('subject', '=', subject).where('from_day', '<=', day).where('until_day', '>=', day).execute();
  return rows.filter((r) => (JSON.parse(r.events) as string[]).includes(event)).reduce((sum, r) => sum + Number(r.units), 0);
}

/**
 * Grants a bonus once per (subject, reason), ever: `units` more free units of each event on every
 * day from `fromDay` to `untilDay`. Today's rows get it now (an existing row is raised, a new one
 * copies it in); later days copy it in when their row is made. False when it was granted before.
 */
export async function grantBonus(ex: Executor, b: { subject: string; reason: string; events: readonly EventId[]; units: number; from_day: string; until_day: string; created_at: string }): Promise<boolean> {
  const claimed = await q(ex)
    .insertInto('meter_bonuses')
    .values({ subject: b.subject, reason: b.reason, events: JSON.stringify(b.events), units: b.units, from_day: b.from_day, until_day: b.until_day, created_at: b.created_at })
    .onConflict((oc) => oc.columns(['subject', 'reason']).doNothing())
    .returning('subject')
    .executeTakeFirst();
  if (!claimed) return false;
  for (const event of b.events) {
    // A row made just now read the bonus; one that existed (or that a racing charge made) is raised.
    if (!(await ensureUsageRow(ex, b.subject, b.from_day, event))) {
      await q(ex).updateTable('meter_usage').set({ bonus: sql`bonus + ${b.units}` }).where('subject', '=', b.subject).where('day', '=', b.from_day).where('event_id', '=', event).execute();
    }
  }
  return true;
}

/** A subject's bonuses (any day). */
export async function bonusesOf(ex: Executor, subject: string): Promise<{ reason: string; events: EventId[]; units: number; from_day: string; until_day: string; created_at: string }[]> {
  const rows = await q(ex).selectFrom('meter_bonuses').selectAll().where('subject', '=', subject).orderBy('created_at').execute();
  return rows.map((r) => ({ reason: r.reason, events: JSON.parse(r.events) as EventId[], units: Number(r.units), from_day: r.from_day, until_day: r.until_day, created_at: r.created_at }));
}

/**
 * Takes one unit of the day's allowance (`free` plus refills) when one is left. Returns the row
 * after the take, or undefined when the allowance is spent (nothing changed).
 */
export async function takeUnit(ex: Executor, subject: string, day: string, event: EventId, free: number): Promise<UsageRow | undefined> {
  await ensureUsageRow(ex, subject, day, event);
  return q(ex)
    .updateTable('meter_usage')
    .set({ used: sql`used + 1` })
    .where('subject', '=', subject)
    .where('day', '=', day)
    .where('event_id', '=', event)
    .where(sql<boolean>`used < ${free} + refilled + bonus`)
    .returning([...USAGE_COLUMNS])
    .executeTakeFirst()
    .then((r) => (r ? usageRow(r) : undefined));
}

/** Records a unit paid through x402 (beyond the allowance). */
export async function recordPaidUnit(ex: Executor, subject: string, day: string, event: EventId): Promise<UsageRow> {
  await ensureUsageRow(ex, subject, day, event);
  return q(ex)
    .updateTable('meter_usage')
    .set({ paid: sql`paid + 1` })
    .where('subject', '=', subject)
    .where('day', '=', day)
    .where('event_id', '=', event)
    .returning([...USAGE_COLUMNS])
    .executeTakeFirstOrThrow()
    .then(usageRow);
}

/** Gives back a unit taken for work that then failed (the same transaction rolls back otherwise). */
export async function returnUnit(ex: Executor, subject: string, day: string, event: EventId): Promise<void> {
  await q(ex).updateTable('meter_usage').set({ used: sql`used - 1` }).where('subject', '=', subject).where('day', '=', day).where('event_id', '=', event).where('used', '>', 0).execute();
}

/**
 * Counts one grant of a refill action when the day's cap allows, and adds one unit to each of its
 * events. Returns the grants used today after this one, or undefined when the cap was reached.
 */
export async function grantRefill(ex: Executor, subject: string, day: string, action: RefillAction, events: readonly EventId[], max: number): Promise<number | undefined> {
  await q(ex)
    .insertInto('meter_grants')
    .values({ subject, day, action, grants: 0 })
    .onConflict((oc) => oc.columns(['subject', 'day', 'action']).doNothing())
    .execute();
  const row = await q(ex)
    .updateTable('meter_grants')
    .set({ grants: sql`grants + 1` })
    .where('subject', '=', subject)
    .where('day', '=', day)
    .where('action', '=', action)
    .where('grants', '<', max)
    .returning('grants')
    .executeTakeFirst();
  if (!row) return undefined;
  for (const event of events) {
    await ensureUsageRow(ex, subject, day, event);
    await q(ex).updateTable('meter_usage').set({ refilled: sql`refilled + 1` }).where('subject', '=', subject).where('day', '=', day).where('event_id', '=', event).execute();
  }
  return Number(row.grants);
}

/** A subject's usage rows of one day. */
export async function usageOfDay(ex: Executor, subject: string, day: string): Promise<UsageRow[]> {
  const rows = await q(ex).selectFrom('meter_usage').select([...USAGE_COLUMNS]).where('subject', '=', subject).where('day', '=', day).execute();
  return rows.map(usageRow);
}

/** A subject's refill grants of one day, by action. */
export async function grantsOfDay(ex: Executor, subject: string, day: string): Promise<Map<string, number>> {
  const rows = await q(ex).selectFrom('meter_grants').select(['action', 'grants']).where('subject', '=', subject).where('day', '=', day).execute();
  return new Map(rows.map((r) => [r.action, Number(r.grants)]));
}

/** Whether the subject used (or paid for) any of these events on that day. */
export async function usedAnyOf(ex: Executor, subject: string, day: string, events: readonly EventId[]): Promise<boolean> {
  const row = await q(ex)
    .selectFrom('meter_usage')
    .select('event_id')
    .where('subject', '=', subject)
    .where('day', '=', day)
    .where('event_id', 'in', [...events])
    .where((eb) => eb.or([eb('used', '>', 0), eb('paid', '>', 0)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Network-wide totals per (day, event) since a day: units used, refilled and paid (economics). */
export async function dailyTotals(ex: Executor, sinceDay: string): Promise<{ day: string; event_id: string; used: number; refilled: number; paid: number; subjects: number }[]> {
  const rows = await q(ex)
    .selectFrom('meter_usage')
    .select((eb) => [
      'day',
      'event_id',
      eb.fn.sum<number>('used').as('used'),
      eb.fn.sum<number>('refilled').as('refilled'),
      eb.fn.sum<number>('paid').as('paid'),
      eb.fn.countAll<number>().as('subjects'),
    ])
    .where('day', '>=', sinceDay)
    .groupBy(['day', 'event_id'])
    .orderBy('day')
    .orderBy('event_id')
    .execute();
  return rows.map((r) => ({ day: r.day, event_id: r.event_id, used: Number(r.used), refilled: Number(r.refilled), paid: Number(r.paid), subjects: Number(r.subjects) }));
}

/**
 * Records that an address used a free-form agent name today, when it has used fewer than `max`
 * names today (or this one already). Returns whether the name may be used.
 */
export async function admitName(ex: Executor, address: string, day: string, name: string, max: number, record = true): Promise<boolean> {
  const known = await q(ex).selectFrom('meter_names').select('name').where('address', '=', address).where('day', '=', day).where('name', '=', name).executeTakeFirst();
  if (known) return true;
  const count = await q(ex).selectFrom('meter_names').select((eb) => eb.fn.countAll<number>().as('n')).where('address', '=', address).where('day', '=', day).executeTakeFirstOrThrow();
  if (Number(count.n) >= max) return false;
  if (!record) return true;
  await q(ex)
    .insertInto('meter_names')
    .values({ address, day, name })
    .onConflict((oc) => oc.columns(['address', 'day', 'name']).doNothing())
    .execute();
  return true;
}

/** Gives back a paid unit whose payment then did not settle. */
export async function returnPaidUnit(ex: Executor, subject: string, day: string, event: EventId): Promise<void> {
  await q(ex).updateTable('meter_usage').set({ paid: sql`paid - 1` }).where('subject', '=', subject).where('day', '=', day).where('event_id', '=', event).where('paid', '>', 0).execute();
}

export type NewPayment = Pick<X402PaymentsTable, 'proof_hash' | 'subject' | 'event_id' | 'day' | 'x402_version' | 'network' | 'amount' | 'created_at'>;

/**
 * Claims a payment proof for one call: one INSERT on its hash, so of two calls (on any instances)
 * with the same proof exactly one gets it. False: the proof was already used (or is in use).
 */
export async function claimPayment(ex: Executor, p: NewPayment): Promise<boolean> {
  const row = await q(ex)
    .insertInto('x402_payments')
    .values({ ...p, status: 'pending', reason: null, payer: null, tx: null, settled_at: null })
    .onConflict((oc) => oc.column('proof_hash').doNothing())
    .returning('proof_hash')
    .executeTakeFirst();
  return row !== undefined;
}

/** Frees a claimed proof that paid for nothing (refused, facilitator down, work failed): it may be offered again. */
export async function releasePayment(ex: Executor, proofHash: string): Promise<void> {
  await q(ex).deleteFrom('x402_payments').where('proof_hash', '=', proofHash).where('status', '=', 'pending').execute();
}

/** Records how a claimed payment ended once the call ran. */
export async function finishPayment(ex: Executor, proofHash: string, end: Pick<X402PaymentsTable, 'status' | 'reason' | 'payer' | 'tx' | 'settled_at'>): Promise<void> {
  await q(ex).updateTable('x402_payments').set(end).where('proof_hash', '=', proofHash).execute();
}

/** A payment's record (tests and the operator). */
export async function paymentByHash(ex: Executor, proofHash: string): Promise<X402PaymentsTable | undefined> {
  return q(ex).selectFrom('x402_payments').selectAll().where('proof_hash', '=', proofHash).executeTakeFirst();
}

/** The first UTC day each subject used each event (s_curve_board: adopters per product). */
export async function firstUses(ex: Executor): Promise<{ subject: string; event_id: string; day: string }[]> {
  const rows = await q(ex)
    .selectFrom('meter_usage')
    .select((eb) => ['subject', 'event_id', eb.fn.min<string>('day').as('day')])
    .where((eb) => eb.or([eb('used', '>', 0), eb('paid', '>', 0)]))
    .groupBy(['subject', 'event_id'])
    .execute();
  return rows.map((r) => ({ subject: r.subject, event_id: r.event_id, day: String(r.day) }));
}
