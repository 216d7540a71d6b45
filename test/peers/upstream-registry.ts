// A local upstream registry on loopback that speaks the official MCP registry API
// (`GET /v0.1/servers` with cursor, limit, updated_since, version; `{servers:[{server, _meta}],
// metadata:{nextCursor, count}}`), serving ../shared/data/mcp-registry-seed-2025-05-16.json: 471
// real servers in the old server.json format, converted here to the current shape
// (registry_name -> registryType, name -> identifier, version_detail.version -> version, a stdio
// transport for packages, transport_type -> type for remotes), with publishedAt/updatedAt. The 7
// blank records are kept as they are (converted but empty), so a sync must reject and count them.
// Tests edit entries, see every request it was asked, and make it fail or hang once.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

export const SEED_FILE = path.resolve(import.meta.dirname, '../../../shared/data/mcp-registry-seed-2025-05-16.json');
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

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const camelKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [camel(k), v]));

/** One old-format seed record in the current server.json shape. */
export function convertSeed(old: Record<string, any>): UpstreamItem {
  const released = old.version_detail?.release_date || '2025-05-16T00:00:00Z';
  const server: Record<string, any> = {
    $schema: SCHEMA,
    name: old.name,
    description: old.description,
    version: old.version_detail?.version ?? '',
  };
  if (old.repository) server.repository = { ...old.repository };
  if (Array.isArray(old.packages)) {
    server.packages = old.packages.map((p: Record<string, any>) => ({
      registryType: p.registry_name,
      identifier: p.name,
      version: p.version,
      transport: { type: 'stdio' },
      ...(p.environment_variables ? { environmentVariables: p.environment_variables.map(camelKeys) } : {}),
      ...(p.package_arguments ? { packageArguments: p.package_arguments.map(camelKeys) } : {}),
    }));
  }
  if (Array.isArray(old.remotes)) {
    server.remotes = old.remotes.map((r: Record<string, any>) => ({
      type: r.transport_type || (new URL(r.url).pathname.endsWith('/sse') ? 'sse' : 'streamable-http'),
      url: r.url,
    }));
  }
  const at = new Date(released).toISOString();
  return { server, _meta: { [OFFICIAL]: { status: 'active', publishedAt: at, updatedAt: at, isLatest: old.version_detail?.is_latest ?? true } } };
}

export function seedItems(): UpstreamItem[] {
  return (JSON.parse(fs.readFileSync(SEED_FILE, 'utf8')) as Record<string, any>[]).map(convertSeed);
}

const encode = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
const decode = (cursor: string) => {
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
};

export async function startUpstreamRegistry(options: { pageSize?: number; items?: UpstreamItem[] } = {}): Promise<UpstreamRegistry> {
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
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
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
