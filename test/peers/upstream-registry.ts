// A local upstream registry on loopback that speaks the official MCP registry API
// (`GET /v0.1/servers` with cursor, limit, updated_since, version; `{servers:[{server, _meta}],
// metadata:{nextCursor, count}}`), serving ../shared/data/mcp-registry-seed-2025-05-16.json: 471
// real servers in the old server.json format, converted to the current shape by the catalog's own
// conversion (src/catalog/seed-format.ts: registry_name -> registryType, name -> identifier,
// version_detail.version -> version, a stdio transport for packages, transport_type -> type for
// remotes), with publishedAt/updatedAt. The 7 blank records are kept as they are (converted but
// empty), so a sync must reject and count them. Tests edit entries, see every request it was
// asked, make it fail or hang once, or slow every answer down.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseCatalogDocument } from '../../src/catalog/file.ts';

export const SEED_FILE = path.resolve(import.meta.dirname, '../../../shared/data/mcp-registry-seed-2025-05-16.json');
/** The community catalog of ../shared/data: 2,306 servers in the old seed format, none of the seed's. */
export const DEV_FILE = path.join(path.dirname(SEED_FILE), 'community-catalog-dev-2026.json');
export const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
export const OFFICIAL = 'io.modelcontextprotocol.registry/official';

export interface UpstreamItem {
  server: Record<string, any>;
  _meta: { [OFFICIAL]: { status: string; publishedAt: string; updatedAt: string; isLatest: boolean } };
}

export interface SeenRequest {
  path: string;
  cursor: string | null;
  limit: string | null;
  updated_since: string | null;
  version: string | null;
}

export interface UpstreamRegistry {
  base: string;
  items: UpstreamItem[];
  requests: SeenRequest[];
  /** Page size the fixture serves at most (whatever limit is asked). */
  pageSize: number;
  /** Changes an entry's server fields and sets its updatedAt. */
  edit(name: string, patch: Record<string, unknown>, updatedAt: string): void;
  /** Adds (or replaces) an item. */
  put(item: UpstreamItem): void;
  /** The next request for a page past `page` (1-based pages of the unfiltered walk) fails once: 503, or no answer at all. */
  failOnceAfterPage(page: number, how: 'error' | 'hang'): void;
  /** The cursor the fixture gives for the page that starts at `offset`. */
  cursorAt(offset: number): string;
  close(): Promise<void>;
}

/** The day of the seed: the date of a record that gives none (the 7 blank ones). */
const SEED_DAY = '2025-05-16T00:00:00.000Z';

/**
 * The seed's records as items of the current list answer: converted by the catalog's own reading
 * of a catalog file (src/catalog/file.ts, the conversion in src/catalog/seed-format.ts, which
 * `rollcall sync-catalog --file` uses too), each dated, since this registry filters by updatedAt.
 */
export function seedItems(): UpstreamItem[] {
  const { items } = parseCatalogDocument(fs.readFileSync(SEED_FILE, 'utf8'), SEED_FILE);
  return (items as UpstreamItem[]).map((item) => {
    const official = item._meta[OFFICIAL];
    official.publishedAt ??= SEED_DAY;
    official.updatedAt ??= SEED_DAY;
    return item;
  });
}

const encode = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
const decode = (cursor: string) => {
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
};

export async function startUpstreamRegistry(options: { pageSize?: number; items?: UpstreamItem[]; delayMs?: number } = {}): Promise<UpstreamRegistry> {
  const items = options.items ?? seedItems();
  const requests: SeenRequest[] = [];
  const pageSize = options.pageSize ?? 50;
  let failure: { page: number; how: 'error' | 'hang' } | undefined;
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const q = url.searchParams;
    requests.push({ path: url.pathname, cursor: q.get('cursor'), limit: q.get('limit'), updated_since: q.get('updated_since'), version: q.get('version') });
    const json = (status: number, body: unknown) => {
      const send = () => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    };
    if (req.method !== 'GET' || url.pathname !== '/v0.1/servers') return json(404, { error: 'Not found' });
    const offset = q.get('cursor') ? decode(q.get('cursor')!) : 0;
    if (offset === undefined) return json(400, { error: 'Invalid cursor' });
    if (failure && offset >= failure.page * pageSize) {
      const { how } = failure;
      failure = undefined;
      if (how === 'hang') {
        hanging.add(res);
        return;
      }
      return json(503, { error: 'Service Unavailable' });
    }
    const since = q.get('updated_since');
    const version = q.get('version');
    let matching = items;
    if (since) matching = matching.filter((i) => i._meta[OFFICIAL].updatedAt > new Date(since).toISOString());
    if (version === 'latest') matching = matching.filter((i) => i._meta[OFFICIAL].isLatest);
    const limit = Math.min(Number(q.get('limit') ?? 30) || 30, pageSize);
    const page = matching.slice(offset, offset + limit);
    const next = offset + limit < matching.length ? encode(offset + limit) : undefined;
    json(200, { servers: page, metadata: { ...(next ? { nextCursor: next } : {}), count: page.length } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    items,
    requests,
    pageSize,
    edit(name, patch, updatedAt) {
      const item = items.find((i) => i.server.name === name);
      if (!item) throw new Error(`no upstream item ${name}`);
      Object.assign(item.server, patch);
      item._meta[OFFICIAL].updatedAt = updatedAt;
    },
    put(item) {
      const at = items.findIndex((i) => i.server.name === item.server.name && i.server.version === item.server.version);
      if (at >= 0) items[at] = item;
      else items.push(item);
    },
    failOnceAfterPage(page, how) {
      failure = { page, how };
    },
    cursorAt: encode,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
