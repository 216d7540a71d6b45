// Catalog storage, reads: the latest entry of each server for search hydration, entries by name,
// and the pages of the generic registry API (`/v0.1/servers`). Writes live in write.ts (entries,
// with the change feed) and sync-state.ts (the sync's bookkeeping).
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { normalizeListingUrl } from '../listings/url.ts';
import { endpointKey } from '../listings/identity.ts';
import { catalogTables as q, type CatalogServersTable, type CatalogStatus } from './tables.ts';
import { remoteUrls, shownDescription, shownTitle } from './entry.ts';

/** The change-feed entity of catalog entries (entity_id: the server name; one change per change of its latest version). */
export const CATALOG_ENTITY = 'catalog';

/** A catalog entry as other domains (search) see it: the latest version's facts, display text cleaned. */
export type CatalogEntry = {
  name: string;
  version: string;
  title: string | null;
  description: string;
  remoteUrls: string[];
  repositoryUrl: string | null;
  websiteUrl: string | null;
  packages: { registryType: string; identifier: string }[];
  updatedAt: string;
  server: Record<string, unknown>;
};

/** A stored version, as the registry API serves it. */
export interface CatalogRow {
  name: string;
  version: string;
  server: Record<string, unknown>;
  status: CatalogStatus;
  isLatest: boolean;
  publishedAt: string | null;
  updatedAt: string;
  syncedAt: string;
}

type Row = Selectable<CatalogServersTable>;

export const toCatalogRow = (r: Row): CatalogRow => ({
  name: r.name,
  version: r.version,
  server: JSON.parse(r.server_json) as Record<string, unknown>,
  status: r.status,
  isLatest: Number(r.is_latest) === 1,
  publishedAt: r.published_at,
  updatedAt: r.updated_at,
  syncedAt: r.synced_at,
});

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

export function toCatalogEntry(r: Row): CatalogEntry {
  const server = JSON.parse(r.server_json) as Record<string, unknown>;
  const repository = server.repository as { url?: unknown } | undefined;
  const packages = Array.isArray(server.packages) ? (server.packages as { registryType?: unknown; identifier?: unknown }[]) : [];
  return {
    name: r.name,
    version: r.version,
    title: shownTitle(server),
    description: shownDescription(server),
    remoteUrls: remoteUrls(server),
    repositoryUrl: text(repository?.url),
    websiteUrl: text(server.websiteUrl),
    packages: packages.map((p) => ({ registryType: String(p.registryType ?? ''), identifier: String(p.identifier ?? '') })),
    updatedAt: r.updated_at,
    server,
  };
}

/**
 * The latest version of each server, ordered by name, after `afterName` (exclusive), at most
 * `limit` (for hydrating a search index page by page). Entries upstream marked deleted are left out.
 */
export async function catalogPage(ex: Executor, afterName: string | null, limit: number): Promise<CatalogEntry[]> {
  let sel = q(ex).selectFrom('catalog_servers').selectAll().where('is_latest', '=', 1).where('status', '!=', 'deleted');
  if (afterName !== null) sel = sel.where('name', '>', afterName);
  const rows = await sel.orderBy('name').limit(Math.max(0, limit)).execute();
  return rows.map(toCatalogEntry);
}

/** The latest, not deleted, entries of these names (any order; unknown names are left out). */
export async function findCatalogEntries(ex: Executor, names: string[]): Promise<CatalogEntry[]> {
  if (!names.length) return [];
  const out: CatalogEntry[] = [];
  for (let i = 0; i < names.length; i += 500) {
    const rows = await q(ex)
      .selectFrom('catalog_servers')
      .selectAll()
      .where('name', 'in', names.slice(i, i + 500))
      .where('is_latest', '=', 1)
      .where('status', '!=', 'deleted')
      .execute();
    out.push(...rows.map(toCatalogEntry));
  }
  return out;
}

/** The key a remote URL is looked up by (a listing spelling's key), or undefined for a template or bad URL. */
export function remoteKey(url: string): string | undefined {
  if (/[{}]/.test(url)) return undefined;
  try {
    return endpointKey(normalizeListingUrl(url));
  } catch {
    return undefined;
  }
}

/** Names of servers whose latest version has this remote URL (any spelling that reaches the same endpoint). */
export async function catalogNamesByRemoteUrl(ex: Executor, url: string): Promise<string[]> {
  const key = remoteKey(url);
  return key ? ((await catalogNamesByRemoteKeys(ex, [key])).get(key) ?? []) : [];
}

/** The servers whose latest version (not deleted) lists each of these remotes, by remote key, names sorted. */
export async function catalogNamesByRemoteKeys(ex: Executor, keys: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!keys.length) return out;
  const rows = await q(ex)
    .selectFrom('catalog_remotes as r')
    .innerJoin('catalog_servers as s', (j) => j.onRef('s.name', '=', 'r.name').onRef('s.version', '=', 'r.version'))
    .select(['r.url_key', 'r.name'])
    .where('r.url_key', 'in', [...new Set(keys)])
    .where('s.is_latest', '=', 1)
    .where('s.status', '<>', 'deleted')
    .orderBy('r.name')
    .execute();
  for (const r of rows) {
    const names = out.get(r.url_key) ?? out.set(r.url_key, []).get(r.url_key)!;
    if (!names.includes(r.name)) names.push(r.name);
  }
  return out;
}

export interface ServerListQuery {
  /** Keyset position: the last (name, version) of the previous page. */
  after: { name: string; version: string } | null;
  limit: number;
  /** Case-insensitive substring of the name. */
  search?: string;
  /** Only versions upstream updated after this instant (ISO 8601). */
  updatedSince?: string;
  /** 'latest' or an exact version. */
  version?: string;
  /** Also versions upstream marked deleted (kept so a downstream registry learns of deletions). */
  includeDeleted: boolean;
  /** Rollcall's own: only versions one of whose remotes answered its last check. */
  liveOnly?: boolean;
  /** Rollcall's own: only versions with a remote Rollcall can reach by URL (URL templates are not). */
  remoteOnly?: boolean;
  /** Rollcall's own: only versions with a live remote whose tool list is at most this many tokens (bytes / 4). */
  maxToolTokens?: number;
}

const likePattern = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of versions, ordered by (name, version); `limit + 1` rows tell the caller whether more follow. */
export async function listCatalogRows(ex: Executor, query: ServerListQuery): Promise<CatalogRow[]> {
  let sel = q(ex).selectFrom('catalog_servers').selectAll();
  const { after } = query;
  if (after) sel = sel.where((eb) => eb.or([eb('name', '>', after.name), eb.and([eb('name', '=', after.name), eb('version', '>', after.version)])]));
  if (query.search) sel = sel.where(sql<boolean>`lower(name) like ${likePattern(query.search)} escape '\\'`);
  if (query.updatedSince) sel = sel.where('updated_at', '>', query.updatedSince);
  if (!query.includeDeleted) sel = sel.where('status', '!=', 'deleted');
  if (query.version === 'latest') sel = sel.where('is_latest', '=', 1);
  else if (query.version) sel = sel.where('version', '=', query.version);
  if (query.remoteOnly) {
    sel = sel.where(({ exists, selectFrom }) =>
      exists(selectFrom('catalog_remotes as r').select('r.url_key').whereRef('r.name', '=', 'catalog_servers.name').whereRef('r.version', '=', 'catalog_servers.version')),
    );
  }
  if (query.liveOnly || query.maxToolTokens !== undefined) {
    sel = sel.where(({ exists, selectFrom }) => {
      let live = selectFrom('catalog_remotes as r')
        .innerJoin('catalog_checks as c', 'c.url_key', 'r.url_key')
        .select('r.url_key')
        .whereRef('r.name', '=', 'catalog_servers.name')
        .whereRef('r.version', '=', 'catalog_servers.version')
        .where('c.status', '=', 'live');
      if (query.maxToolTokens !== undefined) live = live.where('c.tools_bytes', '<=', query.maxToolTokens * 4);
      return exists(live);
    });
  }
  const rows = await sel.orderBy('name').orderBy('version').limit(query.limit).execute();
  return rows.map(toCatalogRow);
}

/** Every stored version of a server, newest published first; deleted ones only when asked. */
export async function catalogVersions(ex: Executor, name: string, includeDeleted: boolean): Promise<CatalogRow[]> {
  let sel = q(ex).selectFrom('catalog_servers').selectAll().where('name', '=', name);
  if (!includeDeleted) sel = sel.where('status', '!=', 'deleted');
  const rows = await sel.execute();
  const when = (r: Row) => r.published_at ?? r.updated_at;
  return rows.sort((a, b) => (when(a) < when(b) ? 1 : when(a) > when(b) ? -1 : a.version < b.version ? 1 : -1)).map(toCatalogRow);
}

/** One version of a server ('latest': the version marked latest); a deleted one only when asked. */
export async function catalogVersion(ex: Executor, name: string, version: string, includeDeleted: boolean): Promise<CatalogRow | undefined> {
  let sel = q(ex).selectFrom('catalog_servers').selectAll().where('name', '=', name);
  if (!includeDeleted) sel = sel.where('status', '!=', 'deleted');
  sel = version === 'latest' ? sel.where('is_latest', '=', 1) : sel.where('version', '=', version);
  const row = await sel.executeTakeFirst();
  return row && toCatalogRow(row);
}

/** How many servers (latest versions) and versions are stored. */
export async function countCatalog(ex: Executor): Promise<{ servers: number; versions: number }> {
  const row = await q(ex)
    .selectFrom('catalog_servers')
    .select((eb) => [eb.fn.countAll<number>().as('versions'), eb.fn.sum<number>('is_latest').as('servers')])
    .executeTakeFirst();
  return { servers: Number(row?.servers ?? 0), versions: Number(row?.versions ?? 0) };
}
