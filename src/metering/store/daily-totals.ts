// Network-wide usage per day and event, for the economics surfaces.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';

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
