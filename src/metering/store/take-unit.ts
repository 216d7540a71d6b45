// A metered call takes one unit of the day's free allowance: one conditional UPDATE, so of racing
// calls for the last unit only one gets it.
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';
import { ensureUsageRow, USAGE_COLUMNS, usageRow, type UsageRow } from './usage-row.ts';

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
