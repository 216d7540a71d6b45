// The mesh value tools (TOOLS.md "Value tools", SPEC.md 4.2, 8.1): mesh_match ranks Live partners
// whose stored skills or tools cover the capabilities asked, and mesh_compose plans (and stores)
// the fewest Live partners that cover a goal or a capability list. Both metered (mesh_match,
// mesh_compose), both return `meter` and a `next_step` that is valid input for the named tool.
// Weights, tie rules and the goal rule: docs/decisions/mesh-coverage.md.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import type { Executor } from '../platform/db/executor.ts';
import { cleanText } from '../listings/text.ts';
import { requireListing } from '../listings/operations.ts';
import { findListingsByIds, type ListingRow } from '../listings/store.ts';
import { metered, meteredArgs } from '../metering/run.ts';
import { deposit } from '../traces/store.ts';
import { appendFeedEvent } from '../feed/store.ts';
import { subjectKey } from '../traces/subjects.ts';
import { logQuery } from '../search/store.ts';
import { queryProblem } from '../search/engine.ts';
import { accountedStems, askedCapabilities, canonicalCapability, capabilityStems, goalNeeds, MAX_CAPABILITIES, MAX_CAPABILITY_CHARS, meaningfulWords, storedItems } from './coverage.ts';
import { plainWords, stem } from '../search/text.ts';
import { candidateIds, coverage, findPartners, liveRows, type MeshCtx, type Partner } from './partners.ts';
import { complementOf } from './complement.ts';
import type { ItemHit } from './capability-index.ts';
import { greedyCover, plannedCalls, planSteps, round } from './plan.ts';
import { insertComposition, type Composition } from './store.ts';
import { callerArgs, runHint, type Caller } from './run-hint.ts';
import { wholeNumber } from './fields.ts';

/** How a mesh_match hit's score weighs its parts (each 0-100). */
export const MATCH_WEIGHTS = { relevance: 0.6, probe: 0.25, trail: 0.15 } as const;
/** Trail strength at which the trail part is worth 50 of its 100 points (two full deposits of 5). */
export const TRAIL_HALF_POINTS = 10;
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
const MAX_GOAL = 2000;
const MAX_CANDIDATES = 50;


const listingIdField = z.string().min(1).max(64);
const capabilitiesField = z
  .union([
    z.string().max(MAX_CAPABILITIES * (MAX_CAPABILITY_CHARS + 2)),
    z.array(z.string().max(MAX_CAPABILITY_CHARS)).max(MAX_CAPABILITIES),
  ], { error: `must be a list of at most ${MAX_CAPABILITIES} capabilities of at most ${MAX_CAPABILITY_CHARS} characters each, or one comma-separated string` })
  .optional();
const kindField = z.enum(['agent', 'mcp']).optional().describe('Only agents (A2A) or only MCP servers as partners.');
const agentNameField = z.string().max(120).optional().describe('Your agent name, when you have no listing: whose allowance the call spends.');

const callOutput = z.looseObject({ protocol: z.enum(['a2a', 'mcp']), endpoint: z.string(), method: z.string(), params: z.looseObject({}) });
const meterOutput = z.looseObject({ event_id: z.string(), used_today: z.number(), free_per_day: z.number(), remaining: z.number() });
const nextStepOutput = z.looseObject({ tool: z.string(), args: z.looseObject({}), why: z.string() });

/** The trail part in points: 0 without traces, 50 at TRAIL_HALF_POINTS, towards 100. */
const trailPoints = (t: number) => (100 * t) / (t + TRAIL_HALF_POINTS);

function matchHit(p: Partner, asked: readonly string[]) {
  const matched = asked.filter((c) => p.covered.has(c));
  const relevance = matched.reduce((s, c) => s + p.covered.get(c)!.score, 0) / asked.length;
  const probe = p.probe_score ?? 0;
  const score = MATCH_WEIGHTS.relevance * relevance + MATCH_WEIGHTS.probe * probe + MATCH_WEIGHTS.trail * trailPoints(p.trail);
  return {
    listing_id: p.row.id,
    kind: p.row.kind,
    name: p.row.name,
    url: p.row.url,
    endpoint: p.endpoint,
    matched,
    covers: matched.length,
    of: asked.length,
    via: matched.map((c) => ({ capability: c, [p.row.kind === 'mcp' ? 'tool' : 'skill']: p.covered.get(c)!.item.name, relevance: p.covered.get(c)!.score, why: p.covered.get(c)!.why })),
    score: round(score, 2),
    score_parts: { relevance: round(relevance, 2), probe_score: p.probe_score, trail_strength: round(p.trail), trail_points: round(trailPoints(p.trail), 2) },
    calls: plannedCalls(p, matched, null, `match-${p.row.id}`),
  };
}

async function leaveDemand(ex: Executor, capabilities: readonly string[], hitsPer: Map<string, number>, depositor: string, now: Date): Promise<void> {
  for (const c of capabilities) {
    await deposit(ex, { channel: 'demand', subject: subjectKey({ kind: 'capability', capability: c }), intensity: 1, body: 'mesh_match', depositor, at: now });
    await logQuery(ex, { text: c, hits: hitsPer.get(c) ?? 0, tool: 'mesh_match' }, iso(now));
  }
}

export const meshMatchInput = z.object({
  capabilities: capabilitiesField.describe(
    `What the partner should do: names or short phrases, at most ${MAX_CAPABILITIES} (a string splits at commas); omit with listing_id for complements.`,
  ),
  listing_id: listingIdField.optional().describe('Your listing: never returned as a partner; without capabilities, partners that complement it.'),
  kind: kindField,
  limit: wholeNumber(1, MAX_LIMIT).optional().describe(`Partners to return, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
  agent_name: agentNameField,
  ...meteredArgs,
});

export const meshMatch = defineOperation({
  name: 'mesh_match',
  title: 'Match partners (mesh)',
  description:
    'Find Live partner listings whose skills or tools cover the capabilities you need, ranked by coverage, text match, probe score and trail strength; each hit gives the exact A2A or MCP call. Metered: 5 free a day. Next: mesh_compose.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: meshMatchInput,
  output: z.looseObject({
    ok: z.literal(true),
    capabilities: z.array(z.string()),
    count: z.number(),
    hits: z.array(z.looseObject({ listing_id: z.string(), kind: z.enum(['agent', 'mcp']), matched: z.array(z.string()), covers: z.number(), score: z.number(), calls: z.array(callOutput) })),
    meter: meterOutput,
    next_step: nextStepOutput,
  }),
  handler: async (ctx: MeshCtx, input) => {
    // A partner that went Live before this call is among the candidates (outside the transaction below).
    await ctx.search.caughtUp();
    const explicit = input.capabilities !== undefined ? askedCapabilities(input.capabilities) : [];
    if (!explicit.length && input.listing_id === undefined) {
      throw badRequest('invalid_input', 'capabilities is required (or give listing_id alone for partners complementary to that listing)', 'capabilities');
    }
    const self = input.listing_id !== undefined ? await requireListing(ctx, input.listing_id) : undefined;
    if (self && !explicit.length && storedItems(self.capabilities).length === 0) {
      throw badRequest('invalid_input', `listing ${self.id} has no recorded capabilities yet (not probed successfully): name the capabilities you need`, 'capabilities');
    }
    const limit = input.limit ?? DEFAULT_LIMIT;
    const claims = { listing_id: input.listing_id, agent_name: input.agent_name, payment_proof: input.payment_proof };
    const { result, meter } = await metered(ctx, claims, 'mesh_match', async (trx, subject) => {
      const now = ctx.clock.now();
      const complement = explicit.length ? undefined : await complementOf(ctx, trx, self!);
      const asked = complement ? complement.capabilities : explicit;
      const partners = await findPartners(ctx, trx, asked, { kind: input.kind, exclude: self?.id });
      const ranked = partners.map((p) => matchHit(p, asked)).sort((a, b) => b.covers - a.covers || b.score - a.score || (a.listing_id < b.listing_id ? -1 : 1));
      const hits = ranked.slice(0, limit);
      // Demand is what a caller asked for; a complementary match asked for nothing itself.
      const hitsPer = new Map(asked.map((c) => [c, partners.filter((p) => p.covered.has(c)).length]));
      if (!complement) await leaveDemand(trx, asked, hitsPer, subject.key, now);
      return { asked, complement, hits, uncovered: asked.filter((c) => !hitsPer.get(c)) };
    });
    const { asked, complement, hits, uncovered } = result;
    const matched = asked.filter((c) => hits.some((h) => h.matched.includes(c)));
    const next: NextStep = hits.length
      ? nextStep(
          'mesh_compose',
          { capabilities: matched, candidates: hits.map((h) => h.listing_id), ...(self ? { listing_id: self.id } : {}), ...(input.kind ? { kind: input.kind } : {}), ...(input.agent_name !== undefined ? { agent_name: input.agent_name } : {}) },
          'Plan the fewest of these partners that cover what you need, with the call each makes; the plan is stored for later runs.',
        )
      : asked.length
        ? nextStep('ard_search', { q: asked.join(', ').slice(0, 500) }, 'No Live listing covers this yet: search the whole registry, catalog servers included, for who could.')
        : nextStep('search_active', { limit: DEFAULT_LIMIT }, 'Nothing to complement yet (no demand, no other capabilities offered): browse the Live listings.');
    return {
      ok: true as const,
      capabilities: asked,
      ...(complement ? { complementary: { listing_id: self!.id, rule: complement.rule, capabilities: complement.capabilities } } : {}),
      ...(self ? { excluded: self.id } : {}),
      count: hits.length,
      hits,
      uncovered,
      weights: { ...MATCH_WEIGHTS, trail_half_points: TRAIL_HALF_POINTS },
      demand_traces: complement ? 0 : asked.length,
      meter,
      next_step: next,
    };
  },
});

interface Derived {
  need: string;
  capability: string;
  /** The Live listing whose skill or tool named it (null: no Live listing serves this need). */
  from_listing_id: string | null;
}

/** Words of one need searched one by one when the need as a whole finds nothing. */
const MAX_NEED_WORDS = 8;
/** Skills and tools of a whole-need search weighed against each other. */
const NEED_HITS = 20;

/**
 * How many of a need's word stems a skill or tool serves: those its search match accounts for
 * (name, title, description), and its parameters' names, since a tool's parameter is what it works
 * on: echo {message} serves "echo a message", get-annotated-message {messageType} only "message".
 */
function stemsServed(stems: readonly string[], hit: ItemHit): number {
  const got = accountedStems(hit.why);
  for (const p of hit.item.params) for (const w of plainWords(p.name)) got.add(stem(w));
  return stems.filter((s) => got.has(s)).length;
}

/** The capability a skill or tool is known by: its name, else its title, as the engine can read it. */
const capabilityName = (item: ItemHit['item']): string | undefined => [item.name, item.title ?? ''].map(canonicalCapability).find((n) => n !== '' && queryProblem(n) === undefined);

/**
 * A goal's capabilities: each need of the goal (coverage.ts goalNeeds) is searched among the Live
 * listings' skills and tools, and the one that serves the most of the need's words (stemsServed; at
 * least half of them) names the capability; ties go to a skill or tool the plan already has (a
 * capability the caller named, an earlier need's), then to the engine's order. So a need is never
 * given a second tool that does only part of what the first one does. When the need as a whole finds
 * none (words no skill uses, like "the team", weigh it below the engine's floor), its words are
 * searched one by one and the skill or tool that serves the most of them wins, if it serves at least
 * half. A need nothing serves stays as its own words (and so becomes a gap).
 */
async function deriveCapabilities(
  ctx: MeshCtx,
  ex: Executor,
  needs: readonly string[],
  named: readonly string[],
  options: { kind?: 'agent' | 'mcp'; exclude?: string; only?: readonly string[] },
): Promise<Derived[]> {
  const index = ctx.mesh.capabilities;
  const planned = new Set(named);
  const out: Derived[] = [];
  for (const need of needs) {
    const words = meaningfulWords(need).slice(0, MAX_NEED_WORDS);
    const rows = await liveRows(ex, options.only ?? candidateIds(ctx, [need, ...words.filter((w) => queryProblem(w) === undefined)], options.kind), options.kind, options.exclude);
    index.ensure(rows);
    const ids = rows.map((r) => r.id);
    const stems = capabilityStems(need);
    const isPlanned = (hit: ItemHit) => [hit.item.name, hit.item.title ?? ''].some((n) => planned.has(canonicalCapability(n)));
    const weighed = index
      .query(need, ids, NEED_HITS)
      .map((hit, order) => ({ hit, order, served: stemsServed(stems, hit), planned: isPlanned(hit) }))
      .filter((w) => w.served >= Math.ceil(stems.length / 2))
      .sort((a, b) => b.served - a.served || Number(b.planned) - Number(a.planned) || a.order - b.order);
    let best = weighed[0]?.hit;
    if (!best && words.length > 1) {
      const tally = new Map<string, { hit: ItemHit; words: number; relevance: number }>();
      for (const w of words) {
        if (queryProblem(w)) continue;
        for (const hit of index.query(w, ids, 50)) {
          const key = `${hit.listing_id}\u0000${hit.item.name}`;
          const t = tally.get(key) ?? { hit, words: 0, relevance: 0 };
          t.words++;
          t.relevance += hit.relevance;
          tally.set(key, t);
        }
      }
      const top = [...tally.entries()].sort(([ka, a], [kb, b]) => b.words - a.words || b.relevance - a.relevance || (ka < kb ? -1 : 1))[0]?.[1];
      if (top && top.words >= Math.ceil(words.length / 2)) best = top.hit;
    }
    const name = best ? capabilityName(best.item) : undefined;
    if (name) planned.add(name);
    out.push({ need, capability: name ?? need, from_listing_id: name ? best!.listing_id : null });
  }
  return out;
}

/** What follows a stored composition: the gaps' partners, or the next rung of the ladder (used_with, execute_compose), as the same caller. */
function afterCompose(c: Composition, kind: 'agent' | 'mcp' | undefined, who: Caller): NextStep {
  if (c.gaps.length) {
    return nextStep('mesh_match', { capabilities: c.gaps, ...(kind ? { kind } : {}), ...callerArgs(who) }, 'Some capabilities have no Live partner yet: look for partners for the gaps (a new match also leaves demand others can see).');
  }
  const members = [...new Set([...(c.listing_id ? [c.listing_id] : []), ...c.steps.map((s) => s.listing_id)])];
  if (members.length >= 2) {
    return nextStep(
      'used_with',
      { listing_id: members[0], partner_listing_id: members[1], capability: c.steps[0]!.covers[0] ?? c.capabilities[0], composition_id: c.composition_id, ...(who.agent_name !== undefined ? { agent_name: who.agent_name } : {}) },
      'Record that these listings are used together (the pair\'s composition intensity); its next step runs the composition.',
    );
  }
  if (!c.steps.length) return nextStep('search_active', { limit: DEFAULT_LIMIT }, 'Nothing to call: browse the Live listings.');
  return runHint(c, who, 'Run the composition against its partner for real.');
}

export const meshComposeInput = z.object({
  goal: z.string().max(MAX_GOAL, `must be at most ${MAX_GOAL} characters`).optional().describe('What you want done, in your own words; each need in it becomes a capability.'),
  capabilities: capabilitiesField.describe(`Capabilities to cover (as mesh_match takes them), at most ${MAX_CAPABILITIES}. Give this, a goal, or both.`),
  candidates: z
    .array(listingIdField)
    .max(MAX_CANDIDATES, `at most ${MAX_CANDIDATES} candidates`)
    .optional()
    .describe('Listing ids to compose from (e.g. mesh_match hits); default: every Live listing found.'),
  listing_id: listingIdField.optional().describe('Your listing: the composition is yours; what you cover yourself needs no partner.'),
  kind: kindField,
  agent_name: agentNameField,
  ...meteredArgs,
});

export const meshCompose = defineOperation({
  name: 'mesh_compose',
  title: 'Compose partners (mesh)',
  description:
    'Plan a composition: the fewest Live partners that together cover a goal or capability list, each step with its endpoint and exact A2A or MCP call, plus gaps no one covers. Stored as composition_id. Metered: 2 free a day.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: meshComposeInput,
  output: z.looseObject({
    ok: z.literal(true),
    composition_id: z.string(),
    capabilities: z.array(z.string()),
    steps: z.array(z.looseObject({ step: z.number(), listing_id: z.string(), covers: z.array(z.string()), calls: z.array(callOutput) })),
    gaps: z.array(z.string()),
    meter: meterOutput,
    next_step: nextStepOutput,
  }),
  handler: async (ctx: MeshCtx, input) => {
    await ctx.search.caughtUp();
    const explicit = input.capabilities !== undefined ? askedCapabilities(input.capabilities) : [];
    const goal = input.goal !== undefined && cleanText(input.goal, MAX_GOAL) !== '' ? cleanText(input.goal, MAX_GOAL) : null;
    const needs = goal ? goalNeeds(goal) : [];
    if (!explicit.length && !goal) throw badRequest('invalid_input', 'give a goal or capabilities (or both)', 'goal');
    if (!explicit.length && !needs.length) throw badRequest('invalid_input', 'the goal names nothing to do: say what should be done ("translate the text and send it by email")', 'goal');
    const owner = input.listing_id !== undefined ? await requireListing(ctx, input.listing_id) : undefined;
    const only = input.candidates && [...new Set(input.candidates)];
    const known = only ? new Map((await findListingsByIds(ctx.db.kysely, only)).map((r) => [r.id, r])) : undefined;
    if (only && known) {
      const missing = only.findIndex((id) => !known.has(id));
      if (missing >= 0) throw notFound(`no listing with id ${JSON.stringify(only[missing])}`, `candidates.${input.candidates!.indexOf(only[missing]!)}`);
    }
    const skipped = only && known ? only.filter((id) => known.get(id)!.lane !== 'active' || id === owner?.id).map((id) => ({ listing_id: id, reason: id === owner?.id ? 'your own listing' : `not Live (lane ${known.get(id)!.lane})` })) : [];
    const claims = { listing_id: input.listing_id, agent_name: input.agent_name, payment_proof: input.payment_proof };
    const { result, meter } = await metered(ctx, claims, 'mesh_compose', async (trx, subject) => {
      const scope = { kind: input.kind, exclude: owner?.id, only };
      const derived = needs.length ? await deriveCapabilities(ctx, trx, needs, explicit, scope) : [];
      const capabilities = [...new Set([...explicit, ...derived.map((d) => d.capability)])].slice(0, MAX_CAPABILITIES);
      const selfCovered = owner ? [...(coverage(ctx, [owner as ListingRow], capabilities).get(owner.id)?.keys() ?? [])] : [];
      const universe = capabilities.filter((c) => !selfCovered.includes(c));
      const partners = await findPartners(ctx, trx, universe, scope);
      const { picks, gaps } = greedyCover(
        universe,
        partners.map((p) => ({ ...p, id: p.row.id, covers: new Set(p.covered.keys()) })),
      );
      const id = newId('cmp');
      const composition: Composition = {
        composition_id: id,
        owner: subject.key,
        // A listing's own compositions (its composed peers) are those it made with its owner token.
        listing_id: owner && subject.listing_id === owner.id ? owner.id : null,
        goal,
        capabilities,
        steps: planSteps(picks, goal, id),
        gaps,
        created_at: iso(ctx.clock.now()),
      };
      await insertComposition(trx, composition);
      const shown = composition.steps[0]?.listing_id ?? composition.listing_id;
      if (shown) await appendFeedEvent(trx, 'composition.planned', shown, composition.created_at, { composition_id: id, partners: composition.steps.length, gaps: gaps.length });
      return { composition, derived, selfCovered, considered: partners.length };
    });
    const { composition, derived, selfCovered, considered } = result;
    return {
      ok: true as const,
      composition_id: composition.composition_id,
      goal: composition.goal,
      capabilities: composition.capabilities,
      ...(derived.length ? { from_goal: derived } : {}),
      ...(owner ? { listing_id: owner.id, covered_by_self: selfCovered } : {}),
      ...(owner && composition.listing_id === null
        ? { note: `planned around ${owner.id} but kept as your own composition: it becomes the listing's (its composed peers) only when its owner plans it with the owner token` }
        : {}),
      partners: composition.steps.length,
      considered,
      steps: composition.steps,
      gaps: composition.gaps,
      ...(skipped.length ? { skipped } : {}),
      tie_rule: 'most uncovered capabilities first; ties: stronger trail, then higher probe score, then smaller listing id',
      created_at: composition.created_at,
      meter,
      next_step: afterCompose(composition, input.kind, { agent_name: input.agent_name, listing_id: composition.listing_id ?? undefined }),
    };
  },
});
