// Natural-language search (SPEC.md 1.3, TOOLS.md): ard_search over the catalog and the Live
// listings, search_active over the Live listings only, match_capability over their declared
// capabilities; the ARD registry API (ard-registry.ts) reads the same engine. One engine, this instance's index
// (src/search); relevance first, the listing's rank (probe score plus badge) only orders near-ties
// and is reported beside each hit. Every query is logged with its hit count, never its caller.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { activeOrder, findListingsByIds, type ListingRow } from '../listings/store.ts';
import { listingCapabilitySet } from '../listings/capabilities.ts';
import { queryProblem, WEAK_COVERAGE, type SearchFilter, type SearchHit } from '../search/engine.ts';
import { docSubject, listingDoc, listingDocId } from '../search/docs.ts';
import { SHOWN_DESCRIPTION_CHARS } from '../search/shown.ts';
import type { SearchIndex } from '../search/index-runtime.ts';
import { listingViews, viewContext } from './listing-view.ts';
import { statusUrl } from '../listings/operations.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { catalogUrn, ownUrn } from './air.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { addressHash } from '../metering/caller.ts';
import { recordDemand } from '../traces/system.ts';
import { trailStrength } from '../traces/store.ts';
import { findCatalogEntries } from '../catalog/store.ts';
import { measuredHealth, type HealthStatus } from './remote-health-view.ts';

export type SearchCtx = Ctx & { search: SearchIndex };

export const DEFAULT_LIMIT = 10;
const limitField = z.coerce.number().int().min(1, 'must be 1-100').max(100, 'must be 1-100').optional().describe(`Hits to return, 1-100 (default ${DEFAULT_LIMIT}).`);
export const queryField = z.string().max(500, 'must be at most 500 characters');
const kindField = z.enum(['agent', 'mcp']).optional().describe('Only agents or only MCP servers.');

export interface Hit {
  identifier: string;
  kind: 'agent' | 'mcp';
  source: 'listing' | 'catalog';
  name: string;
  description: string;
  url: string | null;
  score: number | null;
  /** For a query: `weak` when the hit covers less than WEAK_COVERAGE of what was asked (a guess, not an answer). */
  match?: Match;
  why: string[];
  /** `card_signature`: whether an agent's card is signed and its signature holds (null for an MCP server or before a probe read the card). */
  trust: { rank: number; probe_score: number | null; badge: string; card_signature: 'valid' | 'invalid' | 'unsigned' | null } | null;
  listing_id?: string;
  status_url?: string;
  next_step?: NextStep;
  server?: string;
  /** The measured health: a catalog entry's from its remotes' checks, a Live listing's from its last probe; with the tool count and context cost when known. */
  health?: { status: HealthStatus; remote: boolean; last_verified: string | null; tools: { count: number; tokens_estimate: number | null } | null };
}

type Match = 'strong' | 'weak';
const matchOf = (coverage: number): Match => (coverage < WEAK_COVERAGE ? 'weak' : 'strong');

/**
 * A query's answer as a whole: `strong` when a hit covers what was asked, `weak` when every hit
 * covers less than WEAK_COVERAGE of it (most likely nothing here serves the need), `none` without hits.
 */
const answerMatch = (hits: Hit[]): Match | 'none' => (hits.length === 0 ? 'none' : hits.some((h) => h.match !== 'weak') ? 'strong' : 'weak');

/** Down, or not MCP: such an entry gives way to a live one within this many points of relevance. */
const DOWN_GIVES_WAY = 10;
const DOWN: HealthStatus[] = ['dead', 'not_mcp', 'refused'];

type HitHealth = NonNullable<Hit['health']>;

/** A catalog hit whose entry was not found (removed meanwhile) or not checked yet. */
const UNCHECKED: HitHealth = { status: 'unchecked', remote: false, last_verified: null, tools: null };

const catalogNames = (hits: Found[]) => hits.map((h) => docSubject(h.id)).filter((s) => s.source === 'catalog').map((s) => s.key);

/** The measured health of these catalog entries, by server name. */
async function catalogHealth(ctx: Ctx, names: string[]): Promise<Map<string, HitHealth>> {
  if (!names.length) return new Map();
  const entries = await findCatalogEntries(ctx.db.kysely, names);
  const healths = await measuredHealth(ctx.db.kysely, entries.map((e) => e.server));
  return new Map(
    entries.map((e, i) => {
      const health = healths[i]!;
      const live = health.remotes.find((r) => r.status === 'live' && r.tools);
      const verified = health.remotes.map((r) => r.last_verified).filter((t): t is string => t !== null).sort().at(-1) ?? null;
      // Remote: a URL Rollcall can reach, as /v0.1's remote=true reads it (a URL template is not one).
      const remote = health.remotes.some((r) => r.not_checkable_reason !== 'url_template');
      return [e.name, { status: health.status, remote, last_verified: verified, tools: live?.tools ? { count: live.tools.count, tokens_estimate: live.tools.tokens_estimate } : null }];
    }),
  );
}

/** A hit to show: from the engine, or a Live listing listed by rank (no query, no score). */
export type Found = Pick<SearchHit, 'id' | 'doc' | 'why'> & { score: number | null; coverage?: number };

/**
 * The hits as a caller sees them; Live listings carry their id, trust signals, their status link
 * and the demo as a next_step (the whole demo request is in the status answer: it was 2.5 KB a hit).
 */
export async function present(ctx: SearchCtx, hits: Found[], rowsById?: Map<string, ListingRow>): Promise<Hit[]> {
  const listingIds = hits.map((h) => docSubject(h.id)).filter((s) => s.source === 'listing').map((s) => s.key);
  const rows = rowsById ?? new Map((await findListingsByIds(ctx.db.kysely, listingIds)).map((r) => [r.id, r]));
  const views = new Map((await listingViews(ctx.db.kysely, [...rows.values()].filter((r) => listingIds.includes(r.id)), viewContext(ctx))).map((v) => [v.id, v]));
  const health = await catalogHealth(ctx, catalogNames(hits));
  const presented = hits.flatMap((h): Hit[] => {
    const subject = docSubject(h.id);
    const base = { kind: h.doc.kind, source: subject.source, name: h.doc.title && subject.source === 'catalog' ? h.doc.title : h.doc.name, description: h.doc.description.slice(0, SHOWN_DESCRIPTION_CHARS), url: h.doc.url ?? null, score: h.score, ...(h.coverage !== undefined ? { match: matchOf(h.coverage) } : {}), why: h.why };
    if (subject.source === 'catalog') return [{ identifier: catalogUrn(subject.key), ...base, trust: null, server: subject.key, health: health.get(subject.key) ?? UNCHECKED }];
    const view = views.get(subject.key);
    if (!view) return []; // left meanwhile
    return [
      {
        identifier: ownUrn(ctx.config.publicBaseUrl, view.kind, view.id),
        ...base,
        name: view.name,
        description: view.description.slice(0, SHOWN_DESCRIPTION_CHARS),
        trust: { rank: view.rank, probe_score: view.probe.score, badge: view.badge, card_signature: view.probe.card_signature },
        listing_id: view.id,
        health: { status: 'live', remote: true, last_verified: view.probe.probed_at, tools: view.probe.context_cost ? { count: view.probe.context_cost.count, tokens_estimate: view.probe.context_cost.tokens_estimate } : null },
        status_url: statusUrl(ctx, view.id),
        next_step: nextStep('take_demo', { listing_id: view.id }, `Try ${view.name} with the free demo; check_status (status_url) has the full demo request.`),
      },
    ];
  });
  // A server that is down never outranks a live one of near-equal relevance (the shown score stays).
  const order = (h: Hit) => (h.score ?? 0) - (h.health && DOWN.includes(h.health.status) ? DOWN_GIVES_WAY : 0);
  return hits.some((h) => h.score !== null) ? presented.map((h, i) => ({ h, i })).sort((a, b) => order(b.h) - order(a.h) || a.i - b.i).map(({ h }) => h) : presented;
}

/** What ard_search's narrowing keeps, by a hit's measured health (a Live listing is live and remote). */
function kept(health: HitHealth, input: { live_only?: boolean; remote_only?: boolean; max_tool_tokens?: number }): boolean {
  if (input.live_only && health.status !== 'live') return false;
  if (input.remote_only && !health.remote) return false;
  if (input.max_tool_tokens !== undefined && !(health.status === 'live' && health.tools?.tokens_estimate != null && health.tools.tokens_estimate <= input.max_tool_tokens)) return false;
  return true;
}

/** A yes/no that comes as a JSON boolean or as a query string's "true"/"false". */
const flag = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean()).optional();

/** Runs one query through this instance's index and logs it (once per question: not when asked again for more); a bad query names `field`. */
export async function search(ctx: SearchCtx, tool: string, q: string, filter: SearchFilter, limit: number, log = true, field = 'q'): Promise<SearchHit[]> {
  const problem = queryProblem(q);
  if (problem) throw badRequest('invalid_query', problem, field);
  await ctx.search.caughtUp();
  const hits = ctx.search.engine.query(q, filter, limit, ctx.search.trust);
  // The log is best effort: a failed insert must not fail the search (nor make it wait).
  if (log) ctx.search.logQuery({ text: q, hits: hits.length, tool }, iso(ctx.clock.now()));
  return hits;
}

const hitOutput = z.looseObject({ identifier: z.string(), kind: z.enum(['agent', 'mcp']), source: z.enum(['listing', 'catalog']), name: z.string(), why: z.array(z.string()) });
const searchOutput = z.looseObject({ ok: z.literal(true), query: z.string(), count: z.number(), hits: z.array(hitOutput) });

export const ardSearchInput = z.object({
  q: queryField.describe('What you need, in your own words: a product ("postgres"), a task, a need.'),
  limit: limitField,
  kind: kindField,
  live_only: flag.describe('Only live servers.'),
  remote_only: flag.describe('Only remote servers.'),
  max_tool_tokens: z.coerce.number().int().min(0).max(1e7).optional().describe('Most tokens a tool list may cost.'),
});

export const ardSearch = defineOperation({
  name: 'ard_search',
  title: 'Search the registry',
  description:
    'Natural-language search over every MCP server and agent Rollcall knows (synced catalog and Live listings): describe your need in your own words. Hits have an urn:air id, score 0-100, why; catalog hits their measured health; Live listings their status link and a take_demo next_step.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: ardSearchInput,
  output: searchOutput,
  handler: async (ctx: SearchCtx, input) => {
    const limit = input.limit ?? DEFAULT_LIMIT;
    const narrowed = input.live_only === true || input.remote_only === true || input.max_tool_tokens !== undefined;
    if (!narrowed) {
      const presented = await present(ctx, await search(ctx, 'ard_search', input.q, { kind: input.kind }, limit));
      return { ok: true as const, query: input.q, count: presented.length, match: answerMatch(presented), hits: presented };
    }
    // The index keeps each entry's health facts (catalog/health-facts.ts) and each Live listing's
    // tool cost, refreshed through the change feed: it narrows while it ranks. The health each hit
    // shows is read now, and decides; when the index lags behind it and hits drop, ask for more.
    const filter: SearchFilter = { kind: input.kind, health: { live: input.live_only, remote: input.remote_only, maxToolTokens: input.max_tool_tokens } };
    const narrow = async (asked: number, log: boolean) => {
      const hits = await search(ctx, 'ard_search', input.q, filter, asked, log);
      return { shown: (await present(ctx, hits)).filter((h) => kept(h.health!, input)), full: hits.length === asked };
    };
    let { shown, full } = await narrow(limit, true);
    if (shown.length < limit && full && limit < 100) ({ shown } = await narrow(100, false));
    const presented = shown.slice(0, limit);
    return { ok: true as const, query: input.q, count: presented.length, match: answerMatch(presented), hits: presented };
  },
});

export const searchActive = defineOperation({
  name: 'search_active',
  title: 'Search Live listings',
  description:
    'Search only the Live (Active) listings: filtered by q (same ranking as ard_search), kind and category_id. Without q, the Live listings in rank order. Use it to find a partner you can call today.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    q: queryField.optional().describe('What you need, in your own words; leave out to list by rank.'),
    kind: kindField,
    category_id: z.string().min(1).max(64).optional().describe('Only this category (for example code-devtools).'),
    limit: limitField,
  }),
  output: searchOutput,
  handler: async (ctx: SearchCtx, input) => {
    const limit = input.limit ?? DEFAULT_LIMIT;
    const inCategory = (row: ListingRow | undefined) => Boolean(row) && (input.category_id === undefined || row!.category_id === input.category_id);
    if (input.q === undefined || input.q.trim() === '') {
      const kinds = input.kind ? [input.kind] : (['agent', 'mcp'] as const);
      const ids = (await Promise.all(kinds.map((k) => activeOrder(ctx.db.kysely, k)))).flat();
      const rows = (await findListingsByIds(ctx.db.kysely, ids)).filter((r) => inCategory(r)).sort((a, b) => b.rank - a.rank || a.id.localeCompare(b.id)).slice(0, limit);
      const asHits: Found[] = rows.map((r) => ({ id: listingDocId(r.id), doc: listingDoc(r), score: null, why: [] }));
      const presented = await present(ctx, asHits, new Map(rows.map((r) => [r.id, r])));
      return { ok: true as const, query: '', count: presented.length, hits: presented };
    }
    // Scored against the whole index, as ard_search scores them. The category is not in the index:
    // ask for more and keep those in it.
    const hits = await search(ctx, 'search_active', input.q, { source: 'listing', kind: input.kind, againstAll: true }, input.category_id ? 100 : limit);
    const rows = new Map((await findListingsByIds(ctx.db.kysely, hits.map((h) => docSubject(h.id).key))).map((r) => [r.id, r]));
    const kept = hits.filter((h) => inCategory(rows.get(docSubject(h.id).key))).slice(0, limit);
    const presented = await present(ctx, kept, rows);
    return { ok: true as const, query: input.q, count: presented.length, match: answerMatch(presented), hits: presented };
  },
});

const normalize = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

export const matchCapability = defineOperation({
  name: 'match_capability',
  title: 'Match capabilities',
  description:
    'Find Live listings whose declared capabilities (agent skills, MCP tools) match the ones you need; each hit lists the matches, its capability_hash and trail strength. Each capability asked for leaves a demand trace.',
  // Leaves demand traces; asking again the same day adds nothing.
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({
    capabilities: z.array(z.string().min(1).max(200)).min(1, 'name at least one capability').max(50).describe('The capabilities you need, e.g. ["translate text", "send_email"].'),
    kind: kindField,
    limit: limitField,
  }),
  output: z.looseObject({ ok: z.literal(true), count: z.number(), hits: z.array(z.looseObject({ listing_id: z.string(), matched: z.array(z.string()), capability_hash: z.string() })) }),
  handler: async (ctx: SearchCtx, input) => {
    const wanted = input.capabilities.map((c) => c.trim()).filter(Boolean);
    if (!wanted.length) throw badRequest('invalid_input', 'name at least one non-empty capability', 'capabilities');
    const hits = await search(ctx, 'match_capability', wanted.join(', '), { source: 'listing', kind: input.kind }, input.limit ?? DEFAULT_LIMIT);
    const now = ctx.clock.now();
    await inTransaction(ctx.db.kysely, (trx) => recordDemand(trx, wanted, `addr:${addressHash(ctx.caller.address)}`, now));
    const rows = new Map((await findListingsByIds(ctx.db.kysely, hits.map((h) => docSubject(h.id).key))).map((r) => [r.id, r]));
    const presented = await present(ctx, hits, rows);
    const trails = await trailStrength(ctx.db.kysely, presented.map((p) => p.listing_id!), now);
    const byId = new Map(hits.map((h) => [docSubject(h.id).key, h]));
    const out = presented.flatMap((p) => {
      // Matching reads what search indexes (names and titles); the hash is the listing's own set.
      const names = byId.get(p.listing_id!)!.doc.capabilities.map(normalize);
      // A requested capability matches when it names one of the listing's, or is named by one.
      const matched = wanted.filter((w) => names.some((n) => n.includes(normalize(w)) || normalize(w).includes(n)));
      const { capability_hash } = listingCapabilitySet(rows.get(p.listing_id!)?.capabilities ?? null);
      return [{ ...p, matched, capability_hash, trail_strength: Math.round((trails.get(p.listing_id!) ?? 0) * 1000) / 1000 }];
    });
    return { ok: true as const, count: out.length, hits: out };
  },
});
