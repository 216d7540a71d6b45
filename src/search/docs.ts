// What the search index knows of a Live listing and of a catalog entry: one SearchDoc each, the
// only place that decides which fields are searched. Ids are prefixed by source, so a listing and
// a catalog entry never collide.
import type { ListingRow } from '../listings/store.ts';
import { categoryLabel, UNKNOWN_CATEGORY } from '../listings/categories.ts';
import type { CatalogEntry } from '../catalog/store.ts';
import type { HealthFacts } from '../catalog/health-facts.ts';
import type { SearchDoc } from './engine.ts';

export const listingDocId = (id: string) => `listing:${id}`;
export const catalogDocId = (name: string) => `catalog:${name}`;

/** The listing id or catalog server name behind a document id. */
export function docSubject(docId: string): { source: 'listing' | 'catalog'; key: string } {
  const colon = docId.indexOf(':');
  return { source: docId.slice(0, colon) as 'listing' | 'catalog', key: docId.slice(colon + 1) };
}

interface StoredCapabilities {
  names?: string[];
  items?: { name: string; title?: string; description?: string; tags?: string[] }[];
}

/**
 * A Live listing: its card's name and description, skill/tool names and titles; their descriptions
 * join the description. `toolTokens`: its tool list's cost as its last probe measured it (absent for
 * an agent, or tools not measured: a max_tool_tokens narrowing leaves it out, as its hit's health would).
 */
export function listingDoc(row: ListingRow, toolTokens?: number): SearchDoc {
  let caps: StoredCapabilities = {};
  try {
    caps = row.capabilities ? (JSON.parse(row.capabilities) as StoredCapabilities) : {};
  } catch {
    caps = {};
  }
  const items = caps.items ?? [];
  const capabilities = [...new Set(items.flatMap((i) => [i.name, ...(i.title ? [i.title] : [])]))];
  // Tool and skill descriptions say what a server does in words a user types; bounded so one
  // listing with hundreds of tools cannot drown the others.
  const described = items
    .map((i) => i.description ?? '')
    .filter(Boolean)
    .join(' ')
    .slice(0, 4000);
  return {
    id: listingDocId(row.id),
    kind: row.kind,
    source: 'listing',
    name: row.name,
    description: described ? `${row.description} ${described}` : row.description,
    capabilities: capabilities.length ? capabilities : (caps.names ?? []),
    // `other` says nothing a user would type: only a category a probe found is a word to match.
    tags: [...(row.category_id === UNKNOWN_CATEGORY ? [] : [categoryLabel(row.category_id)]), ...new Set(items.flatMap((i) => i.tags ?? []))],
    url: row.url,
    // Live by being listed.
    health: { live: true, remote: true, toolTokens: toolTokens ?? null },
  };
}

/** A catalog entry: its server name (and the readable part after the last '/'), description, package and repository words; its health facts beside them. */
export function catalogDoc(entry: CatalogEntry, health: HealthFacts | undefined): SearchDoc {
  const tags = new Set<string>();
  for (const p of entry.packages) {
    if (p.registryType === 'npm' || p.registryType === 'pypi') tags.add(p.registryType);
    tags.add(p.identifier);
  }
  const repo = /^https?:\/\/[^/]+\/([^/]+)\/([^/#?]+)/.exec(entry.repositoryUrl ?? '');
  if (repo) tags.add(`${repo[1]} ${repo[2]!.replace(/\.git$/, '')}`);
  return {
    id: catalogDocId(entry.name),
    kind: 'mcp',
    source: 'catalog',
    name: entry.name,
    title: entry.title ?? entry.name.slice(entry.name.lastIndexOf('/') + 1),
    description: entry.description,
    capabilities: [],
    tags: [...tags],
    url: entry.remoteUrls[0] ?? entry.websiteUrl ?? entry.repositoryUrl ?? undefined,
    health: health ?? { live: false, remote: false, toolTokens: null },
  };
}
