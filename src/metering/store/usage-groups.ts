// Usage rows as the read surfaces take them (figures.ts turns each into its figures): grouped by
// day, event and the row's counts, with how many allowances had exactly that row. A network-wide
// read so returns one row per distinct day of use, not one per caller, and still splits every
// caller's units exactly; a caller's own read (one allowance) returns its own rows.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';

export interface UsageGroup {
  day: string;
  event_id: string;
  used: number;
  refilled: number;
  paid: number;
  bonus: number;
  /** How many allowances had this row. */
  allowances: number;
}

export interface UsageFilter {
  /** First UTC day, inclusive. */
  sinceDay: string;
  /** Last UTC day, inclusive (default: no end). */
  untilDay?: string;
  /** Only this allowance (caller.ts `Subject.allowance`). */
  allowance?: string;
  event?: EventId;
}

export async function usageGroups(ex: Executor, f: UsageFilter): Promise<UsageGroup[]> {
  let sel = q(ex)
    .selectFrom('meter_usage')
    .select((eb) => ['day', 'event_id', 'used', 'refilled', 'paid', 'bonus', eb.fn.countAll<number>().as('allowances')])
    .where('day', '>=', f.sinceDay)
    .groupBy(['day', 'event_id', 'used', 'refilled', 'paid', 'bonus'])
    .orderBy('day')
    .orderBy('event_id');
  if (f.untilDay !== undefined) sel = sel.where('day', '<=', f.untilDay);
  if (f.allowance !== undefined) sel = sel.where('subject', '=', f.allowance);
  if (f.event !== undefined) sel = sel.where('event_id', '=', f.event);
  const rows = await sel.execute();
  return rows.map((r) => ({ day: r.day, event_id: r.event_id, used: Number(r.used), refilled: Number(r.refilled), paid: Number(r.paid), bonus: Number(r.bonus), allowances: Number(r.allowances) }));
}
