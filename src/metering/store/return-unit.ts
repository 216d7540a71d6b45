// Giving a unit back: a free one taken for work that failed, or a paid one whose payment did not
// settle. Never below zero.
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';

/** Gives back a unit taken for work that then failed (the same transaction rolls back otherwise). */
export async function returnUnit(ex: Executor, subject: string, day: string, event: EventId): Promise<void> {
  await q(ex).updateTable('meter_usage').set({ used: sql`used - 1` }).where('subject', '=', subject).where('day', '=', day).where('event_id', '=', event).where('used', '>', 0).execute();
}

/** Gives back a paid unit whose payment then did not settle. */
export async function returnPaidUnit(ex: Executor, subject: string, day: string, event: EventId): Promise<void> {
  await q(ex).updateTable('meter_usage').set({ paid: sql`paid - 1` }).where('subject', '=', subject).where('day', '=', day).where('event_id', '=', event).where('paid', '>', 0).execute();
}
