// A search hit as an ARD catalog entry (ard-spec 5fa2f5a, ai-catalog.schema.json's catalogEntry),
// what the ARD registry API answers. `type` is the media type of what the entry carries:
// - an agent: its A2A agent card, by `url` (where its last probe read the card);
// - an MCP server: an MCP Server Card inline (`data`), made from what Rollcall knows of it (the
//   catalog's server.json, or the listing's probe): Rollcall has no card URL to give for it, and a
//   client connects from the card's `remotes`.
// Rollcall's own facts about a hit (origin, health, listing id, status link, probe score, card
// signature) travel in `metadata`, whose values ARD keeps to scalars.
import type { CatalogEntry } from '../catalog/store.ts';
import type { ProbedFacts } from '../probe/store.ts';
import type { Hit } from './search.ts';
import { catalogNameOf } from './air.ts';

export const MEDIA_TYPES = {
  a2aAgentCard: 'application/a2a-agent-card+json',
  mcpServerCard: 'application/mcp-server-card+json',
  registry: 'application/ai-registry+json',
} as const;

/** This registry's base URL: the `source` of every result and the `url` of its registry entry (POST <base>search). */
export const registryBase = (publicBaseUrl: string) => `${publicBaseUrl}/`;

/** The Server Card's `$schema` (SEP-2127: its only allowed value). */
export const SERVER_CARD_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** A listing's server card says this when no probe since probes kept the version has read it. */
const UNKNOWN_VERSION = 'unknown';

/** The Server Card's limits (description and title at most 100 characters). */
const cut = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

export interface ArdEntry {
  identifier: string;
  displayName: string;
  type: string;
  url?: string;
  data?: Record<string, unknown>;
  description?: string;
  version?: string;
  metadata: Record<string, string | number | boolean | null>;
}

interface RemoteLike {
  type?: unknown;
  url?: unknown;
}

/** A catalog server's remotes a client can connect to as given (a URL template needs values Rollcall does not have). */
function catalogRemotes(entry: CatalogEntry) {
  const remotes = Array.isArray(entry.server.remotes) ? (entry.server.remotes as RemoteLike[]) : [];
  return remotes
    .filter((r): r is { type: 'streamable-http' | 'sse'; url: string } => (r.type === 'streamable-http' || r.type === 'sse') && typeof r.url === 'string' && !r.url.includes('{'))
    .map((r) => ({ type: r.type, url: r.url }));
}

function serverCard(fields: { name: string; version: string; title: string; description: string; remotes: { type: string; url: string }[]; websiteUrl?: string | null }) {
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: fields.name,
    version: fields.version,
    title: cut(fields.title, 100),
    description: cut(fields.description.trim() || fields.title, 100),
    ...(fields.websiteUrl && /^https?:\/\//.test(fields.websiteUrl) ? { websiteUrl: fields.websiteUrl } : {}),
    ...(fields.remotes.length ? { remotes: fields.remotes } : {}),
  };
}

/** What the entries of some hits are made from: the catalog entries by server name, the listings' probed facts by listing id. */
export interface EntryFacts {
  catalog: Map<string, CatalogEntry>;
  probed: Map<string, ProbedFacts>;
}

/** The entry of one hit. */
export function ardEntry(hit: Hit, facts: EntryFacts): ArdEntry {
  const metadata: ArdEntry['metadata'] = {
    kind: hit.kind,
    origin: hit.source,
    health: hit.health?.status ?? null,
    ...(hit.listing_id ? { listingId: hit.listing_id, statusUrl: hit.status_url ?? null } : {}),
    ...(hit.trust ? { probeScore: hit.trust.probe_score, cardSignature: hit.trust.card_signature } : {}),
    ...(hit.server ? { server: hit.server } : {}),
  };
  const common = { identifier: hit.identifier, displayName: hit.name, ...(hit.description ? { description: hit.description } : {}) };
  const probed = hit.listing_id ? facts.probed.get(hit.listing_id) : undefined;
  if (hit.kind === 'agent') {
    // A listing probed before probes kept the card's URL: the URL it was listed by (most are the card's).
    const url = probed?.cardUrl ?? hit.url ?? hit.status_url ?? '';
    return { ...common, type: MEDIA_TYPES.a2aAgentCard, url, ...(probed?.version ? { version: probed.version } : {}), metadata };
  }
  const entry = hit.server ? facts.catalog.get(hit.server) : undefined;
  if (entry) {
    const data = serverCard({ name: entry.name, version: entry.version, title: entry.title ?? hit.name, description: entry.description, remotes: catalogRemotes(entry), websiteUrl: entry.websiteUrl });
    return { ...common, type: MEDIA_TYPES.mcpServerCard, data, version: entry.version, metadata };
  }
  const data = serverCard({
    // The name its identifier projects from (`urn:air:rollcall.dev:mcp:<id>` -> `dev.rollcall/<id>`).
    name: catalogNameOf(hit.identifier) ?? `rollcall/${hit.listing_id ?? 'unknown'}`,
    version: probed?.version ?? UNKNOWN_VERSION,
    title: hit.name,
    description: hit.description,
    remotes: hit.url ? [{ type: 'streamable-http', url: hit.url }] : [],
  });
  return { ...common, type: MEDIA_TYPES.mcpServerCard, data, ...(probed?.version ? { version: probed.version } : {}), metadata };
}
