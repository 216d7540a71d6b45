// The query log: what people and agents searched for and how many hits they got.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { searchTables as q } from './tables.ts';

export const MAX_LOGGED_QUERY = 500;

export async function logQuery(ex: Executor, entry: { text: string; hits: number; tool: string }, at: string): Promise<void> {
  await q(ex)
    .insertInto('search_queries')
    .values({ at, text: entry.text.slice(0, MAX_LOGGED_QUERY), hits: entry.hits, tool: entry.tool })
    .execute();
}

/** The newest logged queries (for list_opportunities and tests). */
export async function recentQueries(ex: Executor, limit: number) {
  return q(ex).selectFrom('search_queries').select(['at', 'text', 'hits', 'tool']).orderBy('id', 'desc').limit(limit).execute();
}

/** Queries logged since `since` (an ISO time; the start of the UTC day for "today"). */
export async function countQueriesSince(ex: Executor, since: string): Promise<number> {
  const row = await q(ex).selectFrom('search_queries').select((eb) => eb.fn.countAll<number>().as('n')).where('at', '>=', since).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Queries (case-insensitive) asked after `sinceIso` whose best answer had at most `maxHits` hits:
 * demand the network does not meet yet (list_opportunities). Most asked first.
 */
export async function weakQueries(ex: Executor, sinceIso: string, maxHits: number, limit: number): Promise<{ text: string; asked: number; best_hits: number; tools: string[]; last_at: string }[]> {
  const key = sql<string>`lower(trim(text))`;
  const rows = await q(ex)
    .selectFrom('search_queries')
    .select((eb) => [key.as('text'), eb.fn.countAll<number>().as('n'), eb.fn.max('hits').as('best'), eb.fn.max('at').as('last_at'), eb.fn.min('tool').as('tool_a'), eb.fn.max('tool').as('tool_b')])
    .where('at', '>', sinceIso)
    .where(key, '<>', '')
    .groupBy(key)
    .having((eb) => eb.fn.max('hits'), '<=', maxHits)
    .orderBy('n', 'desc')
    .orderBy('last_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ text: r.text, asked: Number(r.n), best_hits: Number(r.best), tools: [...new Set([String(r.tool_a), String(r.tool_b)])], last_at: String(r.last_at) }));
}
