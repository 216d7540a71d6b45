// The mesh domain's SQL: compositions and their members. Reads other tools build on:
// a composition by id (execute_compose), the compositions of a listing and its composed peers
// (compose_peers, get_agent_runs), and the count of composition edges (network_value's E).
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { meshTables as q } from './tables.ts';
import type { StoredParam } from './coverage.ts';

/** A planned call to a partner (A2A message/send or MCP tools/call). */
export interface PlannedCall {
  protocol: 'a2a' | 'mcp';
  endpoint: string;
  method: 'message/send' | 'tools/call';
  params: Record<string, unknown>;
  /** The capability this call serves. */
  capability?: string;
  /** MCP: the parameters of the chosen tool as the prober recorded them. */
  parameters?: StoredParam[];
}

export interface CompositionStep {
  step: number;
  listing_id: string;
  kind: 'agent' | 'mcp';
  name: string;
  endpoint: string;
  covers: string[];
  calls: PlannedCall[];
  trail_strength: number;
  probe_score: number | null;
}

export interface Composition {
  composition_id: string;
  owner: string;
  listing_id: string | null;
  goal: string | null;
  capabilities: string[];
  steps: CompositionStep[];
  gaps: string[];
  created_at: string;
}

export async function insertComposition(ex: Executor, c: Composition): Promise<void> {
  await q(ex)
    .insertInto('compositions')
    .values({
      id: c.composition_id,
      owner: c.owner,
      listing_id: c.listing_id,
      goal: c.goal,
      capabilities: JSON.stringify(c.capabilities),
      steps: JSON.stringify(c.steps),
      gaps: JSON.stringify(c.gaps),
      created_at: c.created_at,
    })
    .execute();
  const members = [
    ...(c.listing_id ? [{ composition_id: c.composition_id, listing_id: c.listing_id, role: 'owner', step: 0, created_at: c.created_at }] : []),
    ...c.steps.filter((s) => s.listing_id !== c.listing_id).map((s) => ({ composition_id: c.composition_id, listing_id: s.listing_id, role: 'partner', step: s.step, created_at: c.created_at })),
  ];
  if (members.length) await q(ex).insertInto('composition_members').values(members).execute();
}

type Row = { id: string; owner: string; listing_id: string | null; goal: string | null; capabilities: string; steps: string; gaps: string; created_at: string };

const toComposition = (r: Row): Composition => ({
  composition_id: r.id,
  owner: r.owner,
  listing_id: r.listing_id,
  goal: r.goal,
  capabilities: JSON.parse(r.capabilities) as string[],
  steps: JSON.parse(r.steps) as CompositionStep[],
  gaps: JSON.parse(r.gaps) as string[],
  created_at: r.created_at,
});

export async function findComposition(ex: Executor, id: string): Promise<Composition | undefined> {
  const row = await q(ex).selectFrom('compositions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toComposition(row);
}

/** Compositions a listing takes part in (as owner or partner), newest first. */
export async function compositionsOfListing(ex: Executor, listingId: string, limit: number): Promise<(Composition & { role: 'owner' | 'partner' })[]> {
  const rows = await q(ex)
    .selectFrom('composition_members as m')
    .innerJoin('compositions as c', 'c.id', 'm.composition_id')
    .select(['c.id', 'c.owner', 'c.listing_id', 'c.goal', 'c.capabilities', 'c.steps', 'c.gaps', 'c.created_at', 'm.role'])
    .where('m.listing_id', '=', listingId)
    .orderBy('m.created_at', 'desc')
    .orderBy('c.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...toComposition(r), role: r.role as 'owner' | 'partner' }));
}

/** Compositions a caller (metering subject key) made (for one listing, when `listingId` is given), newest first. */
export async function compositionsOfOwner(ex: Executor, owner: string, limit: number, listingId?: string): Promise<Composition[]> {
  let sel = q(ex).selectFrom('compositions').selectAll().where('owner', '=', owner);
  if (listingId !== undefined) sel = sel.where('listing_id', '=', listingId);
  const rows = await sel.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toComposition);
}

/** The listings most often in a composition with `listingId`: how many compositions each shares with it. */
export async function composedPeers(ex: Executor, listingId: string, limit: number): Promise<{ listing_id: string; compositions: number; last_at: string }[]> {
  const rows = await q(ex)
    .selectFrom('composition_members as m')
    .innerJoin('composition_members as p', 'p.composition_id', 'm.composition_id')
    .select(['p.listing_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('p.created_at').as('last_at')])
    .where('m.listing_id', '=', listingId)
    .where('p.listing_id', '!=', listingId)
    .groupBy('p.listing_id')
    .orderBy('n', 'desc')
    .orderBy('p.listing_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ listing_id: r.listing_id, compositions: Number(r.n), last_at: String(r.last_at) }));
}

/**
 * Composition edges (network_value's E): distinct unordered pairs of listings that appear together
 * in at least one stored composition (owner and partners), and the number of compositions.
 */
export async function countCompositionEdges(ex: Executor): Promise<{ edges: number; compositions: number }> {
  const pairs = q(ex)
    .selectFrom('composition_members as a')
    .innerJoin('composition_members as b', (j) => j.onRef('a.composition_id', '=', 'b.composition_id').on(sql<boolean>`a.listing_id < b.listing_id`))
    .select(['a.listing_id as x', 'b.listing_id as y'])
    .distinct()
    .as('pairs');
  const edges = await q(ex).selectFrom(pairs).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const comps = await q(ex).selectFrom('compositions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { edges: Number(edges.n), compositions: Number(comps.n) };
}

/** How many stored compositions each listing serves in as a partner (abundance_rank: value given to others). */
export async function partnerServings(ex: Executor): Promise<Map<string, number>> {
  const rows = await q(ex).selectFrom('composition_members').select((eb) => ['listing_id', eb.fn.countAll<number>().as('n')]).where('role', '=', 'partner').groupBy('listing_id').execute();
  return new Map(rows.map((r) => [r.listing_id, Number(r.n)]));
}

/** The capability sets of the latest `limit` stored compositions (what callers asked for together). */
export async function recentCapabilitySets(ex: Executor, limit: number): Promise<string[][]> {
  const rows = await q(ex).selectFrom('compositions').select(['capabilities']).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map((r) => JSON.parse(r.capabilities) as string[]);
}
