// A bonus of free units for some days, granted once per subject and reason.
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';
import { ensureUsageRow } from './usage-row.ts';

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
