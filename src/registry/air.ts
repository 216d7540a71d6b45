// ARD identifiers, `urn:air:<publisher>:<namespace>:<name>` (ARD 4.2.1): the publisher segment is
// the domain of the organization that publishes or hosts the thing.
// - What Rollcall itself publishes: its surfaces (the discovery documents) and its listings, which
//   Rollcall names, probes and vouches for: `urn:air:<PUBLIC_BASE_URL host>:<kind>:<id>`.
// - A server of the synced catalog, published by a third party: its reverse-DNS name projected as
//   the MCP Server Card discovery text projects a card's name (`com.example/weather` ->
//   `urn:air:example.com:mcp:weather`), so the publisher segment is the publisher's domain.
// Catalog identifiers of the earlier form, `urn:air:<Rollcall host>:mcp:<percent-encoded name>`,
// resolve until LEGACY_AIR_UNTIL (`legacyCatalogName`).

/** The last moment an identifier of the earlier form resolves: 90 days after the form changed (2026-11-29). */
export const LEGACY_AIR_UNTIL = '2027-02-27T00:00:00.000Z';

/** ARD's identifier pattern (ard-spec 5fa2f5a, ai-catalog.schema.json). */
export const AIR_PATTERN = /^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/;

/** A host name as a publisher segment: no port (a colon would split the URN), anything outside [A-Za-z0-9.-] a hyphen. */
const publisherSegment = (hostname: string): string => hostname.replace(/[^a-zA-Z0-9.-]/g, '-') || 'unknown';
const nameSegment = (s: string): string => s.replace(/[^a-zA-Z0-9._-]/g, '-') || 'unknown';

/** PUBLIC_BASE_URL's host as a publisher segment. */
export const airHost = (base: string): string => publisherSegment(new URL(base).hostname);

/** What Rollcall publishes: one of its surfaces, or a listing (`kind` agent or mcp, the listing id). */
export const ownUrn = (base: string, kind: string, id: string): string => `urn:air:${airHost(base)}:${kind}:${nameSegment(id)}`;

/** A catalog server, from its reverse-DNS name (`<namespace>/<name>`, the registry's pattern). */
export function catalogUrn(serverName: string): string {
  const slash = serverName.indexOf('/');
  const namespace = slash < 0 ? serverName : serverName.slice(0, slash);
  const name = slash < 0 ? serverName : serverName.slice(slash + 1);
  return `urn:air:${publisherSegment(namespace.split('.').reverse().join('.'))}:mcp:${nameSegment(name)}`;
}

/** What an identifier of the current form names: its publisher, the segments after it. */
export function parseAir(identifier: string): { publisher: string; path: string[] } | null {
  if (!AIR_PATTERN.test(identifier)) return null;
  const [, , publisher, ...path] = identifier.split(':');
  return { publisher: publisher!, path };
}

/** The catalog server name a catalog identifier projects back to (`urn:air:example.com:mcp:weather` -> `com.example/weather`). */
export function catalogNameOf(identifier: string): string | null {
  const parsed = parseAir(identifier);
  if (parsed?.path.length !== 2 || parsed.path[0] !== 'mcp') return null;
  return `${parsed.publisher.split('.').reverse().join('.')}/${parsed.path[1]}`;
}

/**
 * The catalog server an identifier of the earlier form names (`urn:air:<Rollcall host>:mcp:<percent-encoded
 * name>`, a name having its slash), while that form still resolves; null otherwise.
 */
export function legacyCatalogName(identifier: string, base: string, now: Date): string | null {
  if (now.getTime() > Date.parse(LEGACY_AIR_UNTIL)) return null;
  const prefix = `urn:air:${airHost(base)}:mcp:`;
  if (!identifier.startsWith(prefix)) return null;
  try {
    const name = decodeURIComponent(identifier.slice(prefix.length));
    return name.includes('/') ? name : null;
  } catch {
    return null;
  }
}
