// follow_trail's walk (TOOLS.md "Stigmergy"): from a listing or a capability, up to `steps` hops,
// each to the strongest next node the mode names, never back to a node already on the path. Every
// value is decayed to now (the traces' half-lives), and a hop weaker than MIN_TRAIL is not taken:
// an old trail fades out of the walk on its own. Modes and why: docs/decisions/trails.md.
//   hot          listing -> listing along the strongest pair attraction (used together, endorsed)
//   composition  listing -> listing composed with it most: shared stored compositions plus used_with
//                uses (pair attraction / USED_WITH_INTENSITY), decayed
//   danger       listing -> the listing it works with that carries the most danger now
//   demand       listing -> the capability in strongest demand it lacks -> the Live listing with
//                the strongest trail that covers it -> ...
import type { Executor } from '../platform/db/executor.ts';
import { findListingsByIds, type ListingRow } from '../listings/store.ts';
import { edgesOf, fieldOf, strongest } from '../traces/store.ts';
import { findPartners, coverage, type MeshCtx } from './partners.ts';
import { canonicalCapability } from './coverage.ts';
import { composedPeers } from './store.ts';
import { round } from './plan.ts';

export const TRAIL_MODES = ['hot', 'demand', 'danger', 'composition'] as const;
export type TrailMode = (typeof TRAIL_MODES)[number];

/** Below this (decayed) a trail is too faint to follow. */
export const MIN_TRAIL = 0.05;
/** used_with's intensity: a composition-mode use counts as one shared composition per this much pair attraction. */
const USE_UNIT = 3;
const NEIGHBOURS = 50;
const DEMAND_READ = 50;

export interface Hop {
  hop: number;
  from: { kind: 'listing' | 'capability'; id: string };
  to: { kind: 'listing' | 'capability'; id: string; name?: string };
  /** The strength the hop followed (decayed to now; its unit depends on the mode). */
  strength: number;
  via: string;
}

type Node = { kind: 'listing' | 'capability'; id: string };

const pairOther = (a: string, b: string | null, self: string) => (a === self ? b : a);

/** Neighbours a listing worked with: pair attraction (decayed) and shared compositions. */
async function neighbours(ex: Executor, id: string, now: Date): Promise<Map<string, { attraction: number; compositions: number }>> {
  const out = new Map<string, { attraction: number; compositions: number }>();
  for (const e of await edgesOf(ex, id, 'attraction', now, NEIGHBOURS)) {
    const other = pairOther(e.a, e.b, id);
    if (other) out.set(other, { attraction: e.value, compositions: 0 });
  }
  for (const p of await composedPeers(ex, id, NEIGHBOURS)) {
    const cur = out.get(p.listing_id) ?? { attraction: 0, compositions: 0 };
    cur.compositions = p.compositions;
    out.set(p.listing_id, cur);
  }
  return out;
}

const best = <T>(xs: T[], score: (x: T) => number, key: (x: T) => string): T | undefined =>
  xs.sort((a, b) => score(b) - score(a) || (key(a) < key(b) ? -1 : 1)).find((x) => score(x) >= MIN_TRAIL);

/** The next hop from a listing, or undefined when no trail strong enough leads on. */
async function fromListing(ctx: MeshCtx, ex: Executor, id: string, mode: TrailMode, seen: Set<string>, now: Date): Promise<{ node: Node; strength: number; via: string } | undefined> {
  if (mode === 'demand') {
    const row = (await findListingsByIds(ex, [id]))[0];
    if (!row) return undefined;
    const demand = (await strongest(ex, 'demand', now, DEMAND_READ, 'capability')).filter((e) => !seen.has(`capability:${canonicalCapability(e.a)}`) && e.value >= MIN_TRAIL);
    const own = coverage(ctx, [row], demand.map((e) => canonicalCapability(e.a))).get(row.id);
    const lack = demand.find((e) => !own?.has(canonicalCapability(e.a)));
    return lack && { node: { kind: 'capability', id: canonicalCapability(lack.a) }, strength: lack.value, via: 'demand it lacks' };
  }
  const near = [...(await neighbours(ex, id, now)).entries()].filter(([other]) => !seen.has(`listing:${other}`));
  if (mode === 'hot') {
    const pick = best(near, ([, n]) => n.attraction, ([k]) => k);
    return pick && { node: { kind: 'listing', id: pick[0] }, strength: pick[1].attraction, via: 'pair attraction' };
  }
  if (mode === 'composition') {
    const pick = best(near, ([, n]) => n.compositions + n.attraction / USE_UNIT, ([k]) => k);
    return pick && { node: { kind: 'listing', id: pick[0] }, strength: pick[1].compositions + pick[1].attraction / USE_UNIT, via: `${pick[1].compositions} shared compositions + used_with` };
  }
  const danger = new Map((await fieldOf(ex, near.map(([k]) => `listing:${k}`), now, 'danger')).map((e) => [e.a, e.value]));
  const pick = best(near, ([k]) => danger.get(k) ?? 0, ([k]) => k);
  return pick && { node: { kind: 'listing', id: pick[0] }, strength: danger.get(pick[0]) ?? 0, via: 'danger on a partner' };
}

/** The next hop from a capability: the Live listing covering it with the strongest attraction (danger in danger mode). */
async function fromCapability(ctx: MeshCtx, ex: Executor, capability: string, mode: TrailMode, seen: Set<string>, now: Date): Promise<{ node: Node; strength: number; via: string } | undefined> {
  const partners = (await findPartners(ctx, ex, [capability])).filter((p) => !seen.has(`listing:${p.row.id}`));
  if (mode === 'danger') {
    const danger = new Map((await fieldOf(ex, partners.map((p) => `listing:${p.row.id}`), now, 'danger')).map((e) => [e.a, e.value]));
    const pick = best(partners, (p) => danger.get(p.row.id) ?? 0, (p) => p.row.id);
    return pick && { node: { kind: 'listing', id: pick.row.id }, strength: danger.get(pick.row.id) ?? 0, via: 'danger on a listing covering it' };
  }
  if (mode === 'demand') {
    // Following demand, covering the capability is the edge: the strongest trail, else the best probe score, answers it.
    const pick = partners.sort((a, b) => b.trail - a.trail || (b.probe_score ?? -1) - (a.probe_score ?? -1) || a.row.id.localeCompare(b.row.id))[0];
    return pick && { node: { kind: 'listing', id: pick.row.id }, strength: pick.trail, via: 'the Live listing that covers it (strongest trail, then probe score)' };
  }
  const pick = best(partners, (p) => p.trail, (p) => p.row.id);
  return pick && { node: { kind: 'listing', id: pick.row.id }, strength: pick.trail, via: 'the strongest trail covering it' };
}

export async function walkTrail(ctx: MeshCtx, ex: Executor, start: Node, mode: TrailMode, steps: number): Promise<{ hops: Hop[]; ended: string }> {
  const now = ctx.clock.now();
  const seen = new Set([`${start.kind}:${start.id}`]);
  const hops: Hop[] = [];
  let at = start;
  for (let i = 1; i <= steps; i++) {
    const next = at.kind === 'listing' ? await fromListing(ctx, ex, at.id, mode, seen, now) : await fromCapability(ctx, ex, at.id, mode, seen, now);
    if (!next) return { hops: await named(ex, hops), ended: i === 1 ? 'no trail strong enough leads from here' : 'the trail fades here' };
    hops.push({ hop: i, from: at, to: next.node, strength: round(next.strength, 6), via: next.via });
    seen.add(`${next.node.kind}:${next.node.id}`);
    at = next.node;
  }
  return { hops: await named(ex, hops), ended: 'steps reached' };
}

async function named(ex: Executor, hops: Hop[]): Promise<Hop[]> {
  const ids = hops.filter((h) => h.to.kind === 'listing').map((h) => h.to.id);
  const rows = new Map((await findListingsByIds(ex, ids)).map((r: ListingRow) => [r.id, r]));
  return hops.map((h) => (h.to.kind === 'listing' && rows.has(h.to.id) ? { ...h, to: { ...h.to, name: rows.get(h.to.id)!.name } } : h));
}
