// A subject's usage of one event on one day, as the store operations return it, and the day's row
// made on first use with the bonus units in force that day.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';

export interface UsageRow {
  event_id: string;
  used: number;
  refilled: number;
  paid: number;
  /** Extra free units of a bonus in force this day (bonus.ts). */
  bonus: number;
}

export const USAGE_COLUMNS = ['event_id', 'used', 'refilled', 'paid', 'bonus'] as const;
export const usageRow = (r: { event_id: string; used: number; refilled: number; paid: number; bonus: number }): UsageRow => ({ event_id: r.event_id, used: Number(r.used), refilled: Number(r.refilled), paid: Number(r.paid), bonus: Number(r.bonus) });

/** Makes the day's row when missing (with the bonus units in force that day); true when this call made it. */
export async function ensureUsageRow(ex: Executor, subject: string, day: string, event: EventId): Promise<boolean> {
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
