// One rank part read and set on its own (DESIGN.md "Rank"): for a part that moves with time (the
// trail strength decays), so a refresh changes only listings whose part really moved and the change
// feed is not flooded with no-op updates.
import type { Executor } from '../platform/db/executor.ts';
import { listingTables as q } from './tables.ts';
import { updateListing } from './store.ts';

/** The named part of each listing's rank (0 when it has none). */
export async function rankPartOf(ex: Executor, ids: readonly string[], part: string): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await q(ex).selectFrom('listings').select(['id', 'rank_parts']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, Number((JSON.parse(r.rank_parts) as Record<string, number>)[part] ?? 0)]));
}

/** Sets `part` to `value` where it differs by at least `minChange`; returns the listings changed. */
export async function setRankPart(ex: Executor, values: ReadonlyMap<string, number>, part: string, now: string, minChange: number): Promise<string[]> {
  const current = await rankPartOf(ex, [...values.keys()], part);
  const changed: string[] = [];
  for (const [id, value] of values) {
    if (!current.has(id) || Math.abs((current.get(id) ?? 0) - value) < minChange) continue;
    await updateListing(ex, id, {}, now, { [part]: value });
    changed.push(id);
  }
  return changed;
}
