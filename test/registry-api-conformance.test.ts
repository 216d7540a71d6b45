// Every answer the /v0.1 door really gives, over HTTP, checked with ajv against the official
// documents vendored in test/fixtures/mcp-registry (the API's openapi.yaml and server.json's dated
// schema), with nothing forgiven: the list, the versions and one version as 200s, after a sync of
// the seed and after a file load of the community dev catalog, and an error of each status (400,
// 404, 405, 415, 429, 500, 501, 503) in the API's `{error}` body, the request id in x-request-id.
// Also what the API's parameters mean here: include_deleted, a limit above the largest page, and
// `latest`, the semver-newest version. Runs on RC_TEST_ENGINE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { startUpstreamRegistry, OFFICIAL, SCHEMA, type UpstreamRegistry } from './peers/upstream-registry.ts';
import { syncCatalog } from '../src/catalog/sync.ts';
import { createCatalogClient } from '../src/catalog/client.ts';
import { API_VERSION, errorBody, LIST_PARAMETERS, OPTIONAL_WRITES } from './fixtures/registry-openapi-facts.ts';
import { OPENAPI_VERSION, openapiDocument, validators } from './fixtures/mcp-registry/schemas.ts';
import fs from 'node:fs';
import { parseCatalogDocument } from '../src/catalog/file.ts';
import { loadCatalogItems } from '../src/catalog/load.ts';
import { DEV_FILE, SEED_FILE } from './peers/upstream-registry.ts';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const schemas = { list: validators.list, one: validators.one, error: ajv.compile(errorBody) };

const MAGIC = 'io.github.21st-dev/magic-mcp';
const GONE = 'io.github.example/retired-server';

let app: TestApp;
let upstream: UpstreamRegistry;
let base: string;

before(async () => {
  upstream = await startUpstreamRegistry({ pageSize: 100 });
  // A server upstream marked deleted: the catalog keeps it, the API shows it only when asked.
  upstream.put({
    server: { $schema: SCHEMA, name: GONE, description: 'Retired.', version: '1.0.0' },
    _meta: { [OFFICIAL]: { status: 'deleted', publishedAt: '2025-06-01T10:00:00.000Z', updatedAt: '2025-06-02T10:00:00.000Z', isLatest: true } },
  });
  app = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1' } });
  const client = createCatalogClient(app.config);
  await syncCatalog({ db: app.services.db.kysely, clock: app.clock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300 });
  await client.destroy();
  base = await app.listen();
});
after(async () => {
  await app.close();
  await upstream.close();
});

type Answer = { status: number; headers: Headers; body: any };

async function call(method: string, path: string, init: { body?: string; type?: string } = {}, at = base): Promise<Answer> {
  const res = await fetch(`${at}${path}`, { method, body: init.body, headers: init.body !== undefined ? { 'content-type': init.type ?? 'application/json' } : {} });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** Every complaint of the API's schema, and of server.json's dated schema about each server served. */
function violations(validate: ValidateFunction, body: any): ErrorObject[] {
  const found = validate(body) ? [] : [...(validate.errors ?? [])];
  const servers = Array.isArray(body?.servers) ? body.servers.map((i: any) => i?.server) : body?.server ? [body.server] : [];
  for (const server of servers) if (!validators.server(server)) found.push(...(validators.server.errors ?? []).map((e) => ({ ...e, instancePath: `${server?.name}${e.instancePath}` })));
  return found;
}

function assertConforms(kind: keyof typeof schemas, answer: Answer, what: string) {
  const found = violations(schemas[kind], answer.body);
  assert.deepEqual(found, [], `${what}: ${JSON.stringify(found.slice(0, 5), null, 2)}`);
}

/** An error answer: this status, the API's body, the request id in the header only. */
function assertError(answer: Answer, status: number, what: string) {
  assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
  assertConforms('error', answer, what);
  assert.match(answer.headers.get('x-request-id') ?? '', /\S/, `${what}: x-request-id`);
}

const encoded = (name: string) => encodeURIComponent(name);

test(`the 200s conform: every page of the list, a server's versions, one version, latest (${engine})`, async () => {
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call('GET', `/v0.1/servers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200);
    assertConforms('list', page, `page ${pages + 1}`);
    cursor = page.body.metadata?.nextCursor;
    pages++;
  } while (cursor);
  assert.equal(pages, 5);
  for (const query of ['search=cloudflare', 'version=latest', `updated_since=${encodeURIComponent('2025-01-01T00:00:00Z')}`, 'include_deleted=true']) {
    assertConforms('list', await call('GET', `/v0.1/servers?${query}`), query);
  }
  const versions = await call('GET', `/v0.1/servers/${encoded(MAGIC)}/versions`);
  assert.equal(versions.status, 200);
  assertConforms('list', versions, 'versions');
  for (const version of ['latest', '0.0.1-seed']) {
    const one = await call('GET', `/v0.1/servers/${encoded(MAGIC)}/versions/${version}`);
    assert.equal(one.status, 200);
    assertConforms('one', one, version);
  }
});

test(`a limit above the largest page is served as the largest page; only a malformed one is refused (${engine})`, async () => {
  const big = await call('GET', '/v0.1/servers?limit=500');
  assert.equal(big.status, 200);
  assert.equal(big.body.servers.length, 100);
  assert.equal(typeof big.body.metadata.nextCursor, 'string');
  for (const query of ['limit=ten', 'limit=0', 'cursor=not-ours', 'updated_since=yesterday', 'include_deleted=maybe']) {
    const refused = await call('GET', `/v0.1/servers?${query}`);
    assertError(refused, 400, query);
    assert.match(refused.body.error, new RegExp(query.split('=')[0]!), `${query}: the message names the parameter`);
  }
  assertError(await call('GET', `/v0.1/servers/${encoded(MAGIC)}/versions?include_deleted=maybe`), 400, 'include_deleted on a name path');
});

test(`include_deleted: a server upstream deleted is shown only when asked, and always with updated_since (${engine})`, async () => {
  const names = async (query: string) => {
    const page = await call('GET', `/v0.1/servers?${query}&search=retired`);
    assertConforms('list', page, query);
    return page.body.servers.map((s: { server: { name: string }; _meta: Record<string, { status: string }> }) => `${s.server.name}:${s._meta[OFFICIAL]!.status}`);
  };
  assert.deepEqual(await names('limit=10'), []);
  assert.deepEqual(await names('include_deleted=false'), []);
  assert.deepEqual(await names('include_deleted=true'), [`${GONE}:deleted`]);
  assert.deepEqual(await names(`updated_since=${encodeURIComponent('2025-06-01T00:00:00Z')}`), [`${GONE}:deleted`], 'a downstream sync learns of deletions');

  assertError(await call('GET', `/v0.1/servers/${encoded(GONE)}/versions`), 404, 'deleted versions, not asked');
  assertError(await call('GET', `/v0.1/servers/${encoded(GONE)}/versions/latest`), 404, 'deleted version, not asked');
  const versions = await call('GET', `/v0.1/servers/${encoded(GONE)}/versions?include_deleted=true`);
  assert.equal(versions.status, 200);
  assertConforms('list', versions, 'deleted versions, asked');
  const one = await call('GET', `/v0.1/servers/${encoded(GONE)}/versions/1.0.0?include_deleted=1`);
  assert.equal(one.status, 200);
  assertConforms('one', one, 'deleted version, asked');
  assert.equal(one.body._meta[OFFICIAL].status, 'deleted');
});

test(`404s, 405s, 415 and 400s of the framework are the API's error body (${engine})`, async () => {
  assertError(await call('GET', `/v0.1/servers/${encoded('io.example/nothing')}/versions`), 404, 'unknown server');
  assertError(await call('GET', `/v0.1/servers/${encoded(MAGIC)}/versions/9.9.9`), 404, 'unknown version');
  assertError(await call('GET', `/v0.1/servers/${encoded(MAGIC)}`), 404, 'not a path of the API');
  assertError(await call('GET', '/v0.1/nothing'), 404, "the framework's own 404");
  assertError(await call('GET', '/v0.1'), 404, 'the bare prefix');
  assertError(await call('GET', '/v0.1/servers/%E0%A4%A/versions'), 400, 'bad percent-encoding');

  for (const [method, path] of [
    ['POST', '/v0.1/servers'],
    ['DELETE', '/v0.1/servers'],
    ['POST', `/v0.1/servers/${encoded(MAGIC)}/versions`],
    ['PATCH', `/v0.1/servers/${encoded(MAGIC)}/versions/latest`],
    ['POST', `/v0.1/servers/${encoded(MAGIC)}/versions/0.0.1-seed`],
  ] as const) {
    const answer = await call(method, path, { body: '{}' });
    assertError(answer, 405, `${method} ${path}`);
    assert.equal(answer.headers.get('allow'), 'GET, HEAD', `${method} ${path}`);
  }
  assertError(await call('POST', `/v0.1/servers/${encoded(MAGIC)}/nothing`, { body: '{}' }), 404, 'POST to no path of the API');
  assertError(await call('POST', '/v0.1/publish', { body: '{"name": ' }), 400, 'a body that is not JSON');
  assertError(await call('POST', '/v0.1/publish', { body: 'name', type: 'text/plain' }), 415, 'a body that is not JSON at all');
  // Elsewhere, DESIGN.md's shape stays.
  const rest = await call('GET', '/api/nothing');
  assert.deepEqual([rest.status, rest.body.ok, rest.body.error.code, typeof rest.body.request_id], [404, false, 'not_found', 'string']);
});

test(`the writes the API makes optional answer 501 (${engine})`, async () => {
  const server = { $schema: SCHEMA, name: 'io.github.example/new-server', description: 'New.', version: '1.0.0' };
  for (const { method, path } of OPTIONAL_WRITES) {
    const real = path.replace('{serverName}', encoded(MAGIC)).replace('{version}', '0.0.1-seed');
    const answer = await call(method, real, { body: JSON.stringify(server) });
    assertError(answer, 501, `${method} ${path}`);
    assert.match(answer.body.error, /not supported by this registry/);
  }
  assertError(await call('DELETE', `/v0.1/servers/${encoded('io.example/nothing')}/versions/1.0.0`), 501, 'DELETE without a body, of an unknown server');
  assertError(await call('PATCH', `/v0.1/servers/${encoded(MAGIC)}/versions/0.0.1-seed/status`, { body: '{"status": "deprecated"}' }), 501, 'a status change');
  assertError(await call('PATCH', `/v0.1/servers/${encoded(MAGIC)}/status`, { body: '{"status": "deprecated"}' }), 501, "a status change of every version");
});

test(`500 and 503 are the API's error body too, the request id in the header (${engine})`, async () => {
  const db = app.services.db.kysely as unknown as { selectFrom: (...args: unknown[]) => unknown };
  const original = db.selectFrom;
  const failWith = async (err: Error & { code?: string }) => {
    db.selectFrom = () => {
      throw err;
    };
    try {
      return await call('GET', `/v0.1/servers/${encoded(MAGIC)}/versions/latest`);
    } finally {
      db.selectFrom = original;
    }
  };
  const broken = await failWith(new Error('a bug'));
  assertError(broken, 500, 'a bug');
  assert.ok(broken.body.error.includes(broken.headers.get('x-request-id')!), 'the message names the request id');
  assert.doesNotMatch(broken.body.error, /a bug/, 'no internals');
  const busy = await failWith(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
  assertError(busy, 503, 'the database is busy');
  assert.equal(busy.headers.get('retry-after'), '5');
});

test(`429 is the API's error body, with Retry-After (${engine})`, async () => {
  const limited = await startApp({ env: { RATE_LIMIT_READ_PER_MIN: '1', RATE_LIMIT_WRITE_PER_MIN: '1' } });
  try {
    const at = await limited.listen();
    assert.equal((await call('GET', '/v0.1/servers', {}, at)).status, 200);
    const refused = await call('GET', '/v0.1/servers', {}, at);
    assertError(refused, 429, 'a read past the limit');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await call('PUT', `/v0.1/servers/${encoded(MAGIC)}/versions/1.0.0`, { body: '{}' }, at)).status, 501);
    assertError(await call('PUT', `/v0.1/servers/${encoded(MAGIC)}/versions/1.0.0`, { body: '{}' }, at), 429, 'a write past the limit');
  } finally {
    await limited.close();
  }
});

/** Every page of /v0.1/servers (deleted versions too), each checked; the items. */
async function walkConforming(at: string, what: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await call('GET', `/v0.1/servers?limit=100&include_deleted=true${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {}, at);
    assert.equal(page.status, 200);
    assertConforms('list', page, `${what}, page after ${cursor}`);
    items.push(...page.body.servers);
    cursor = page.body.metadata?.nextCursor;
  } while (cursor);
  return items;
}

test(`file loads conform too: the seed and the community dev catalog in the old format, and latest is the semver-newest (${engine})`, async () => {
  const loaded = await startApp();
  try {
    const deps = { db: loaded.services.db.kysely, clock: loaded.clock };
    const read = (file: string) => parseCatalogDocument(fs.readFileSync(file, 'utf8'), file).items;
    const dev = read(DEV_FILE);
    assert.ok(dev.length >= 2300, `${dev.length} entries in the dev catalog`);
    await loadCatalogItems(deps, [...read(SEED_FILE), ...dev]);
    // Versions of one server loaded newest-first, each marked latest by the file, out of semver order.
    const versions = ['1.10.0', '1.9.2', '1.10.0-rc.1', '0.9.0'].map((version, i) => ({
      server: { $schema: SCHEMA, name: 'io.github.example/versioned', description: `Version ${version}.`, version },
      _meta: { [OFFICIAL]: { status: 'active', publishedAt: `2026-0${4 - i}-01T00:00:00.000Z`, isLatest: true } },
    }));
    await loadCatalogItems(deps, versions.slice(1));
    await loadCatalogItems(deps, versions.slice(0, 1));
    const at = await loaded.listen();
    const items = await walkConforming(at, 'file loads');
    assert.ok(items.length >= 464 + 2300, `${items.length} items served`);
    const latest = await call('GET', `/v0.1/servers/${encoded('io.github.example/versioned')}/versions/latest`, {}, at);
    assert.equal(latest.body.server.version, '1.10.0');
    const marked = items.filter((i) => i.server.name === 'io.github.example/versioned' && i._meta[OFFICIAL].isLatest).map((i) => i.server.version);
    assert.deepEqual(marked, ['1.10.0'], 'one latest version, the semver-newest');
    // A later load of an older version does not take the mark.
    await loadCatalogItems(deps, [{ ...versions[3]!, _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2026-11-01T00:00:00.000Z', isLatest: true } } }]);
    assert.equal((await call('GET', `/v0.1/servers/${encoded('io.github.example/versioned')}/versions/latest`, {}, at)).body.server.version, '1.10.0');
  } finally {
    await loaded.close();
  }
});

test(`/openapi.json lists the API's parameters, its 501 writes and the {error} body of every /v0.1 error (${engine})`, async () => {
  assert.equal(OPENAPI_VERSION, API_VERSION, 'the vendored document is the version these facts restate');
  assert.deepEqual(openapiDocument.paths['/v0.1/servers'].get.parameters.map((p: { name: string }) => p.name).sort(), [...LIST_PARAMETERS].sort());
  const doc = (await call('GET', '/openapi.json')).body;
  // The API's parameters, and Rollcall's own filters, each described as such.
  const ours = doc.paths['/v0.1/servers'].get.parameters.filter((p: { name: string }) => !(LIST_PARAMETERS as readonly string[]).includes(p.name));
  assert.deepEqual(doc.paths['/v0.1/servers'].get.parameters.map((p: { name: string }) => p.name).filter((n: string) => (LIST_PARAMETERS as readonly string[]).includes(n)).sort(), [...LIST_PARAMETERS].sort());
  assert.deepEqual(ours.map((p: { name: string }) => p.name).sort(), ['health', 'max_tool_tokens', 'remote']);
  for (const p of ours) assert.match(p.description, /^Rollcall's own filter/, p.name);
  for (const { method, path } of OPTIONAL_WRITES) assert.ok(doc.paths[path][method.toLowerCase()].responses['501'], `${method} ${path}`);
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths).filter(([p]) => p.startsWith('/v0.1/'))) {
    for (const [method, op] of Object.entries<any>(ops)) {
      for (const [status, answer] of Object.entries<any>(op.responses).filter(([s]) => Number(s) >= 400)) {
        const resolved = answer.$ref ? doc.components.responses[answer.$ref.split('/').pop()] : answer;
        assert.deepEqual(resolved.content['application/json'].schema.required, ['error'], `${method} ${path} ${status}`);
      }
    }
  }
});
