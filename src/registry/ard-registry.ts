// The ARD registry API (ard-spec 5fa2f5a: spec/ard.md section 7, spec/schemas/ard.openapi.yaml),
// on this instance's search index:
// - POST /search: `{query: {text, filter?}, federation?, pageSize?, pageToken?}` -> `{results,
//   pageToken?}`, each result a catalog entry (ard-entry.ts) with `score` (relevance 0-100) and
//   `source` (this registry's base URL). Filters Rollcall supports: `type` (media types),
//   `publisher` (an identifier's publisher segment) and `identifier`; another key is refused (400),
//   as section 7.1 allows. Rollcall has no upstream registry: every federation mode answers from
//   this index, and `referrals` adds an empty `referrals`.
// - POST /explore: not implemented, 501 (section 7.3).
// - ard_resolve (GET /api/ard/resolve): one identifier to its entry, a catalog server's identifier
//   of the earlier form too while it resolves (air.ts), with a `Sunset` header naming when it stops.
// Errors on the ARD paths are `{errorCode, message}` (src/http/ard-api-errors.ts).
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError, badRequest, notFound } from '../platform/errors.ts';
import { findListingsByIds } from '../listings/store.ts';
import { findCatalogEntries } from '../catalog/store.ts';
import { loadProbedFacts } from '../probe/store.ts';
import { catalogDoc, catalogDocId, listingDoc, listingDocId } from '../search/docs.ts';
import type { SearchFilter } from '../search/engine.ts';
import { DEFAULT_LIMIT, present, queryField, search, type Found, type Hit, type SearchCtx } from './search.ts';
import { ardEntry, MEDIA_TYPES, registryBase, type EntryFacts } from './ard-entry.ts';
import { AIR_PATTERN, airHost, catalogNameOf, catalogUrn, LEGACY_AIR_UNTIL, legacyCatalogName, parseAir } from './air.ts';

/** Relevance ranks at most this many hits; pages reach no further. */
const MAX_RANKED = 100;

const FILTER_KEYS = ['type', 'publisher', 'identifier'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/** A filter value: an array, or a bare scalar read as a one-element array (section 7.1). */
const filterValue = z.union([z.string().max(500), z.array(z.string().max(500)).max(50)]);

/** What the hits' entries are made from: the catalog hits' entries, the listing hits' probed facts. */
async function factsOf(ctx: SearchCtx, hits: Hit[]): Promise<EntryFacts> {
  const names = hits.map((h) => h.server).filter((s): s is string => Boolean(s));
  const ids = hits.map((h) => h.listing_id).filter((s): s is string => Boolean(s));
  const [entries, probed] = await Promise.all([names.length ? findCatalogEntries(ctx.db.kysely, names) : [], loadProbedFacts(ctx.db.kysely, ids)]);
  return { catalog: new Map(entries.map((e) => [e.name, e])), probed };
}

/** The listing or catalog server an identifier names (current form, or a catalog server's earlier form while it resolves). */
async function subjectOf(ctx: SearchCtx, identifier: string): Promise<{ found: Found; legacy: boolean } | null> {
  const catalog = async (name: string): Promise<Found | null> => {
    const [entry] = await findCatalogEntries(ctx.db.kysely, [name]);
    return entry ? { id: catalogDocId(entry.name), doc: catalogDoc(entry, undefined), why: [], score: null } : null;
  };
  const parsed = parseAir(identifier);
  const [kind, id] = parsed?.path ?? [];
  if (parsed?.publisher === airHost(ctx.config.publicBaseUrl) && parsed.path.length === 2 && (kind === 'agent' || kind === 'mcp')) {
    const [row] = await findListingsByIds(ctx.db.kysely, [id!]);
    if (row && row.lane === 'active' && row.kind === kind) return { found: { id: listingDocId(row.id), doc: listingDoc(row), why: [], score: null }, legacy: false };
  }
  const legacyName = legacyCatalogName(identifier, ctx.config.publicBaseUrl, ctx.clock.now());
  const name = legacyName ?? catalogNameOf(identifier);
  const found = name ? await catalog(name) : null;
  return found ? { found, legacy: legacyName !== null } : null;
}

/** The kinds a `type` filter admits (another media type admits none: Rollcall has only these). */
function kindsOf(types: string[]): Set<'agent' | 'mcp'> {
  const kinds = new Set<'agent' | 'mcp'>();
  for (const t of types) {
    if (t === MEDIA_TYPES.a2aAgentCard) kinds.add('agent');
    if (t === MEDIA_TYPES.mcpServerCard) kinds.add('mcp');
  }
  return kinds;
}

/** The filter's keys as arrays, refusing keys Rollcall does not filter on. */
function readFilter(filter: Record<string, string | string[]> | undefined): Partial<Record<FilterKey, string[]>> {
  const out: Partial<Record<FilterKey, string[]>> = {};
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) throw badRequest('invalid_filter', `filter key ${JSON.stringify(key)} is not supported; this registry filters on ${FILTER_KEYS.join(', ')}`, `query.filter.${key}`);
    out[key as FilterKey] = Array.isArray(value) ? value : [value];
  }
  return out;
}

/** Page tokens are the offset of the page's first result, as this registry handed them out. */
const pageToken = z.string().regex(/^\d{1,3}$/, 'must be a pageToken from a previous answer').optional();

export const ardRegistrySearch = defineOperation({
  name: 'ard_registry_search',
  tool: false, // ard_search is the tool; this is the ARD registry API's form of it
  title: 'ARD registry search',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description: 'The ARD registry search API: catalog entries with identifier, displayName, type (a media type), url or data, score 0-100 and source, paged by pageToken.',
  input: z.object({
    query: z.strictObject({
      text: queryField.describe('The need in your own words.'),
      filter: z.record(z.string().max(200), filterValue).optional().describe('type (media types), publisher, identifier.'),
    }),
    federation: z.enum(['auto', 'referrals', 'none']).optional().describe('Rollcall has no upstream registry: every mode answers from this index.'),
    pageSize: z.number().int().min(1, 'must be 1-100').max(MAX_RANKED, 'must be 1-100').optional(),
    pageToken,
  }),
  output: z.looseObject({
    results: z.array(z.looseObject({ identifier: z.string(), displayName: z.string(), type: z.string(), score: z.number().int(), source: z.string() })),
    referrals: z.array(z.looseObject({ identifier: z.string(), displayName: z.string(), type: z.string(), url: z.string() })).optional(),
    pageToken: z.string().optional(),
  }),
  handler: async (ctx: SearchCtx, input) => {
    const size = input.pageSize ?? DEFAULT_LIMIT;
    const offset = Number(input.pageToken ?? 0);
    if (offset >= MAX_RANKED) throw badRequest('invalid_input', 'pageToken is past the last page', 'pageToken');
    const filter = readFilter(input.query.filter);
    const kinds = filter.type ? kindsOf(filter.type) : new Set<'agent' | 'mcp'>(['agent', 'mcp']);
    const referrals = input.federation === 'referrals' ? { referrals: [] } : {};
    // The query is logged even when the type filter leaves nothing to rank (what was asked counts).
    const engineFilter: SearchFilter = { kind: kinds.size === 1 ? [...kinds][0] : undefined };
    const identifiers = filter.identifier?.map((id) => currentIdentifier(ctx, id));
    const narrowed = Boolean(filter.publisher || identifiers) || kinds.size === 0;
    const hits = await search(ctx, 'ard_registry_search', input.query.text, engineFilter, narrowed ? MAX_RANKED : Math.min(MAX_RANKED, offset + size + 1), true, 'query.text');
    let presented = kinds.size === 0 ? [] : await present(ctx, narrowed ? hits : hits.slice(offset, offset + size + 1));
    if (filter.publisher) presented = presented.filter((h) => filter.publisher!.includes(parseAir(h.identifier)?.publisher ?? ''));
    if (identifiers) presented = presented.filter((h) => identifiers.includes(h.identifier));
    const page = narrowed ? presented.slice(offset, offset + size) : presented.slice(0, size);
    const more = (narrowed ? presented.length > offset + size : hits.length > offset + size) && offset + size < MAX_RANKED;
    const facts = await factsOf(ctx, page);
    const source = registryBase(ctx.config.publicBaseUrl);
    const results = page.map((h) => ({ ...ardEntry(h, facts), score: Math.max(0, Math.min(100, Math.round(h.score ?? 0))), source }));
    return { results, ...referrals, ...(more ? { pageToken: String(offset + size) } : {}) };
  },
});

/** An identifier as results carry it now: a catalog server's of the earlier form becomes its current one while it resolves. */
function currentIdentifier(ctx: SearchCtx, identifier: string): string {
  const name = legacyCatalogName(identifier, ctx.config.publicBaseUrl, ctx.clock.now());
  return name ? catalogUrn(name) : identifier;
}

export const ardExplore = defineOperation({
  name: 'ard_explore',
  tool: false,
  title: 'ARD registry explore',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description: 'ARD registry introspection (facets): not implemented by Rollcall; answers 501 as the ARD API asks.',
  input: z.looseObject({}),
  handler: async () => {
    throw new AppError(501, 'not_implemented', 'this registry does not implement Explore; use POST /search');
  },
});

export const ardResolve = defineOperation({
  name: 'ard_resolve',
  tool: false,
  title: 'Resolve an ARD identifier',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description: `The entry an urn:air identifier names, as POST /search gives it. A catalog server's identifier of the earlier form (urn:air:<Rollcall host>:mcp:<percent-encoded name>) resolves until ${LEGACY_AIR_UNTIL.slice(0, 10)}, answering the current identifier and a Sunset header.`,
  input: z.object({ identifier: z.string().min(1).max(600).describe('An urn:air identifier from a search result.') }),
  handler: async (ctx: SearchCtx, input) => {
    const subject = await subjectOf(ctx, input.identifier);
    if (!subject) {
      const shape = AIR_PATTERN.test(input.identifier) || input.identifier.startsWith('urn:air:') ? '' : ' (an identifier looks like urn:air:<publisher>:<kind>:<name>)';
      throw notFound(`no Live listing or catalog server has the identifier ${JSON.stringify(input.identifier)}${shape}`, 'identifier');
    }
    const [hit] = await present(ctx, [subject.found]);
    if (!hit) throw notFound(`no Live listing or catalog server has the identifier ${JSON.stringify(input.identifier)}`, 'identifier');
    const entry = ardEntry(hit, await factsOf(ctx, [hit]));
    if (subject.legacy && ctx.response) ctx.response.headers.sunset = new Date(LEGACY_AIR_UNTIL).toUTCString();
    return {
      ok: true as const,
      entry,
      ...(subject.legacy ? { replaced: { identifier: input.identifier, by: entry.identifier, resolves_until: LEGACY_AIR_UNTIL } } : {}),
    };
  },
});
