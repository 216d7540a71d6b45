// Which Live listings cover which capabilities. Two steps through the search engine: this
// instance's index of Live listings (ctx.search) names the candidate listings of each capability,
// then the index of their skills and tools (capability-index.ts) says which skill or tool serves it,
// kept only when the match accounts for the capability's words (coverage.ts `covers`). Candidates
// are re-read from the database, so a listing that left Live since the last poll is never offered.
import type { Ctx } from '../platform/operation.ts';
import type { Executor } from '../platform/db/executor.ts';
import { findListingsByIds, type ListingRow } from '../listings/store.ts';
import { loadProbeStates } from '../probe/store.ts';
import { trailStrength } from '../traces/store.ts';
import type { SearchIndex } from '../search/index-runtime.ts';
import { docSubject } from '../search/docs.ts';
import type { MeshRuntime } from './capability-index.ts';
import { covers, type StoredItem } from './coverage.ts';

export type MeshCtx = Ctx & { search: SearchIndex; mesh: MeshRuntime };

/** Candidate listings the engine names per capability (before the skill-level check). */
const CANDIDATES_PER_CAPABILITY = 40;
/** Skills and tools looked at per capability among the candidates. */
const ITEMS_PER_CAPABILITY = 200;

export interface Cover {
  /** The skill or tool that serves the capability. */
  item: StoredItem;
  /** 0-100: the engine's relevance of that skill or tool, relative to the best one for the capability. */
  score: number;
  why: string[];
}

export interface Partner {
  row: ListingRow;
  /** Asked capability -> the skill or tool that covers it (its best one). */
  covered: Map<string, Cover>;
  probe_score: number | null;
  trail: number;
  /** Where to call it: the endpoint the probe spoke to, else the listed URL. */
  endpoint: string;
  protocol: string | null;
}

/** The Live listings (of `kind`) the search index names for any of `capabilities`. */
export function candidateIds(ctx: MeshCtx, capabilities: readonly string[], kind?: 'agent' | 'mcp'): string[] {
  const ids = new Set<string>();
  for (const c of capabilities) {
    for (const h of ctx.search.engine.query(c, { source: 'listing', kind }, CANDIDATES_PER_CAPABILITY, ctx.search.trust)) ids.add(docSubject(h.id).key);
  }
  return [...ids];
}

/** The rows of `ids` that are Live now (and of `kind`), minus `exclude`. */
export async function liveRows(ex: Executor, ids: readonly string[], kind?: 'agent' | 'mcp', exclude?: string): Promise<ListingRow[]> {
  const rows = await findListingsByIds(ex, [...new Set(ids)]);
  return rows.filter((r) => r.lane === 'active' && (!kind || r.kind === kind) && r.id !== exclude).sort((a, b) => a.id.localeCompare(b.id));
}

/** Which of `capabilities` each row covers, and through which skill or tool. */
export function coverage(ctx: MeshCtx, rows: readonly ListingRow[], capabilities: readonly string[]): Map<string, Map<string, Cover>> {
  const index = ctx.mesh.capabilities;
  index.ensure(rows);
  const ids = rows.map((r) => r.id);
  const out = new Map<string, Map<string, Cover>>();
  for (const c of capabilities) {
    for (const hit of index.query(c, ids, ITEMS_PER_CAPABILITY)) {
      if (!covers(c, hit.why)) continue;
      const mine = out.get(hit.listing_id) ?? new Map<string, Cover>();
      out.set(hit.listing_id, mine);
      const cur = mine.get(c);
      if (!cur || hit.score > cur.score) mine.set(c, { item: hit.item, score: hit.score, why: hit.why });
    }
  }
  return out;
}

/**
 * Live partners that cover at least one of `capabilities`: among `only` when given (explicit
 * candidates), else among what the search index names; never `exclude`. With their probe score,
 * trail strength (decayed attraction) and endpoint. Unordered.
 */
export async function findPartners(
  ctx: MeshCtx,
  ex: Executor,
  capabilities: readonly string[],
  options: { kind?: 'agent' | 'mcp'; exclude?: string; only?: readonly string[] } = {},
): Promise<Partner[]> {
  if (capabilities.length === 0) return [];
  const ids = options.only ?? candidateIds(ctx, capabilities, options.kind);
  const rows = await liveRows(ex, ids, options.kind, options.exclude);
  const covered = coverage(ctx, rows, capabilities);
  const partners = rows.filter((r) => covered.has(r.id));
  if (!partners.length) return [];
  const partnerIds = partners.map((r) => r.id);
  const probes = await loadProbeStates(ex, partnerIds);
  const trails = await trailStrength(ex, partnerIds, ctx.clock.now());
  return partners.map((row) => {
    const probe = probes.get(row.id);
    return {
      row,
      covered: covered.get(row.id)!,
      probe_score: probe?.score ?? null,
      trail: trails.get(row.id) ?? 0,
      endpoint: probe?.target ?? row.url,
      protocol: probe?.protocol ?? null,
    };
  });
}
