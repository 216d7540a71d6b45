// Demand the mesh could not meet: the gaps of stored compositions (capabilities no Live partner
// covered), per capability, for list_opportunities. Compositions are counted, never shown.
import type { Executor } from '../platform/db/executor.ts';
import { meshTables as q } from './tables.ts';

export interface GapDemand {
  capability: string;
  compositions: number;
  /** Listings whose compositions had this gap (the ones asking for a partner). */
  listings: string[];
  last_at: string;
}

/** Gaps of compositions stored after `sinceIso` (the latest `window` of them), most asked first. */
export async function compositionGaps(ex: Executor, sinceIso: string, window: number): Promise<GapDemand[]> {
  const rows = await q(ex)
    .selectFrom('compositions')
    .select(['listing_id', 'gaps', 'created_at'])
    .where('created_at', '>', sinceIso)
    .where('gaps', '<>', '[]')
    .orderBy('created_at', 'desc')
    .limit(window)
    .execute();
  const by = new Map<string, GapDemand>();
  for (const r of rows) {
    for (const raw of JSON.parse(r.gaps) as string[]) {
      const capability = raw.toLowerCase();
      const g = by.get(capability) ?? { capability, compositions: 0, listings: [], last_at: r.created_at };
      g.compositions++;
      if (r.listing_id && !g.listings.includes(r.listing_id)) g.listings.push(r.listing_id);
      if (r.created_at > g.last_at) g.last_at = r.created_at;
      by.set(capability, g);
    }
  }
  return [...by.values()].sort((a, b) => b.compositions - a.compositions || b.last_at.localeCompare(a.last_at) || a.capability.localeCompare(b.capability));
}
