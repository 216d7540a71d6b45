// The generic MCP registry API over the catalog, so clients can point at Rollcall as a
// sub-registry: `{server, _meta}` items, the server.json within the current schema's limits
// (catalog/served.ts), with upstream's `io.modelcontextprotocol.registry/official` metadata and
// Rollcall's own under its key (REGISTRY_META_KEY): the full text of what was cut, and the Live
// listing one of the entry's remote URLs reaches (its id, probe and badge). That join spans
// listings, probe and funnel, so it lives here in the read-model layer, above the catalog domain
// (which sits low, beside listings).
import { z } from 'zod';
import type { Executor } from '../platform/db/executor.ts';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { findListingBySpelling, type ListingRow } from '../listings/store.ts';
import { statusUrl } from '../listings/operations.ts';
import { normalizeListingUrl } from '../listings/url.ts';
import { loadProbeStates } from '../probe/store.ts';
import { loadFunnel, NO_FUNNEL } from '../funnel/store.ts';
import { badgeFor } from '../funnel/badge.ts';
import { catalogVersion, catalogVersions, listCatalogRows, type CatalogRow } from '../catalog/store.ts';
import { LIMITS, OFFICIAL_META, remoteUrls } from '../catalog/entry.ts';
import { servedServerJson } from '../catalog/served.ts';
import { measuredHealth } from './remote-health-view.ts';

export const SERVERS_DEFAULT_LIMIT = 30;
export const SERVERS_MAX_LIMIT = 100;
/** Remote URLs of one entry looked up as listings (an entry may list many; real ones list a few). */
const REMOTES_JOINED = 5;

const encodeCursor = (row: { name: string; version: string }) => Buffer.from(JSON.stringify([row.name, row.version])).toString('base64url');

function decodeCursor(text: string): { name: string; version: string } {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { name: value[0], version: value[1] };
  } catch {
    // answered below
  }
  throw badRequest('invalid_cursor', 'cursor is not one this service issued; use metadata.nextCursor of the previous page, or start without it', 'cursor');
}

interface ListingMeta {
  listing_id: string;
  lane: string;
  url: string;
  probe: { score: number | null; probed_at: string | null };
  badge: string;
  status_url: string;
}

/** The Live listing each remote URL of these rows reaches, by URL as written in the entries. */
async function liveListings(ctx: Ctx, rows: CatalogRow[]): Promise<Map<string, ListingMeta>> {
  const ex: Executor = ctx.db.kysely;
  const urls = [...new Set(rows.flatMap((r) => remoteUrls(r.server).slice(0, REMOTES_JOINED)))];
  const found = new Map<string, ListingRow>();
  for (let i = 0; i < urls.length; i += 10) {
    await Promise.all(
      urls.slice(i, i + 10).map(async (url) => {
        let normalized: string;
        try {
          normalized = normalizeListingUrl(url);
        } catch {
          return; // a URL template or a malformed URL reaches no listing
        }
        const listing = await findListingBySpelling(ex, normalized);
        if (listing?.lane === 'active') found.set(url, listing);
      }),
    );
  }
  if (!found.size) return new Map();
  const ids = [...new Set([...found.values()].map((l) => l.id))];
  const [probes, funnel] = await Promise.all([loadProbeStates(ex, ids), loadFunnel(ex, ids)]);
  return new Map(
    [...found].map(([url, l]) => {
      const probe = probes.get(l.id);
      return [
        url,
        {
          listing_id: l.id,
          lane: l.lane,
          url: l.url,
          probe: { score: probe?.score ?? null, probed_at: probe?.probed_at ?? null },
          badge: badgeFor(funnel.get(l.id) ?? NO_FUNNEL),
          status_url: statusUrl(ctx, l.id),
        },
      ];
    }),
  );
}

/** Rows as the registry API's `{server, _meta}` items. */
async function serverItems(ctx: Ctx, rows: CatalogRow[]) {
  const listings = await liveListings(ctx, rows);
  const health = await measuredHealth(ctx.db.kysely, rows.map((r) => r.server));
  return rows.map((r, i) => {
    const listing = remoteUrls(r.server)
      .slice(0, REMOTES_JOINED)
      .map((u) => listings.get(u))
      .find((l) => l !== undefined);
    // The stored server.json is kept as received; what is served fits the schema, and the text cut
    // to fit is under Rollcall's key in full (pages and search read it all).
    const { server, cuts } = servedServerJson(r.server);
    const ours = {
      ...health[i]!,
      ...(cuts.description !== undefined ? { description: cuts.description } : {}),
      ...(cuts.title !== undefined ? { title: cuts.title } : {}),
      ...(listing ? { listing } : {}),
    };
    return {
      server,
      _meta: {
        [OFFICIAL_META]: { status: r.status, ...(r.publishedAt ? { publishedAt: r.publishedAt } : {}), updatedAt: r.updatedAt, isLatest: r.isLatest },
        [ctx.config.registryMetaKey]: ours,
      },
    };
  });
}

/**
 * A query-string boolean as the registry's own server reads one (true/false, 1/0, t/f, any case);
 * anything else is a 400 rather than a silent false.
 */
const includeDeleted = z
  .enum(['true', 'false', '1', '0', 't', 'f', 'TRUE', 'FALSE', 'True', 'False', 'T', 'F'])
  .optional()
  .transform((v) => v !== undefined && ['true', '1', 't'].includes(v.toLowerCase()));

const serverName = z.string().min(1).max(LIMITS.name).describe('Server name, reverse DNS ("io.github.owner/repo"); URL-encode the slash in a path (%2F).');

export const listServersInput = z.object({
  cursor: z.string().max(1024).optional().describe('metadata.nextCursor of the previous page (opaque).'),
  // The API sets no maximum; a larger limit is served as the largest page, as upstream does.
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(SERVERS_DEFAULT_LIMIT)
    .describe(`Items per page (default ${SERVERS_DEFAULT_LIMIT}; a larger limit than ${SERVERS_MAX_LIMIT} is served as ${SERVERS_MAX_LIMIT}).`),
  search: z.string().max(LIMITS.name).optional().describe('Case-insensitive substring of the server name.'),
  updated_since: z.iso.datetime({ offset: true }).optional().describe('Only versions upstream updated after this RFC 3339 time.'),
  version: z.string().min(1).max(LIMITS.version).optional().describe('"latest" for the latest version of each server, or an exact version.'),
  include_deleted: includeDeleted.describe('Also versions upstream marked deleted (default false; always true with updated_since, so a downstream sync learns of deletions).'),
  health: z.enum(['live']).optional().describe("Rollcall's own filter: live, only servers one of whose remotes answered its last check."),
  remote: z.enum(['true']).optional().describe("Rollcall's own filter: true, only servers with a remote Rollcall can reach by URL (not a URL template)."),
  max_tool_tokens: z.coerce.number().int().min(0).max(1e7).optional().describe("Rollcall's own filter: only servers with a live remote whose tool list costs at most this many tokens (an estimate, bytes / 4); servers not checked yet are left out."),
});

export const listCatalogServers = defineOperation({
  name: 'list_catalog_servers',
  title: 'List catalog servers (MCP registry API)',
  tool: false, // the generic registry API (GET /v0.1/servers); search is the tool
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description:
    'MCP servers known from the upstream registry, in the official MCP registry API shape ({servers:[{server, _meta}], metadata:{nextCursor, count}}), ordered by name and version. Each server.json is valid against the current schema (descriptions and titles over 100 characters cut at a word). Rollcall\'s own _meta key (REGISTRY_META_KEY) holds what was measured: the entry\'s status (live, auth_required, dead, not_mcp, refused, unchecked, not_checkable, not_remote) and each remote\'s last check (latency, protocol, tools and their context cost), the full text of what was cut, and the Live listing one of its remote URLs reaches.',
  input: listServersInput,
  async handler(ctx, input) {
    const after = input.cursor ? decodeCursor(input.cursor) : null;
    const limit = Math.min(input.limit, SERVERS_MAX_LIMIT);
    const rows = await listCatalogRows(ctx.db.kysely, {
      after,
      limit: limit + 1,
      search: input.search,
      updatedSince: input.updated_since ? new Date(input.updated_since).toISOString() : undefined,
      version: input.version,
      includeDeleted: input.include_deleted || input.updated_since !== undefined,
      liveOnly: input.health === 'live',
      remoteOnly: input.remote === 'true',
      maxToolTokens: input.max_tool_tokens,
    });
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    const last = page[page.length - 1];
    return {
      servers: await serverItems(ctx, page),
      metadata: { ...(more && last ? { nextCursor: encodeCursor(last) } : {}), count: page.length },
    };
  },
});

export const listCatalogServerVersions = defineOperation({
  name: 'list_catalog_server_versions',
  title: 'List the versions of a catalog server',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description: 'Every stored version of one server, newest published first, in the registry API shape.',
  input: z.object({ name: serverName, include_deleted: includeDeleted }),
  async handler(ctx, input) {
    const rows = await catalogVersions(ctx.db.kysely, input.name, input.include_deleted);
    if (!rows.length) throw notFound(`no server named ${JSON.stringify(input.name)} in the catalog`, 'name');
    return { servers: await serverItems(ctx, rows), metadata: { count: rows.length } };
  },
});

export const getCatalogServerVersion = defineOperation({
  name: 'get_catalog_server_version',
  title: 'Get one version of a catalog server',
  tool: false,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description: 'One version of a server ("latest": its latest version) as a registry API item {server, _meta}.',
  input: z.object({
    name: serverName,
    version: z.string().min(1).max(LIMITS.version).describe('An exact version, or "latest"; URL-encode it in a path.'),
    include_deleted: includeDeleted,
  }),
  async handler(ctx, input) {
    const row = await catalogVersion(ctx.db.kysely, input.name, input.version, input.include_deleted);
    if (!row) {
      const known = (await catalogVersions(ctx.db.kysely, input.name, input.include_deleted)).length > 0;
      throw notFound(known ? `server ${JSON.stringify(input.name)} has no version ${JSON.stringify(input.version)}` : `no server named ${JSON.stringify(input.name)} in the catalog`, known ? 'version' : 'name');
    }
    return (await serverItems(ctx, [row]))[0]!;
  },
});
