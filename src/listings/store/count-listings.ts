// How many listings stand where: active ones per kind, and every lane per kind.
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q, type Lane } from '../tables.ts';

export async function countActive(ex: Executor): Promise<{ agent: number; mcp: number }> {
  const rows = await q(ex)
    .selectFrom('listings')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('lane', '=', 'active')
    .groupBy('kind')
    .execute();
  const counts = { agent: 0, mcp: 0 };
  for (const r of rows) counts[r.kind] = Number(r.n);
  return counts;
}

/** How many listings stand in each lane, per kind (every lane and kind present, 0 when none). */
export async function countListings(ex: Executor): Promise<Record<'agent' | 'mcp', Record<Lane, number>>> {
  const rows = await q(ex)
    .selectFrom('listings')
    .select(['kind', 'lane', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['kind', 'lane'])
    .execute();
  const lanes = (): Record<Lane, number> => ({ queued: 0, probing: 0, active: 0, failed: 0, dormant: 0 });
  const counts = { agent: lanes(), mcp: lanes() };
  for (const r of rows) counts[r.kind][r.lane] = Number(r.n);
  return counts;
}
