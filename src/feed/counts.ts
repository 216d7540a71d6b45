// Public feed events about listings per UTC day and type (the lifecycle read surface): counts only.
// The catalog's status changes are left out: /grow charts the network's own activity.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { feedTables as q } from './tables.ts';

export async function dailyFeedCounts(ex: Executor, sinceDay: string): Promise<{ day: string; type: string; count: number }[]> {
  const day = sql<string>`substr(at, 1, 10)`;
  const rows = await q(ex).selectFrom('feed_events').select((eb) => [day.as('day'), 'type', eb.fn.countAll<number>().as('n')]).where('at', '>=', sinceDay).where('catalog_remote', 'is', null).groupBy([day, 'type']).execute();
  return rows.map((r) => ({ day: r.day, type: r.type, count: Number(r.n) })).sort((a, b) => a.day.localeCompare(b.day) || a.type.localeCompare(b.type));
}
