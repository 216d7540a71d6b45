// Complementary partners (mesh_match with a listing_id and no capabilities): what the listing
// lacks that the network wants. First the capabilities in the strongest demand now (demand traces,
// decayed) that the listing does not cover itself; when nothing is in demand, the capabilities
// most Live listings offer that it does not. Rule and why: docs/decisions/mesh-coverage.md.
import type { Executor } from '../platform/db/executor.ts';
import { activeOrder, findListingsByIds, type ListingRow } from '../listings/store.ts';
import { strongest } from '../traces/store.ts';
import { queryProblem } from '../search/engine.ts';
import { canonicalCapability, storedItems } from './coverage.ts';
import { coverage, type MeshCtx } from './partners.ts';

/** Capabilities a complementary match asks for. */
export const COMPLEMENT_CAPABILITIES = 5;
/** Demand subjects read (strongest first) and Live listings surveyed for the supply fallback. */
const DEMAND_READ = 50;
const SUPPLY_LISTINGS = 100;
const SUPPLY_NAMES = 30;

export interface Complement {
  rule: 'demand' | 'supply' | 'none';
  capabilities: string[];
}

const readable = (c: string) => c !== '' && queryProblem(c) === undefined;

/** The first COMPLEMENT_CAPABILITIES of `ranked` that `self` does not cover. */
function lacking(ctx: MeshCtx, self: ListingRow, ranked: string[]): string[] {
  const own = coverage(ctx, [self], ranked).get(self.id);
  return ranked.filter((c) => !own?.has(c)).slice(0, COMPLEMENT_CAPABILITIES);
}

export async function complementOf(ctx: MeshCtx, ex: Executor, self: ListingRow): Promise<Complement> {
  const demand = await strongest(ex, 'demand', ctx.clock.now(), DEMAND_READ, 'capability');
  const wanted = [...new Set(demand.map((e) => canonicalCapability(e.a)).filter(readable))];
  const fromDemand = lacking(ctx, self, wanted);
  if (fromDemand.length) return { rule: 'demand', capabilities: fromDemand };

  // Nothing in demand: what the Live network offers most, that this listing does not.
  const ids = [...(await activeOrder(ex, 'agent')), ...(await activeOrder(ex, 'mcp'))].filter((id) => id !== self.id).slice(0, SUPPLY_LISTINGS);
  const offered = new Map<string, number>();
  for (const row of await findListingsByIds(ex, ids)) {
    for (const name of new Set(storedItems(row.capabilities).map((i) => canonicalCapability(i.name)).filter(readable))) offered.set(name, (offered.get(name) ?? 0) + 1);
  }
  const ranked = [...offered.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, SUPPLY_NAMES)
    .map(([name]) => name);
  const fromSupply = lacking(ctx, self, ranked);
  return fromSupply.length ? { rule: 'supply', capabilities: fromSupply } : { rule: 'none', capabilities: [] };
}
