// Network-wide counts of listings for the lifecycle and discovery read surfaces: how many sit in
// each lane now, and how many were listed and went Live each UTC day.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { listingTables as q, type Lane } from './tables.ts';
import { listingCapabilitySet } from './capabilities.ts';

export async function laneCounts(ex: Executor): Promise<{ kind: 'agent' | 'mcp'; lane: Lane; count: number }[]> {
  const rows = await q(ex).selectFrom('listings').select((eb) => ['kind', 'lane', eb.fn.countAll<number>().as('n')]).groupBy(['kind', 'lane']).execute();
  return rows.map((r) => ({ kind: r.kind, lane: r.lane, count: Number(r.n) })).sort((a, b) => a.kind.localeCompare(b.kind) || a.lane.localeCompare(b.lane));
}

/**
 * Listings shown in each lane, all kinds together: a deleted listing's tombstone (lane failed,
 * reason deleted) is no listing and is not counted.
 */
export async function shownLaneCounts(ex: Executor): Promise<Record<Lane, number>> {
  const rows = await q(ex).selectFrom('listings').select((eb) => ['lane', eb.fn.countAll<number>().as('n')]).where('deleted_at', 'is', null).groupBy('lane').execute();
  const counts: Record<Lane, number> = { queued: 0, probing: 0, active: 0, failed: 0, dormant: 0 };
  for (const r of rows) counts[r.lane] = Number(r.n);
  return counts;
}

/** Listings created and first gone Live per UTC day since `sinceDay`. */
export async function dailyListings(ex: Executor, sinceDay: string): Promise<{ day: string; listed: number; went_live: number }[]> {
  const day = (col: 'created_at' | 'live_since') => sql<string>`substr(${sql.ref(col)}, 1, 10)`;
  const listed = await q(ex).selectFrom('listings').select((eb) => [day('created_at').as('day'), eb.fn.countAll<number>().as('n')]).where('created_at', '>=', sinceDay).groupBy(day('created_at')).execute();
  const live = await q(ex)
    .selectFrom('listings')
    .select((eb) => [day('live_since').as('day'), eb.fn.countAll<number>().as('n')])
    .where('live_since', 'is not', null)
    .where('live_since', '>=', sinceDay)
    .groupBy(day('live_since'))
    .execute();
  const days = new Map<string, { day: string; listed: number; went_live: number }>();
  for (const r of listed) days.set(r.day, { day: r.day, listed: Number(r.n), went_live: 0 });
  for (const r of live) days.set(r.day, { ...(days.get(r.day) ?? { day: r.day, listed: 0, went_live: 0 }), went_live: Number(r.n) });
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

/** Every Live listing's id, kind and capability names (hyper_index), in id order. */
export async function activeCapabilities(ex: Executor): Promise<{ id: string; kind: 'agent' | 'mcp'; names: string[] }[]> {
  const rows = await q(ex).selectFrom('listings').select(['id', 'kind', 'capabilities']).where('lane', '=', 'active').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, names: listingCapabilitySet(r.capabilities).capabilities }));
}

/** Listings created per UTC day over the whole history (s_curve_board's listing curve). */
export const listingsPerDay = (ex: Executor) => dailyListings(ex, '0000-00-00');
