// Rollcall as a sub-registry: the generic MCP registry API over the catalog, over real
// HTTP, after a sync from the local upstream registry (the 464 valid seed servers, one of them with
// a second version): paging, search, updated_since, version=latest, versions by name (slash
// encoded or bare), 404 and 400 in the registry API's {error} body, text cut to the schema's limits
// with the full text under Rollcall's `_meta` key, and a Live listing whose URL is one of an
// entry's remotes showing under that key's `listing`. Runs on RC_TEST_ENGINE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startApp, postJson, engine, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { startUpstreamRegistry, OFFICIAL, SCHEMA, type UpstreamRegistry } from './peers/upstream-registry.ts';
import { syncCatalog } from '../src/catalog/sync.ts';
import { createCatalogClient } from '../src/catalog/client.ts';
import { parseServerPath } from '../src/http/registry-api.ts';
import { servedServerJson } from '../src/catalog/served.ts';
import type { ManualClock } from '../src/platform/clock.ts';

let app: TestApp;
let upstream: UpstreamRegistry;
let base: string;

const MAGIC = 'io.github.21st-dev/magic-mcp';
const CLOUDFLARE = 'io.github.cloudflare/mcp-server-cloudflare';

before(async () => {
  upstream = await startUpstreamRegistry({ pageSize: 50 });
  app = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1' } });
  const client = createCatalogClient(app.config);
  const sync = () => syncCatalog({ db: app.services.db.kysely, clock: app.clock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300 });
  await sync();
  // A second version of one server, published later, takes the latest mark.
  upstream.put({
    server: { $schema: SCHEMA, name: MAGIC, description: 'Magic, the second.', version: '0.1.0' },
    _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2026-11-01T13:00:00.000Z', updatedAt: '2026-11-01T13:00:00.000Z', isLatest: true } },
  });
  upstream.items.find((i) => i.server.name === MAGIC && i.server.version === '0.0.1-seed')!._meta[OFFICIAL].isLatest = false;
  upstream.edit(MAGIC, {}, '2026-11-01T13:00:00.000Z');
  (app.clock as ManualClock).advance(2 * 3_600_000);
  await sync();
  await client.destroy();
  base = await app.listen();
});
after(async () => {
  await app.close();
  await upstream.close();
});

const get = async (path: string) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, body: (await res.json()) as any };
};

type Item = { server: { name: string; version: string; description: string }; _meta: Record<string, any> };

test(`GET /v0.1/servers pages every version with nextCursor, 30 by default (${engine})`, async () => {
  const first = await get('/v0.1/servers');
  assert.equal(first.status, 200);
  assert.equal(first.body.servers.length, 30);
  assert.equal(first.body.metadata.count, 30);
  assert.equal(typeof first.body.metadata.nextCursor, 'string');
  const item: Item = first.body.servers[0];
  assert.deepEqual(Object.keys(item).sort(), ['_meta', 'server']);
  assert.match(item.server.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  assert.deepEqual(Object.keys(item._meta[OFFICIAL]).sort(), ['isLatest', 'publishedAt', 'status', 'updatedAt']);

  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await get(`/v0.1/servers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200);
    for (const s of page.body.servers as Item[]) seen.push(`${s.server.name}@${s.server.version}`);
    cursor = page.body.metadata.nextCursor;
    pages++;
  } while (cursor);
  assert.equal(pages, 5);
  assert.equal(seen.length, 465, '464 servers, one with two versions');
  assert.equal(new Set(seen).size, 465, 'no version twice');
  const byKey = (a: string, b: string) => {
    const [an, av] = a.split('@') as [string, string];
    const [bn, bv] = b.split('@') as [string, string];
    return an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0;
  };
  assert.deepEqual(seen, [...seen].sort(byKey), 'ordered by name, then version');

  const latest: string[] = [];
  cursor = undefined;
  do {
    const page = await get(`/v0.1/servers?version=latest&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const s of page.body.servers as Item[]) {
      latest.push(s.server.name);
      assert.equal(s._meta[OFFICIAL].isLatest, true);
    }
    cursor = page.body.metadata.nextCursor;
  } while (cursor);
  assert.equal(latest.length, 464);
  assert.ok(latest.includes(MAGIC));
});

test(`search, updated_since and an exact version filter the list (${engine})`, async () => {
  const found = await get('/v0.1/servers?search=CloudFlare');
  assert.deepEqual(
    found.body.servers.map((s: Item) => s.server.name),
    [CLOUDFLARE],
  );
  assert.equal(found.body.metadata.nextCursor, undefined);
  const wild = await get(`/v0.1/servers?search=${encodeURIComponent('%_')}`);
  assert.deepEqual(wild.body.servers, [], 'LIKE wildcards are matched literally');

  const changed = await get(`/v0.1/servers?updated_since=${encodeURIComponent('2026-11-01T12:00:00Z')}`);
  assert.deepEqual(
    changed.body.servers.map((s: Item) => `${s.server.name}@${s.server.version}`),
    [`${MAGIC}@0.0.1-seed`, `${MAGIC}@0.1.0`],
  );
  const offset = await get(`/v0.1/servers?updated_since=${encodeURIComponent('2026-11-01T14:30:00+02:00')}`);
  assert.equal(offset.body.servers.length, 2, 'an offset is read as the instant it names');

  const exact = await get('/v0.1/servers?version=0.1.0');
  assert.deepEqual(
    exact.body.servers.map((s: Item) => s.server.name),
    [MAGIC],
  );
});

test(`versions of a server by name, slash encoded or bare; one version; latest (${engine})`, async () => {
  const encoded = await get(`/v0.1/servers/${encodeURIComponent(MAGIC)}/versions`);
  assert.equal(encoded.status, 200);
  assert.deepEqual(
    encoded.body.servers.map((s: Item) => s.server.version),
    ['0.1.0', '0.0.1-seed'],
    'newest published first',
  );
  assert.equal(encoded.body.metadata.count, 2);
  const bare = await get(`/v0.1/servers/${MAGIC}/versions`);
  assert.deepEqual(bare.body, encoded.body);

  const one = await get(`/v0.1/servers/${encodeURIComponent(MAGIC)}/versions/0.0.1-seed`);
  assert.equal(one.status, 200);
  assert.equal(one.body.server.version, '0.0.1-seed');
  assert.equal(one.body.server.$schema, SCHEMA);
  assert.deepEqual(one.body._meta[OFFICIAL], { status: 'active', publishedAt: '2025-05-16T18:56:49.000Z', updatedAt: '2026-11-01T13:00:00.000Z', isLatest: false });
  const latest = await get(`/v0.1/servers/${MAGIC}/versions/latest`);
  assert.equal(latest.body.server.version, '0.1.0');
  assert.equal(latest.body._meta[OFFICIAL].isLatest, true);

  assert.deepEqual(parseServerPath('/v0.1/servers/io.a%2Fb/versions/1.0.0%2Bbuild?x=1'), { name: 'io.a/b', version: '1.0.0+build' });
  assert.deepEqual(parseServerPath('/v0.1/servers/io.a/b/versions'), { name: 'io.a/b' });
  assert.equal(parseServerPath('/v0.1/servers/io.a%2Fb'), undefined);
});

test(`unknown servers and versions are 404, bad parameters 400, in the registry API's {error} body (${engine})`, async () => {
  const unknown = await get(`/v0.1/servers/${encodeURIComponent('io.example/nothing')}/versions`);
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { error: 'no server named "io.example/nothing" in the catalog' });
  const noVersion = await get(`/v0.1/servers/${encodeURIComponent(MAGIC)}/versions/9.9.9`);
  assert.equal(noVersion.status, 404);
  assert.deepEqual(noVersion.body, { error: `server "${MAGIC}" has no version "9.9.9"` });
  assert.equal((await get(`/v0.1/servers/${encodeURIComponent('io.example/nothing')}/versions/latest`)).status, 404);
  assert.equal((await get(`/v0.1/servers/${encodeURIComponent(MAGIC)}`)).status, 404, 'not a route of the API');

  for (const [query, field] of [
    ['cursor=not-ours', 'cursor'],
    ['limit=0', 'limit'],
    ['limit=ten', 'limit'],
    ['updated_since=yesterday', 'updated_since'],
    ['updated_since=2026-11-01', 'updated_since'],
    ['include_deleted=maybe', 'include_deleted'],
  ] as const) {
    const res = await get(`/v0.1/servers?${query}`);
    assert.equal(res.status, 400, query);
    assert.deepEqual(Object.keys(res.body), ['error'], query);
    assert.match(res.body.error, new RegExp(field), query);
  }
  const clamped = await get('/v0.1/servers?limit=101');
  assert.deepEqual([clamped.status, clamped.body.servers.length], [200, 100], 'a larger limit is the largest page');
  assert.equal((await get('/v0.1/servers/%E0%A4%A/versions')).status, 400, 'bad percent-encoding');
});

/** Rollcall's own `_meta` entry of an item (REGISTRY_META_KEY: for a localhost base, io.rollcall.local). */
const ours = (item: { _meta: Record<string, any> }) => item._meta['io.rollcall.local'];
const listingOf = (item: { _meta: Record<string, any> }) => ours(item)?.listing;

test(`a catalog entry whose remote URL is a Live listing shows its id, probe and badge under Rollcall's _meta key (${engine})`, async () => {
  assert.equal(app.config.registryMetaKey, 'io.rollcall.local', 'a localhost base URL names no domain');
  const path = `/v0.1/servers/${encodeURIComponent(CLOUDFLARE)}/versions/latest`;
  assert.equal(listingOf((await get(path)).body), undefined);
  // Another spelling of the same endpoint (upper-case host, trailing slash) is the same listing.
  const published = await postJson(app, '/api/publish', { url: 'https://Bindings.MCP.cloudflare.com/sse/' });
  assert.equal(published.status, 200);
  const id = published.body.listing_id;
  assert.equal(listingOf((await get(path)).body), undefined, 'not while it is queued');

  const now = app.clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 77, probed_at: now }, now);
  const live = (await get(path)).body;
  assert.deepEqual(listingOf(live), {
    listing_id: id,
    lane: 'active',
    url: 'https://bindings.mcp.cloudflare.com/sse/',
    probe: { score: 77, probed_at: now },
    badge: 'never_demoed',
    status_url: `${app.config.publicBaseUrl}/api/listings/status?id=${id}`,
  });
  assert.equal(live._meta[OFFICIAL].isLatest, true, "upstream's metadata stays beside ours");
  const listed = await get('/v0.1/servers?search=cloudflare');
  assert.equal(listingOf(listed.body.servers[0]).listing_id, id);
  const other = await get(`/v0.1/servers/${encodeURIComponent(MAGIC)}/versions/latest`);
  assert.equal(listingOf(other.body), undefined);

  await setListingState(app, id, { lane: 'dormant', lane_reason: 'talk_absent' }, now);
  assert.equal(listingOf((await get(path)).body), undefined, 'only Live listings are shown');
});

test(`/openapi.json describes the /v0.1 paths and stays a valid OpenAPI 3.1 document (${engine})`, async () => {
  const doc = (await get('/openapi.json')).body;
  const result = await new Validator().validate(doc);
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  const list = doc.paths['/v0.1/servers'].get;
  assert.deepEqual(list.parameters.map((p: { name: string }) => p.name).sort(), ['cursor', 'health', 'include_deleted', 'limit', 'max_tool_tokens', 'remote', 'search', 'updated_since', 'version']);
  assert.ok(doc.paths['/v0.1/servers/{serverName}/versions'].get.responses['404']);
  assert.deepEqual(
    doc.paths['/v0.1/servers/{serverName}/versions/{version}'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
    ['path:serverName', 'path:version', 'query:include_deleted'],
  );
});

test(`/v0.1 relays every server.json as upstream sent it, but for what the schema's limits cut, whose full text is under Rollcall's key (${engine})`, async () => {
  const sent = new Map(upstream.items.map((i) => [`${i.server.name}@${i.server.version}`, i.server]));
  const padded = upstream.items.filter((i) => typeof i.server.description === 'string' && i.server.description !== i.server.description.trim());
  assert.ok(padded.length > 0, 'the seed has descriptions with leading or trailing spaces');
  let served = 0;
  let cut = 0;
  let filled = 0;
  let cursor: string | undefined;
  do {
    const page = await (await fetch(`${base}/v0.1/servers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json();
    for (const item of page.servers) {
      const key = `${item.server.name}@${item.server.version}`;
      const original = sent.get(key)!;
      const expected = servedServerJson(original).server;
      assert.equal(JSON.stringify(item.server), JSON.stringify(expected), `${key}: its fields in the order upstream sent them`);
      const long = typeof original.description === 'string' && Array.from(original.description).length > 100;
      if (long) {
        cut++;
        assert.ok(Array.from(item.server.description as string).length <= 100, key);
        assert.ok(item.server.description.endsWith('…'), `${key}: a cut says so`);
        assert.ok(original.description.replace(/\s+/g, ' ').startsWith(item.server.description.slice(0, -1)), `${key}: cut at a word, not rewritten`);
        assert.equal(ours(item).description, original.description, `${key}: the full text under Rollcall's key`);
      } else {
        assert.equal(ours(item)?.description, undefined, key);
        if (!String(original.description ?? '').trim()) {
          filled++;
          assert.equal(item.server.description, item.server.name, `${key}: an empty description is the name`);
        } else assert.equal(item.server.description, original.description, `${key}: a description that fits is served as sent`);
      }
      served++;
    }
    cursor = page.metadata.nextCursor;
  } while (cursor);
  assert.ok(served >= 464, `${served} servers served`);
  assert.ok(cut >= 100 && filled >= 70, `the seed's long (${cut}) and empty (${filled}) descriptions`);
});
