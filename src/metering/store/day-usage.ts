// What a subject used on one day: its usage rows, its refill grants, whether it used any of a set
// of events (get_reciprocity, the value tools' gates).
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';
import { USAGE_COLUMNS, usageRow, type UsageRow } from './usage-row.ts';

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
