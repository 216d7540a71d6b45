// hyper_index: the capability hypergraph of Live listings. Each capability is a vertex with the
// listings offering it; each listing's capability set is a hyperedge (identical sets counted
// together); capabilities that occur in the same listings are co-occurring. Built from the
// listings' stored capability names each call.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { notFound } from '../platform/errors.ts';
import { activeCapabilities } from '../listings/counts.ts';
import { canonicalCapabilities, hashCapabilities } from '../listings/capabilities.ts';
import { READ_ONLY } from './window.ts';

const SAMPLE = 10;
const CO_OCCURRING = 5;

export interface HyperIndex {
  listings: number;
  capabilities: { capability: string; listings: number; listing_ids: string[]; co_occurs: { capability: string; listings: number }[] }[];
  hyperedges: { capabilities: string[]; capability_hash: string; listings: number; listing_ids: string[] }[];
  vertex_count: number;
  hyperedge_count: number;
}

/** The hypergraph of `rows` (pure), the `limit` largest vertices and hyperedges, or only those touching `only`. */
export function buildHyperIndex(rows: readonly { id: string; names: string[] }[], limit: number, only?: string): HyperIndex {
  const holders = new Map<string, string[]>();
  const edges = new Map<string, { capabilities: string[]; ids: string[] }>();
  for (const r of rows) {
    if (r.names.length === 0) continue;
    for (const c of r.names) {
      const list = holders.get(c);
      if (list) list.push(r.id);
      else holders.set(c, [r.id]);
    }
    const key = r.names.join('\n');
    const e = edges.get(key);
    if (e) e.ids.push(r.id);
    else edges.set(key, { capabilities: r.names, ids: [r.id] });
  }
  const vertices = only !== undefined ? (holders.has(only) ? [only] : []) : [...holders.keys()].sort((a, b) => holders.get(b)!.length - holders.get(a)!.length || a.localeCompare(b)).slice(0, limit);
  const chosen = new Set(vertices);
  const co = new Map<string, Map<string, number>>(vertices.map((v) => [v, new Map()]));
  for (const r of rows) {
    for (const c of r.names) {
      if (!chosen.has(c)) continue;
      const m = co.get(c)!;
      for (const other of r.names) if (other !== c) m.set(other, (m.get(other) ?? 0) + 1);
    }
  }
  const hyperedges = [...edges.values()]
    .filter((e) => only === undefined || e.capabilities.includes(only))
    .sort((a, b) => b.ids.length - a.ids.length || b.capabilities.length - a.capabilities.length || a.capabilities.join(',').localeCompare(b.capabilities.join(',')))
    .slice(0, limit)
    .map((e) => ({ capabilities: e.capabilities, capability_hash: hashCapabilities(e.capabilities), listings: e.ids.length, listing_ids: e.ids.slice(0, SAMPLE) }));
  return {
    listings: rows.length,
    vertex_count: holders.size,
    hyperedge_count: edges.size,
    capabilities: vertices.map((v) => ({
      capability: v,
      listings: holders.get(v)!.length,
      listing_ids: holders.get(v)!.slice(0, SAMPLE),
      co_occurs: [...co.get(v)!.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, CO_OCCURRING)
        .map(([capability, listings]) => ({ capability, listings })),
    })),
    hyperedges,
  };
}

export const hyperIndex = defineOperation({
  name: 'hyper_index',
  title: 'Capability hypergraph of Live listings',
  annotations: READ_ONLY,
  description:
    'The capability hypergraph of the Live network: each capability with how many Live listings offer it and the capabilities most often beside it, and the co-occurring capability sets. Give `capability` to see only that one.',
  input: z.strictObject({
    capability: z.string().trim().min(1).max(200).optional().describe('Only this capability (case-insensitive), its co-occurring capabilities and the sets containing it.'),
    limit: z.coerce.number().int().min(1).max(200).default(20).describe('How many capabilities and sets to return (default 20, at most 200).'),
  }),
  output: z.looseObject({ ok: z.literal(true), capabilities: z.array(z.looseObject({ capability: z.string(), listings: z.number() })), hyperedges: z.array(z.looseObject({ capabilities: z.array(z.string()), listings: z.number() })) }),
  handler: async (ctx: Ctx, input) => {
    const only = input.capability === undefined ? undefined : canonicalCapabilities([input.capability])[0];
    const index = buildHyperIndex(await activeCapabilities(ctx.db.kysely), input.limit, only);
    if (only !== undefined && index.capabilities.length === 0) throw notFound(`no Live listing offers the capability ${JSON.stringify(only)}; call hyper_index without capability to see those that exist`, 'capability');
    return { ok: true as const, ...(only !== undefined ? { capability: only } : {}), ...index };
  },
});
