// A reciprocity refill: one grant of an honest action, within the day's cap, adds a unit to each
// of its events. The cap is one conditional UPDATE, so racing grants never pass it.
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';
import type { RefillAction } from '../refills.ts';
import { ensureUsageRow } from './usage-row.ts';

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
