// A subject's bonuses, for what get_reciprocity shows.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';
import type { EventId } from '../events.ts';

/** A subject's bonuses (any day). */
export async function bonusesOf(ex: Executor, subject: string): Promise<{ reason: string; events: EventId[]; units: number; from_day: string; until_day: string; created_at: string }[]> {
  const rows = await q(ex).selectFrom('meter_bonuses').selectAll().where('subject', '=', subject).orderBy('created_at').execute();
  return rows.map((r) => ({ reason: r.reason, events: JSON.parse(r.events) as EventId[], units: Number(r.units), from_day: r.from_day, until_day: r.until_day, created_at: r.created_at }));
}
