// /openapi.json describes what the server really answers: every GET path of the served document
// is called on a running server (with a Live listing and a synced catalog, so most answer 200),
// and each answer is validated against the schema the document gives for its status and content
// type. An answer whose status the document does not list fails, and so does a JSON response
// without a schema.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startApp, postJson, engine, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { startUpstreamRegistry, type UpstreamRegistry } from './peers/upstream-registry.ts';
import { syncCatalog } from '../src/catalog/sync.ts';
import { createCatalogClient } from '../src/catalog/client.ts';
import { catalogUrn } from '../src/registry/air.ts';

const CATALOG_SERVER = 'io.github.21st-dev/magic-mcp';

let app: TestApp;
let upstream: UpstreamRegistry;
let base: string;
let listingId: string;

before(async () => {
  upstream = await startUpstreamRegistry({ pageSize: 100 });
  app = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1', SEARCH_POLL_MS: '0' } });
  const client = createCatalogClient(app.config);
  await syncCatalog({ db: app.services.db.kysely, clock: app.clock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300 });
  await client.destroy();
  const now = app.clock.now().toISOString();
  const { body } = await postJson(app, '/api/publish', { url: 'https://typed.example.org/mcp', name: 'typed' });
  listingId = body.id;
  await setListingState(app, listingId, { lane: 'active', checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 80, probed_at: now, live_since: now }, now);
  await app.services.search.poll();
  base = await app.listen();
});
after(async () => {
  await app.close();
  await upstream.close();
});

type Json = Record<string, any>;

/** A value for each path parameter and required query parameter the document names. */
const SAMPLES: Record<string, () => string> = {
  serverName: () => encodeURIComponent(CATALOG_SERVER),
  version: () => 'latest',
  name: () => 'mcp',
  q: () => 'magic',
  listing_id: () => listingId,
  artifact: () => 'kernel',
  identifier: () => catalogUrn(CATALOG_SERVER),
};

/** Optional parameters a path needs to answer 200 (its input asks for one of several fields). */
const CHOSEN: Record<string, () => string> = { '/api/listings/status': () => `id=${listingId}` };

function urlOf(path: string, parameters: Json[] = []): string {
  const filled = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const sample = SAMPLES[name];
    assert.ok(sample, `a sample for path parameter ${name} of ${path}`);
    return sample();
  });
  const query = parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => {
      const sample = SAMPLES[p.name];
      assert.ok(sample, `a sample for required query parameter ${p.name} of ${path}`);
      return `${p.name}=${encodeURIComponent(sample())}`;
    });
  if (CHOSEN[path]) query.push(CHOSEN[path]());
  return `${filled}${query.length ? `?${query.join('&')}` : ''}`;
}

/** The response object the document gives for a status ($ref to components.responses followed). */
function responseFor(doc: Json, operation: Json, status: number): Json | undefined {
  const found = operation.responses?.[String(status)] ?? operation.responses?.default;
  if (!found?.$ref) return found;
  return found.$ref.split('/').slice(1).reduce((node: Json, key: string) => node[key], doc);
}

test(`every GET of /openapi.json answers what the document says, 200s typed (${engine})`, async () => {
  const doc: Json = await (await fetch(`${base}/openapi.json`)).json();
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  // The document's own schemas, so a response's `#/components/schemas/...` resolves against it.
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
  const checked: string[] = [];
  const ok200: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const operation = item.get;
    if (!operation) continue;
    const url = urlOf(path, operation.parameters);
    const res = await fetch(`${base}${url}`);
    const response = responseFor(doc, operation, res.status);
    const text = await res.text();
    assert.ok(response, `GET ${url} answered ${res.status}, which the document does not list (${text.slice(0, 200)})`);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (res.status === 304) continue;
    const content = response.content as Json | undefined;
    assert.ok(content, `GET ${url} ${res.status}: the document gives no content for an answer of ${text.length} bytes`);
    const media = Object.keys(content).find((k) => k.split(';')[0]!.trim() === type);
    assert.ok(media, `GET ${url} ${res.status}: ${type} is not a content type the document gives (${Object.keys(content).join(', ')})`);
    const schema = content[media].schema;
    assert.ok(schema, `GET ${url} ${res.status}: ${media} has no schema`);
    const body = /^application\/([\w.-]+\+)?json$/.test(type) ? JSON.parse(text) : text;
    const validate = ajv.compile(rebase(schema));
    assert.ok(validate(body), `GET ${url} ${res.status} does not match its schema: ${JSON.stringify(validate.errors?.slice(0, 5))}\n${text.slice(0, 300)}`);
    checked.push(`${res.status} ${path}`);
    if (res.status === 200 && type === 'application/json') ok200.push(path);
  }
  for (const path of ['/api/listings/status', '/api/listings/active', '/api/ard/search', '/api/ard/resolve', '/api/products/demo', '/v0.1/servers/{serverName}/versions/{version}', '/healthz', '/.well-known/agent-card.json']) {
    assert.ok(ok200.includes(path), `${path} answered 200 and was validated (${checked.join(', ')})`);
  }
  assert.ok(checked.length >= 40, `${checked.length} GETs validated`);
});

/** A schema from the document, its local `#/components/...` references pointed at the document added to ajv. */
function rebase(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/components/', '"$ref":"openapi#/components/'));
}
