// A unit beyond the allowance, paid through x402.
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';
import { ensureUsageRow, USAGE_COLUMNS, usageRow, type UsageRow } from './usage-row.ts';

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
