// The trail tools over the mesh (TOOLS.md "Stigmergy"): follow_trail (walk.ts), compose_peers,
// attractor_targets and seed_compositions. All read-only and free; every value is decayed to now.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { HOUR_MS, iso } from '../platform/clock.ts';
import { nextStep } from '../platform/next-step.ts';
import { requireListing } from '../listings/operations.ts';
import { findListingsByIds } from '../listings/store.ts';
import { depositsSince, edgesOf, fieldOf } from '../traces/store.ts';
import { queryProblem } from '../search/engine.ts';
import { canonicalCapability } from './coverage.ts';
import { composedPeers, recentCapabilitySets } from './store.ts';
import { coverage, findPartners, type MeshCtx } from './partners.ts';
import { TRAIL_MODES, walkTrail } from './walk.ts';
import { USED_WITH_INTENSITY } from './run-record.ts';
import { wholeNumber } from './fields.ts';
import { round } from './plan.ts';

const listingIdField = z.string().min(1).max(64);
const limitField = (max: number, dflt: number) => wholeNumber(1, max).optional().describe(`How many, 1-${max} (default ${dflt}).`);

/** A capability as the mesh compares it, or a 400 the caller can act on. */
function capabilityArg(raw: string, field = 'capability'): string {
  const c = canonicalCapability(raw);
  if (!c) throw badRequest('invalid_input', `${field} must name something`, field);
  const problem = queryProblem(c);
  if (problem) throw badRequest('invalid_input', `${field}: ${problem}`, field);
  return c;
}

export const followTrail = defineOperation({
  name: 'follow_trail',
  title: 'Follow a trail',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'Walk the strongest edges from a listing or a capability for up to `steps` hops and return the path. mode: hot (used or endorsed together), composition, danger, or demand (a capability a listing lacks, then who covers it). Free.',
  input: z.object({
    listing_id: listingIdField.optional().describe('Start at this listing.'),
    capability: z.string().max(200).optional().describe('Or start at this capability.'),
    mode: z.enum(TRAIL_MODES).optional().describe('hot (default), demand, danger or composition.'),
    steps: wholeNumber(1, 5).optional().describe('Hops, 1-5 (default 3).'),
  }),
  output: z.looseObject({ ok: z.literal(true), mode: z.string(), path: z.array(z.looseObject({ hop: z.number(), strength: z.number() })), ended: z.string() }),
  handler: async (ctx: MeshCtx, input) => {
    if ((input.listing_id === undefined) === (input.capability === undefined)) throw badRequest('invalid_input', 'start from one place: listing_id or capability', 'listing_id');
    const start = input.listing_id !== undefined ? { kind: 'listing' as const, id: (await requireListing(ctx, input.listing_id)).id } : { kind: 'capability' as const, id: capabilityArg(input.capability!) };
    const mode = input.mode ?? 'hot';
    const { hops, ended } = await walkTrail(ctx, ctx.db.kysely, start, mode, input.steps ?? 3);
    const last = hops.at(-1)?.to;
    return {
      ok: true as const,
      at: iso(ctx.clock.now()),
      mode,
      start,
      path: hops,
      ended,
      next_step:
        last?.kind === 'listing'
          ? nextStep('interop_resolve', { listing_id: start.kind === 'listing' ? start.id : last.id, ...(start.kind === 'listing' ? { partner_listing_id: last.id } : { capability: start.id }) }, 'See how you would talk to where the trail leads.')
          : last?.kind === 'capability'
            ? nextStep('mesh_match', { capabilities: [last.id] }, 'Find Live partners for the capability the trail led to.')
            : nextStep('attractor_targets', {}, 'No trail from here yet: see where attraction is concentrating now.'),
    };
  },
});

export const composePeers = defineOperation({
  name: 'compose_peers',
  title: 'Composed peers',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'The listings most often composed with a listing: stored compositions they share and used_with uses (pair attraction, decayed), with the intensity. Free.',
  input: z.object({ listing_id: listingIdField.describe('The listing whose peers you want.'), limit: limitField(50, 10) }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), peers: z.array(z.looseObject({ listing_id: z.string(), intensity: z.number() })) }),
  handler: async (ctx: MeshCtx, input) => {
    const self = await requireListing(ctx, input.listing_id);
    const now = ctx.clock.now();
    const ex = ctx.db.kysely;
    const limit = input.limit ?? 10;
    const by = new Map<string, { compositions: number; pair_attraction: number; last_at: string | null }>();
    for (const p of await composedPeers(ex, self.id, 200)) by.set(p.listing_id, { compositions: p.compositions, pair_attraction: 0, last_at: p.last_at });
    for (const e of await edgesOf(ex, self.id, 'attraction', now, 200)) {
      const other = e.a === self.id ? e.b : e.a;
      if (!other) continue;
      const cur = by.get(other) ?? { compositions: 0, pair_attraction: 0, last_at: null };
      cur.pair_attraction = e.value;
      if (!cur.last_at || e.last_at > cur.last_at) cur.last_at = e.last_at;
      by.set(other, cur);
    }
    const rows = new Map((await findListingsByIds(ex, [...by.keys()])).map((r) => [r.id, r]));
    const peers = [...by.entries()]
      .filter(([id]) => rows.has(id))
      .map(([id, p]) => ({ listing_id: id, name: rows.get(id)!.name, kind: rows.get(id)!.kind, lane: rows.get(id)!.lane, compositions: p.compositions, pair_attraction: round(p.pair_attraction, 6), intensity: round(p.compositions + p.pair_attraction / USED_WITH_INTENSITY, 6), last_at: p.last_at }))
      .sort((a, b) => b.intensity - a.intensity || a.listing_id.localeCompare(b.listing_id))
      .slice(0, limit);
    return {
      ok: true as const,
      listing_id: self.id,
      count: peers.length,
      peers,
      intensity_rule: `shared compositions + pair attraction / ${USED_WITH_INTENSITY} (one used_with, decayed)`,
      next_step: peers[0]
        ? nextStep('follow_trail', { listing_id: self.id, mode: 'composition' }, 'Walk on from the strongest peer to who it is composed with.')
        : nextStep('mesh_match', { listing_id: self.id }, 'No peers yet: find partners that complement this listing.'),
    };
  },
});

const ATTRACTOR_WINDOW_H = 24;
const ATTRACTOR_READ = 20_000;
const attractorShape = { kind: z.enum(['listing', 'capability']).optional().describe('Only listings or only capabilities.'), limit: limitField(50, 10) };

export const attractorTargets = defineOperation({
  name: 'attractor_targets',
  title: 'Attractor targets',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'Where attraction is concentrating fastest: listings and capabilities ranked by attraction gained over the last 24 hours (per hour), with their current decayed value. Free.',
  input: z.object(attractorShape),
  // Tools refuse arguments they do not know (a model learns its mistake).
  toolInput: z.strictObject(attractorShape),
  output: z.looseObject({ ok: z.literal(true), window_h: z.number(), targets: z.array(z.looseObject({ subject_kind: z.string(), id: z.string(), gain_per_hour: z.number() })) }),
  handler: async (ctx: MeshCtx, input) => {
    const now = ctx.clock.now();
    const since = now.getTime() - ATTRACTOR_WINDOW_H * HOUR_MS;
    const gain = new Map<string, { total: number; deposits: number }>();
    // Subjects of the kind not asked for that gained: an empty answer then says where attraction went.
    const elsewhere = new Set<string>();
    for (const d of await depositsSince(ctx.db.kysely, since, ATTRACTOR_READ, 'attraction')) {
      if (d.at_ms > now.getTime()) continue;
      const kind = d.subject_key.startsWith('listing:') ? 'listing' : d.subject_key.startsWith('cap:') ? 'capability' : undefined;
      if (!kind) continue;
      if (input.kind && input.kind !== kind) {
        elsewhere.add(d.subject_key);
        continue;
      }
      const g = gain.get(d.subject_key) ?? { total: 0, deposits: 0 };
      g.total += d.intensity;
      g.deposits++;
      gain.set(d.subject_key, g);
    }
    const top = [...gain.entries()].sort((a, b) => b[1].total - a[1].total || a[0].localeCompare(b[0])).slice(0, input.limit ?? 10);
    const field = new Map((await fieldOf(ctx.db.kysely, top.map(([k]) => k), now, 'attraction')).map((e) => [e.subject_key, e.value]));
    const listingIds = top.filter(([k]) => k.startsWith('listing:')).map(([k]) => k.slice('listing:'.length));
    const rows = new Map((await findListingsByIds(ctx.db.kysely, listingIds)).map((r) => [r.id, r]));
    const targets = top.map(([key, g]) => {
      const isListing = key.startsWith('listing:');
      const id = key.slice(isListing ? 'listing:'.length : 'cap:'.length);
      return {
        subject_kind: isListing ? 'listing' : 'capability',
        id,
        ...(isListing && rows.get(id) ? { name: rows.get(id)!.name } : {}),
        gained_24h: round(g.total, 3),
        gain_per_hour: round(g.total / ATTRACTOR_WINDOW_H, 6),
        deposits_24h: g.deposits,
        value_now: round(field.get(key) ?? 0, 6),
      };
    });
    const first = targets[0];
    const other = input.kind === 'listing' ? 'capability' : 'listing';
    const plural = (kind: string, n: number) => (n === 1 ? kind : kind === 'capability' ? 'capabilities' : `${kind}s`);
    return {
      ok: true as const,
      at: iso(now),
      window_h: ATTRACTOR_WINDOW_H,
      count: targets.length,
      targets,
      next_step: first
        ? nextStep('follow_trail', first.subject_kind === 'listing' ? { listing_id: first.id } : { capability: first.id }, 'Follow the trail from the fastest attractor.')
        : input.kind && elsewhere.size
          ? nextStep('attractor_targets', { kind: other }, `No ${input.kind} gained attraction in the last ${ATTRACTOR_WINDOW_H} hours; ${elsewhere.size} ${plural(other, elsewhere.size)} did: see them.`)
          : nextStep('sense_traces', {}, 'No attraction gained in the last 24 hours: read the whole field.'),
    };
  },
});

const SETS_READ = 500;
const SEEDS_MAX = 20;

export const seedCompositions = defineOperation({
  name: 'seed_compositions',
  title: 'Seed compositions',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'Starter compositions: pairs of capabilities asked for together that no single Live listing covers, each with the Live pair that covers them and a ready mesh_compose call. With listing_id: only pairs it covers a side of. Free.',
  input: z.object({ listing_id: listingIdField.optional().describe('Your listing: seeds where you are one side.'), limit: limitField(SEEDS_MAX, 5) }),
  output: z.looseObject({ ok: z.literal(true), seeds: z.array(z.looseObject({ capabilities: z.array(z.string()), partners: z.array(z.looseObject({ listing_id: z.string() })) })) }),
  handler: async (ctx: MeshCtx, input) => {
    const self = input.listing_id !== undefined ? await requireListing(ctx, input.listing_id) : undefined;
    const ex = ctx.db.kysely;
    const together = new Map<string, number>();
    for (const set of await recentCapabilitySets(ex, SETS_READ)) {
      const caps = [...new Set(set.map(canonicalCapability))].sort();
      for (let i = 0; i < caps.length; i++) for (let j = i + 1; j < caps.length; j++) together.set(`${caps[i]}\u0000${caps[j]}`, (together.get(`${caps[i]}\u0000${caps[j]}`) ?? 0) + 1);
    }
    const ranked = [...together.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const mine = self ? coverage(ctx, [self], [...new Set(ranked.flatMap(([k]) => k.split('\u0000')))]).get(self.id) : undefined;
    const seeds = [];
    for (const [key, n] of ranked) {
      if (seeds.length >= (input.limit ?? 5)) break;
      const [c1, c2] = key.split('\u0000') as [string, string];
      if (self && !mine?.has(c1) && !mine?.has(c2)) continue;
      const partners = await findPartners(ctx, ex, [c1, c2]);
      if (partners.some((p) => p.covered.has(c1) && p.covered.has(c2))) continue; // one listing already does both: nothing to compose
      const pick = (c: string) => (self && mine?.has(c) ? undefined : partners.filter((p) => p.covered.has(c)).sort((a, b) => b.trail - a.trail || (b.probe_score ?? 0) - (a.probe_score ?? 0) || a.row.id.localeCompare(b.row.id))[0]);
      const a = self && mine?.has(c1) ? self : pick(c1)?.row;
      const b = self && mine?.has(c2) ? self : pick(c2)?.row;
      if (!a || !b || a.id === b.id) continue;
      seeds.push({
        capabilities: [c1, c2],
        asked_together: n,
        partners: [
          { listing_id: a.id, name: a.name, kind: a.kind, covers: c1 },
          { listing_id: b.id, name: b.name, kind: b.kind, covers: c2 },
        ],
        next_step: nextStep('mesh_compose', { capabilities: [c1, c2], candidates: [a.id, b.id].filter((id) => id !== self?.id), ...(self ? { listing_id: self.id } : {}) }, 'Plan and store this composition.'),
      });
    }
    return {
      ok: true as const,
      ...(self ? { listing_id: self.id } : {}),
      count: seeds.length,
      seeds,
      rule: 'capability pairs asked for together in stored compositions, most often first, that no single Live listing covers',
      next_step: seeds[0]?.next_step ?? (self ? nextStep('mesh_match', { listing_id: self.id }, 'No seed yet: match partners that complement you.') : nextStep('search_active', { limit: 10 }, 'No seed yet: browse the Live listings.')),
    };
  },
});
