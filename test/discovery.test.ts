// Discovery documents: every document over real HTTP with its content type, CORS,
// ETag/304 and cache headers; the agent card read by the A2A SDK and by our own prober's parser;
// server.json checked against the facts of the official MCP registry schema; /openapi.json checked
// by an OpenAPI 3.1 validator; and generation proven by a tool and a route that only the test adds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Validator } from '@seriousme/openapi-schema-validator';
import { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { isLegacyAgentCard, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, type TestApp } from './helpers/app.ts';
import { loadConfig } from '../src/config.ts';
import { operations } from '../src/catalog.ts';
import { defineOperation } from '../src/platform/operation.ts';
import { buildToolList, MCP_PATHS } from '../src/http/mcp.ts';
import { restRoutes } from '../src/http/rest.ts';
import { buildDiscoveryDocuments, discoveryPaths, serverCard, type BuiltDocument } from '../src/http/discovery/index.ts';
import { DOCUMENT_PATHS } from '../src/http/discovery/paths.ts';
import { parseAgentCard } from '../src/probe/agent-card.ts';
import { verifyAgentCard } from '../src/identity/card-signing.ts';
import { aiCatalogProblems, ardManifestProblems, ardSearchResponseProblems } from './helpers/ard-schemas.ts';

const ADMIN_TOKEN = 'rc_admin_0123456789abcdefghijklmnopqrstuv';
let app: TestApp;
let base: string;
before(async () => {
  app = await startApp({ env: { ADMIN_TOKEN } });
  base = await app.listen();
});
after(async () => {
  await app?.close();
});

/** Every address SPEC.md and the decisions name, written out here so a document dropped from the code fails the test. */
const EXPECTED: Record<string, 'json' | 'text' | 'ai-catalog'> = {
  '/.well-known/ai-catalog.json': 'ai-catalog',
  '/.well-known/ard.json': 'json',
  '/robots.txt': 'text',
  '/.well-known/agent-card.json': 'json',
  '/.well-known/agent.json': 'json',
  '/.well-known/mcp.json': 'json',
  '/.well-known/mcp/server-card.json': 'json',
  '/.well-known/mcp/server-card': 'json',
  '/.well-known/mcp/server-card/registry': 'json',
  '/.well-known/mcp/server-card/funnel': 'json',
  '/.well-known/mcp/server-card/value': 'json',
  '/.well-known/mcp/server-card/network': 'json',
  '/.well-known/mcp/server-card/collab': 'json',
  '/.well-known/mcp/server-card/economics': 'json',
  '/.well-known/mcp/server-card/identity': 'json',
  '/.well-known/mcp/server-card/owner': 'json',
  '/api/mcp/server-card': 'json',
  '/mcp/server-card': 'json',
  '/api/protocol/server-card': 'json',
  '/api/a2a/server-card': 'json',
  '/api/mcp/registry/server-card': 'json',
  '/api/mcp/funnel/server-card': 'json',
  '/api/mcp/value/server-card': 'json',
  '/api/mcp/network/server-card': 'json',
  '/api/mcp/collab/server-card': 'json',
  '/api/mcp/economics/server-card': 'json',
  '/api/mcp/identity/server-card': 'json',
  '/api/mcp/owner/server-card': 'json',
  '/api/mcp-registry/server.json': 'json',
  '/skill.json': 'json',
  '/discovery.json': 'json',
  '/agentmap.json': 'json',
  '/openapi.json': 'json',
  '/api/products/quickstart': 'json',
  '/llms.txt': 'text',
  '/llms-full.txt': 'text',
  '/ai.txt': 'text',
  '/robots-agent.txt': 'text',
};

const fetchText = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${path}`, { headers });
  return { res, text: await res.text() };
};
const fetchJson = async (path: string): Promise<any> => JSON.parse((await fetchText(path)).text);

const toolNames = () => buildToolList(operations).list.map((t) => t.name);

test('every document answers 200 with its content type, CORS, an ETag, public caching, and 304 on If-None-Match', async () => {
  assert.deepEqual([...discoveryPaths()].sort(), Object.keys(EXPECTED).sort(), 'the code serves exactly the documents named here');
  for (const [path, kind] of Object.entries(EXPECTED)) {
    const { res, text } = await fetchText(path);
    assert.equal(res.status, 200, path);
    const type = { json: 'application/json', text: 'text/plain', 'ai-catalog': 'application/ai-catalog+json' }[kind];
    assert.equal(res.headers.get('content-type'), `${type}; charset=utf-8`, path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    // The CORS answer the MCP server-card draft lists, on the GET itself.
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /\bGET\b/, path);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /\bContent-Type\b/i, path);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300', path);
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /etag/i, path);
    const etag = res.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]{32}"$/, path);
    assert.ok(text.length > 100, path);
    if (kind === 'json') assert.doesNotThrow(() => JSON.parse(text), path);

    const again = await fetchText(path, { 'if-none-match': etag! });
    assert.equal(again.res.status, 304, path);
    assert.equal(again.text, '', path);
    assert.equal(again.res.headers.get('etag'), etag, path);
    assert.equal(again.res.headers.get('access-control-allow-origin'), '*', path);
    assert.equal(again.res.headers.get('cache-control'), 'public, max-age=300', path);
    assert.equal((await fetchText(path, { 'if-none-match': `W/"other", ${etag}` })).res.status, 304, `${path}: a list of tags`);
    assert.equal((await fetchText(path, { 'if-none-match': '"stale"' })).res.status, 200, `${path}: another tag`);
  }
});

test('the ETag is a hash of the bytes: equal documents share it, and it stays the same across instances', async () => {
  const etags = await Promise.all(['/.well-known/mcp/server-card', '/api/mcp/server-card'].map(async (p) => (await fetch(`${base}${p}`)).headers.get('etag')));
  assert.equal(etags[0], etags[1]);
  const cards = await Promise.all(['/.well-known/agent-card.json', '/.well-known/agent.json'].map((p) => fetchText(p)));
  assert.equal(cards[0]!.text, cards[1]!.text);
  const second = await startApp({ joinStore: app.store, env: { ADMIN_TOKEN } });
  try {
    for (const path of Object.keys(EXPECTED)) {
      const other = await second.http.inject({ method: 'GET', url: path });
      const mine = await fetch(`${base}${path}`);
      assert.equal(other.headers.etag, mine.headers.get('etag'), `${path}: instances serve the same bytes`);
    }
  } finally {
    await second.close();
  }
});

test('HEAD answers the headers only; a browser preflight is allowed; other methods are a 405 with Allow', async () => {
  const head = await fetch(`${base}/llms.txt`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
  assert.ok(head.headers.get('etag'));
  const pre = await fetch(`${base}/discovery.json`, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' } });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /if-none-match/i);
  const post = await fetch(`${base}/skill.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(post.status, 405);
  assert.match(post.headers.get('allow') ?? '', /GET/);
});

test('ard.json is ARD\'s manifest and ai-catalog.json the AI Catalog 1.0, each valid against its vendored schema', async () => {
  const ard = await fetchJson('/.well-known/ard.json');
  assert.deepEqual(ardManifestProblems(ard), [], 'ard-spec 5fa2f5a ai-catalog.schema.json');
  assert.equal(ard.specVersion, '1.0');
  assert.deepEqual(Object.keys(ard.host).sort(), ['displayName', 'documentationUrl', 'identifier']);
  const { res, text } = await fetchText('/.well-known/ai-catalog.json');
  assert.equal(res.headers.get('content-type'), 'application/ai-catalog+json; charset=utf-8');
  const catalog = JSON.parse(text);
  assert.deepEqual(aiCatalogProblems(catalog), [], 'Agent-Card/ai-catalog 634a09d CDDL');
  assert.equal(catalog.specVersion, '1.0');
  assert.ok(ardManifestProblems(catalog).length > 0, 'two documents: the AI Catalog names the media type mediaType, ARD type');
  assert.ok(aiCatalogProblems(ard).length > 0, 'and the AI Catalog\'s entry is closed to ARD\'s members');
  assert.match((await fetchText('/robots.txt')).text, new RegExp(`^Agentmap: ${app.config.publicBaseUrl}/\\.well-known/ard\\.json$`, 'm'), 'where ARD sends crawlers');
  const host = new URL(app.config.publicBaseUrl).hostname;
  // Both list the same surfaces under Rollcall's own identifiers.
  assert.deepEqual(catalog.entries.map((e: { identifier: string }) => e.identifier), ard.entries.map((e: { identifier: string }) => e.identifier));
  assert.deepEqual(catalog.entries.map((e: { mediaType: string }) => e.mediaType), ard.entries.map((e: { type: string }) => e.type));
  assert.equal(new Set(ard.entries.map((e: { identifier: string }) => e.identifier)).size, ard.entries.length, 'identifiers are unique');
  for (const e of ard.entries) {
    assert.match(e.identifier, new RegExp(`^urn:air:${host.replace(/\./g, '\\.')}:(mcp|agent|api|registry):[a-z0-9._-]+$`));
    assert.ok(e.representativeQueries.length >= 2 && e.representativeQueries.length <= 5, e.identifier);
    assert.equal(new Set(e.representativeQueries).size, e.representativeQueries.length);
  }
  assert.deepEqual([...new Set(ard.entries.map((e: { type: string }) => e.type))].sort(), ['application/a2a-agent-card+json', 'application/ai-registry+json', 'application/mcp-server-card+json', 'application/vnd.oai.openapi+json']);
  // Each entry points at what it says: a card agrees with its entry, the registry entry is the base of POST /search.
  for (const e of ard.entries) {
    const local = e.url.replace(app.config.publicBaseUrl, base);
    if (e.type === 'application/ai-registry+json') {
      const search = await fetch(new URL('search', local), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: { text: 'send email' } }) });
      assert.equal(search.status, 200, 'POST <registry url>search answers');
      assert.deepEqual(ardSearchResponseProblems(await search.json()), []);
      continue;
    }
    const got = await fetch(local, { headers: { accept: e.type === 'application/mcp-server-card+json' ? e.type : 'application/json' } });
    assert.equal(got.status, 200, e.url);
    if (e.type !== 'application/mcp-server-card+json') continue;
    assert.match(got.headers.get('content-type') ?? '', /^application\/mcp-server-card\+json/);
    const card = await got.json();
    assert.equal(card.version, e.version, `${e.identifier}: the entry's version is its card's`);
    assert.equal(card.remotes[0].url.replace(app.config.publicBaseUrl, ''), e.url.replace(app.config.publicBaseUrl, '').replace(/\/server-card$/, ''), 'the card sits at its endpoint\'s reserved place');
  }
  const mcp = ard.entries.find((e: { type: string }) => e.type === 'application/mcp-server-card+json');
  assert.deepEqual(mcp.capabilities, toolNames());
});

test('the agent card: the A2A SDK fetches it over HTTP and builds a JSON-RPC client; a v0.3 reading works too; our prober accepts it', async () => {
  const card = await fetchJson('/.well-known/agent-card.json');
  const endpoint = `${app.config.publicBaseUrl}/api/a2a`;
  // v1.0 shape.
  assert.deepEqual(card.supportedInterfaces, [
    { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
  ]);
  assert.equal(card.version, '2.8.0');
  assert.deepEqual(card.securitySchemes, {});
  assert.equal(card.provider.organization, 'Rollcall');
  assert.ok(card.skills.length >= 2);
  for (const s of card.skills) {
    assert.ok(s.id && s.name && s.description && Array.isArray(s.tags) && s.tags.length > 0, s.id);
  }
  // Every tool of the catalog is named by exactly one skill.
  const named = card.skills.flatMap((s: { description: string }) => /Tools: (.*)\.$/.exec(s.description)![1]!.split(', '));
  assert.deepEqual([...named].sort(), [...toolNames()].sort());
  // v0.3 top-level fields.
  assert.equal(card.protocolVersion, '0.3.0');
  assert.equal(card.url, endpoint);
  assert.equal(card.preferredTransport, 'JSONRPC');

  // The SDK's resolver and client factory, over real HTTP, at both well-known paths.
  for (const path of [undefined, '/.well-known/agent.json']) {
    const client = await new ClientFactory().createFromUrl(base, path);
    const got = await client.getAgentCard();
    assert.equal(got.name, 'Rollcall');
    assert.equal(got.supportedInterfaces[0]!.url, endpoint);
  }
  // With the v0.3 compatibility layer on, the SDK still picks the 1.0 interface (not the legacy transport).
  const compat = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    }),
  );
  const modern = await compat.createFromUrl(base);
  assert.equal(modern.protocolVersion, '1.0');
  // The SDK's own card type reads every field.
  const proto = SdkAgentCard.fromJSON(card);
  assert.equal(proto.name, card.name);
  assert.equal(proto.version, '2.8.0');
  assert.equal(proto.skills.length, card.skills.length);
  assert.deepEqual(
    proto.supportedInterfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion]),
    card.supportedInterfaces.map((i: { url: string; protocolBinding: string; protocolVersion: string }) => [i.url, i.protocolBinding, i.protocolVersion]),
  );

  // A v0.3 client ignores supportedInterfaces: what it reads is a valid v0.3 card with a JSON-RPC url.
  const { supportedInterfaces: _ignored, ...v03 } = card;
  assert.ok(isLegacyAgentCard(v03));
  const translated = parseLegacyAgentCard(v03);
  assert.deepEqual(translated.supportedInterfaces[0], { url: endpoint, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3.0' });
  const legacy = await compat.createFromAgentCard(translated);
  assert.match(legacy.protocolVersion, /^0\.3/, 'a v0.3 reader gets the v0.3 JSON-RPC transport');

  // Our own prober's parser: the v1.0 reading and the v0.3 reading.
  const ours = parseAgentCard(card);
  assert.ok(ours.ok);
  assert.equal(ours.card.protocol, '1.0');
  assert.equal(ours.card.endpoint, endpoint);
  assert.equal(ours.card.skills.length, card.skills.length);
  assert.ok(ours.card.hasProvider && ours.card.hasCapabilities && ours.card.inputModes > 0);
  const ours03 = parseAgentCard(v03);
  assert.ok(ours03.ok);
  assert.equal(ours03.card.protocol, '0.3');
  assert.equal(ours03.card.endpoint, endpoint);
});

test('the server card: three remotes, the four protocol versions, the catalog tools; the same from serverCard()', async () => {
  const card = await fetchJson('/.well-known/mcp/server-card.json');
  const b = app.config.publicBaseUrl;
  assert.equal(card.schema_version, '2026-07-28');
  assert.equal(card.version, '2.8.0');
  assert.deepEqual(card.remotes, [
    { type: 'streamable-http', url: `${b}/api/mcp`, headers: [] },
    { type: 'streamable-http', url: `${b}/api/protocol`, headers: [] },
    { type: 'streamable-http', url: `${b}/api/a2a`, headers: [] },
  ]);
  assert.deepEqual(card.protocol_versions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  assert.deepEqual(card.capabilities, { tools: true, resources: false, prompts: false, server_discover: true });
  assert.deepEqual(card.oauth, { required: false, readiness: 'none' });
  assert.equal(card.registry_role, 'sub-registry');
  for (const k of ['name', 'title', 'description', 'website_url', 'documentation_url']) assert.equal(typeof card[k], 'string', k);
  assert.deepEqual(card.tools, toolNames());
  assert.deepEqual(card, serverCard(app.config, toolNames()), 'the exported builder makes the served card');
  // `<endpoint>/server-card` is the MCP Server Card's reserved place (interop-cards.test.ts), not SPEC's card.
  for (const p of MCP_PATHS) assert.notDeepEqual(await fetchJson(`${p}/server-card`), card, p);

  const pointer = await fetchJson('/.well-known/mcp.json');
  assert.equal(pointer.endpoint, `${b}/api/mcp`);
  assert.deepEqual(pointer.aliases, [`${b}/mcp`, `${b}/api/protocol`]);
  assert.equal(pointer.transport, 'streamable-http');
  assert.deepEqual(pointer.protocol_versions, card.protocol_versions);
  assert.equal(pointer.server_card, `${b}/.well-known/mcp/server-card.json`);
  assert.equal(pointer.tools_count, toolNames().length);
});

/** The official MCP registry server.json schema (2025-12-11), written as the facts it states: required fields, patterns, limits. */
const serverJsonFacts = {
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    $schema: { type: 'string', format: 'uri', pattern: '^https://static\\.modelcontextprotocol\\.io/schemas/\\d{4}-\\d{2}-\\d{2}/server\\.schema\\.json$' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    // A specific version: not a range, not "latest".
    version: { type: 'string', maxLength: 255, not: { anyOf: [{ const: 'latest' }, { pattern: '^[\\^~<>=]' }, { pattern: '(^|\\.)[x*](\\.|$)' }] } },
    websiteUrl: { type: 'string', format: 'uri' },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' },
          headers: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
        },
      },
    },
    _meta: { type: 'object' },
  },
};

test('server.json validates against the official schema facts and lists only the MCP remotes', async () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  const validate = ajv.compile(serverJsonFacts);
  const doc = await fetchJson('/api/mcp-registry/server.json');
  assert.ok(validate(doc), JSON.stringify(validate.errors));
  assert.deepEqual(
    doc.remotes,
    MCP_PATHS.map((p) => ({ type: 'streamable-http', url: `${app.config.publicBaseUrl}${p}` })),
  );
  assert.ok(!doc.remotes.some((r: { url: string }) => r.url.endsWith('/api/a2a')));
  assert.equal(doc.version, '3.12.0');
  // The facts bite: a long description and a non-reverse-DNS name are refused.
  assert.equal(validate({ ...doc, description: 'x'.repeat(101) }), false);
  assert.equal(validate({ ...doc, name: 'rollcall' }), false);
  assert.equal(validate({ ...doc, version: '^1.2.3' }), false);
});

test('/openapi.json is a valid OpenAPI 3.1 document that describes the REST routes and the discovery documents', async () => {
  const doc = await fetchJson('/openapi.json');
  const result = await new Validator().validate(doc);
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '1.9.0');
  for (const r of restRoutes) assert.ok(doc.paths[r.path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`);
  for (const path of Object.keys(EXPECTED)) assert.ok(doc.paths[path]?.get?.responses['304'], path);
  // An MCP Server Card answers in its own media type when Accept names it.
  for (const path of ['/api/mcp/server-card', '/api/mcp/owner/server-card', '/.well-known/mcp/server-card']) {
    assert.deepEqual(Object.keys(doc.paths[path].get.responses['200'].content), ['application/json; charset=utf-8', 'application/mcp-server-card+json'], path);
  }
  for (const status of ['405', '409', '431']) assert.ok(Object.values(doc.paths).some((p: any) => Object.values(p).some((op: any) => op.responses?.[status])), status);
});

test('discovery.json, agentmap.json, llms.txt and llms-full.txt name every tool and route of the running service', async () => {
  const map = await fetchJson('/discovery.json');
  assert.equal(map.version, '2.8.0');
  assert.deepEqual(
    map.mcp.tools.map((t: { name: string }) => t.name),
    toolNames(),
  );
  for (const t of map.mcp.tools) assert.ok(t.title && t.description, t.name);
  assert.deepEqual(
    map.rest.routes.map((r: { method: string; path: string }) => `${r.method} ${r.path}`),
    restRoutes.map((r) => `${r.method} ${r.path}`),
  );
  assert.equal(map.score.rubric, `${app.config.publicBaseUrl}/api/score/rubric`);
  assert.equal(map.identity.jwks, `${app.config.publicBaseUrl}/.well-known/jwks.json`);
  assert.equal(map.identity.dns_txt.name, `_mcp.${new URL(app.config.publicBaseUrl).hostname}`);
  assert.equal(map.identity.dns_txt.type, 'TXT');
  assert.match(map.identity.dns_txt.value, /^v=MCPv1; url=/);
  for (const url of Object.values(map.documents).flat() as string[]) {
    assert.ok(Object.keys(EXPECTED).includes(url.slice(app.config.publicBaseUrl.length)), url);
  }
  const agentmap = await fetchJson('/agentmap.json');
  assert.deepEqual(agentmap.surfaces.mcp.tools, toolNames());

  const llms = (await fetchText('/llms.txt')).text;
  assert.match(llms, /^# Rollcall\n\n> .+\n/);
  assert.match(llms, /^## /m);
  for (const name of toolNames()) assert.ok(llms.includes(`[${name}](`), name);
  for (const r of restRoutes) assert.ok(llms.includes(`[${r.method} ${r.path}](`), r.path);
  const full = (await fetchText('/llms-full.txt')).text;
  assert.ok(full.startsWith(llms.trimEnd()), 'llms-full.txt begins with llms.txt');
  for (const t of buildToolList(operations).list) {
    assert.ok(full.includes(`### ${t.name}\n`), t.name);
    for (const field of Object.keys((t.inputSchema as { properties?: object }).properties ?? {})) assert.ok(full.includes(`\`${field}\``), `${t.name}.${field}`);
  }
});

test('ai.txt and robots-agent.txt: fetch policy, rate limits from the config, contact URLs', async () => {
  const config = loadConfig({ PUBLIC_BASE_URL: 'https://rollcall.example.org', RATE_LIMIT_READ_PER_MIN: '321', RATE_LIMIT_WRITE_PER_MIN: '45' });
  const docs = await buildDiscoveryDocuments({ config, catalog: operations });
  const text = (path: string) => docOf(docs, path).body.toString();
  for (const path of ['/ai.txt', '/robots-agent.txt']) {
    const t = text(path);
    assert.match(t, /^User-agent: \*$/im, path);
    assert.match(t, /^Allow: \/$/m, path);
    assert.match(t, /321/, path);
    assert.match(t, /45/, path);
    assert.match(t, /^Contact: https:\/\/rollcall\.example\.org\/$/m, path);
    // Routes that write or reach other servers are not for crawlers.
    assert.match(t, /^Disallow: \/api\/publish$/m, path);
    assert.match(t, /^Allow: \/api\/listings\/active$/m, path);
  }
  assert.match(text('/robots-agent.txt'), /^Agentmap: https:\/\/rollcall\.example\.org\/\.well-known\/ard\.json$/m);
  // Off limits (0) are said plainly.
  const open = await buildDiscoveryDocuments({ config: loadConfig({ RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0' }), catalog: operations });
  assert.match(docOf(open, '/robots-agent.txt').body.toString(), /not limited per address/);
});

test('PUBLIC_BASE_URL names everything: the urn:air host, the registry name in reverse DNS, every URL', async () => {
  const config = loadConfig({ PUBLIC_BASE_URL: 'https://rollcall.example.org' });
  const docs = await buildDiscoveryDocuments({ config, catalog: operations });
  const json = (path: string) => JSON.parse(docOf(docs, path).body.toString());
  assert.equal(json('/api/mcp-registry/server.json').name, 'org.example.rollcall/rollcall');
  assert.ok(json('/.well-known/ard.json').entries.every((e: { identifier: string }) => e.identifier.startsWith('urn:air:rollcall.example.org:')));
  for (const doc of docs) {
    const urls = doc.body.toString().match(/https?:\/\/[^\s"')\]<>]+/g) ?? [];
    for (const u of urls) {
      if (u.startsWith('https://static.modelcontextprotocol.io/') || u.startsWith('https://example.org/')) continue;
      assert.ok(u.startsWith('https://rollcall.example.org'), `${doc.paths[0]}: ${u}`);
    }
  }
});

const docOf = (docs: BuiltDocument[], path: string) => docs.find((d) => d.paths.includes(path))!;

test('generation: a tool and a route that only this test adds appear in every document, with no edit to the documents', async () => {
  const needle = defineOperation({
    name: 'zz_needle_tool',
    title: 'Find the needle',
    description: 'A tool that exists only in this test. It proves the documents are generated from the catalog.',
    input: z.object({ haystack: z.string().max(80).describe('Where to look.'), depth: z.number().int().min(1).max(9).optional() }),
    handler: async () => ({ ok: true }),
  });
  const catalog = [...operations, needle];
  const routes = [...restRoutes, { method: 'GET' as const, path: '/api/zz-needle', operation: needle, from: 'query' as const, summary: 'Needle over REST' }];
  const docs = await buildDiscoveryDocuments({ config: app.config, catalog, routes });
  const json = (path: string) => JSON.parse(docOf(docs, path).body.toString());
  const text = (path: string) => docOf(docs, path).body.toString();

  const discovery = json('/discovery.json');
  assert.deepEqual(discovery.mcp.tools.find((t: { name: string }) => t.name === 'zz_needle_tool'), {
    name: 'zz_needle_tool',
    title: 'Find the needle',
    description: needle.description,
  });
  assert.ok(discovery.rest.routes.some((r: { path: string }) => r.path === '/api/zz-needle'));
  assert.ok(json('/.well-known/mcp/server-card.json').tools.includes('zz_needle_tool'));
  assert.equal(json('/.well-known/mcp.json').tools_count, toolNames().length + 1);
  assert.ok(json('/.well-known/ard.json').entries.some((e: { capabilities: string[] }) => e.capabilities.includes('zz_needle_tool')));
  assert.ok(json('/openapi.json').paths['/api/zz-needle'].get);
  assert.ok(json('/agentmap.json').surfaces.mcp.tools.includes('zz_needle_tool'));
  const card = json('/.well-known/agent-card.json');
  const more = card.skills.find((s: { id: string }) => s.id === 'more-tools');
  assert.ok(more.description.includes('zz_needle_tool'), 'a tool no group names lands in "More tools"');
  assert.ok(card.skills.find((s: { id: string }) => s.id === 'kernel-loop-mesh').description.includes('improve_kernel'));
  const full = text('/llms-full.txt');
  assert.match(full, /### zz_needle_tool\n\nFind the needle\./);
  assert.ok(full.includes('- `haystack` (string, required, at most 80 characters): Where to look.'));
  assert.ok(full.includes('- `depth` (integer, optional, 1 to 9)'));
  assert.ok(full.includes('REST: GET http://localhost:8080/api/zz-needle (same operation)'));
  assert.ok(text('/llms.txt').includes('[zz_needle_tool]('));

  // The quickstart shows the value tool once the catalog has it, with arguments fitted to its real schema ...
  const quick = json('/api/products/quickstart');
  const step = quick.steps.find((s: { operation: string }) => s.operation === 'improve_kernel');
  assert.deepEqual(step.tool, { name: 'improve_kernel', arguments: { agent_name: '<your name>', goals: '<what you are for>' } });
  // ... and not without it.
  const without = operations.filter((op) => op.name !== 'improve_kernel');
  const before = JSON.parse(docOf(await buildDiscoveryDocuments({ config: app.config, catalog: without }), '/api/products/quickstart').body.toString());
  assert.ok(!before.steps.some((s: { operation: string }) => s.operation === 'improve_kernel'));
});

test('skill.json and the quickstart name only tools and routes that exist, with calls valid for them', async () => {
  const tools = new Map(buildToolList(operations).list.map((t) => [t.name, t]));
  const routes = new Set(restRoutes.map((r) => `${r.method} ${app.config.publicBaseUrl}${r.path}`));
  const skillDoc = await fetchJson('/skill.json');
  const quickDoc = await fetchJson('/api/products/quickstart');
  assert.deepEqual(
    skillDoc.steps.slice(0, 2).map((s: { operation: string }) => s.operation),
    ['list_yourself', 'check_status'],
  );
  // SPEC.md 4.3: the quickstart leads a fresh agent with no listing through the value tools; listing comes after.
  assert.deepEqual(
    quickDoc.steps.map((s: { operation: string }) => s.operation),
    ['improve_kernel', 'deposit_outcome', 'leave_feedback'],
  );
  assert.deepEqual(
    quickDoc.then_list_yourself.steps.map((s: { operation: string }) => s.operation),
    ['list_yourself', 'check_status', 'talk_check_in'],
  );
  for (const [path, steps] of [['/skill.json', skillDoc.steps], ['/api/products/quickstart', quickDoc.steps], ['/api/products/quickstart (then_list_yourself)', quickDoc.then_list_yourself.steps]] as const) {
    for (const s of steps) {
      assert.ok(s.tool || s.rest, `${path}: step ${s.step} is callable`);
      if (s.tool) {
        const tool = tools.get(s.tool.name);
        assert.ok(tool, `${path}: ${s.tool.name} is a tool`);
        const props = Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
        for (const arg of Object.keys(s.tool.arguments)) assert.ok(props.includes(arg), `${path}: ${s.tool.name}.${arg}`);
      }
      if (s.rest) assert.ok(routes.has(`${s.rest.method} ${s.rest.url.split('?')[0]}`), `${path}: ${s.rest.method} ${s.rest.url}`);
    }
  }
  const quick = await fetchJson('/api/products/quickstart');
  assert.equal(quick.ok, true);
  assert.equal(quick.version, '1.0.0');
  const skill = await fetchJson('/skill.json');
  assert.equal(skill.deal.founding_free_seats, 100);
  // Real calls: the skill's first two steps work as written, over REST.
  const first = skill.steps[0];
  const published = await fetch(first.rest.url.replace(app.config.publicBaseUrl, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...first.rest.body, url: 'https://skill-step.example.org/mcp' }),
  });
  assert.equal(published.status, 200);
  const { listing_id } = (await published.json()) as { listing_id: string };
  const status = await fetch(skill.steps[1].rest.url.replace(app.config.publicBaseUrl, base).replace('<listing_id>', listing_id));
  assert.equal(status.status, 200);
});

test('a fresh agent with no listing runs the quickstart as written, over MCP (SPEC.md 4.3)', async () => {
  const quick = await fetchJson('/api/products/quickstart');
  assert.match(quick.needs, /no listing/);
  const client = new Client({ name: 'quickstart-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(quick.mcp.endpoint.replace(app.config.publicBaseUrl, base))));
  await client.listTools(); // results are then checked against each tool's outputSchema
  // Only the placeholders are filled in, each with what a real agent would write.
  const fill: Record<string, string> = {
    '<your name>': 'quickstart-fresh-agent',
    '<what you are for>': 'Answer billing questions for small shops, cite the invoice line, stay under 200 words.',
    '<one sentence: how the kernel did in your runtime>': 'The short prompt kept answers under the word limit in every test run.',
    '<one honest sentence about improve_kernel>': 'The kernel made my eval checks explicit and the prompt fit my runtime.',
  };
  const results: Record<string, any>[] = [];
  try {
    for (const step of quick.steps) {
      const args = Object.fromEntries(
        Object.entries(step.tool.arguments as Record<string, unknown>).map(([k, v]) => {
          if (typeof v !== 'string' || !/^<.*>$/.test(v)) return [k, v];
          assert.ok(v in fill, `step ${step.step} ${step.operation}.${k}: an unexpected placeholder ${v}`);
          return [k, fill[v]];
        }),
      );
      assert.equal('listing_id' in args, false, `${step.operation} needs no listing`);
      const r = (await client.callTool({ name: step.tool.name, arguments: args })) as { isError?: boolean; structuredContent: Record<string, any> };
      assert.ok(!r.isError, `${step.operation}: ${JSON.stringify(r.structuredContent)}`);
      results.push(r.structuredContent);
    }
  } finally {
    await client.close();
  }
  const [kernel, outcome, feedback] = results;
  assert.ok(kernel!.system_prompt_short.length <= 600);
  assert.equal(kernel!.meter.event_id, 'improve_kernel');
  // The outcome followed a value tool the same day, as the same agent_name: it refills, as the step says.
  assert.equal(outcome!.refill.granted, true, JSON.stringify(outcome!.refill));
  assert.ok(outcome!.refill.events.includes('improve_kernel'));
  assert.equal(feedback!.refill.granted, true, JSON.stringify(feedback!.refill));
  assert.equal(feedback!.founding.outcome, 'no_listing', 'no listing named: no seat, as the quickstart promises nothing more');
});

test('no document carries an email address, a token or a secret', async () => {
  // A listing with a contact address exists, so a leak would have something to leak.
  await fetch(`${base}/api/publish`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://private.example.org/mcp', contact_email: 'someone.private@example.org' }),
  });
  const email = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
  for (const path of Object.keys(EXPECTED)) {
    const { text } = await fetchText(path);
    assert.doesNotMatch(text, email, `${path}: email address`);
    assert.ok(!text.includes(ADMIN_TOKEN), `${path}: admin token`);
    assert.doesNotMatch(text, /\brc_[A-Za-z0-9_-]{20,}/, `${path}: access token`);
    assert.doesNotMatch(text, /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, `${path}: JWT`);
    assert.doesNotMatch(text, /Bearer\s+[A-Za-z0-9._~+/-]{16,}/, `${path}: bearer credential`);
    assert.doesNotMatch(text, /postgres(ql)?:\/\//, `${path}: database URL`);
  }
});

test('DOCUMENT_PATHS and the served paths agree', () => {
  for (const p of Object.values(DOCUMENT_PATHS)) assert.ok(EXPECTED[p], p);
});

test('integration points: the agent card signatures and the _mcp DNS TXT record plug in through registerDiscovery extras', async () => {
  const seen: unknown[] = [];
  const docs = await buildDiscoveryDocuments({
    config: app.config,
    catalog: operations,
    extras: {
      signAgentCard: async (card) => {
        seen.push(card);
        return [{ protected: 'eyJhbGciOiJFZERTQSJ9', signature: 'c2lnbmF0dXJl' }];
      },
      mcpDnsTxt: async () => 'v=mcp1; url=http://localhost:8080/api/mcp',
    },
  });
  const served = docOf(docs, '/.well-known/agent-card.json');
  const card = JSON.parse(served.body.toString());
  const v1 = JSON.parse(served.variant!.body.toString());
  for (const form of [card, v1]) {
    assert.deepEqual(form.signatures, [{ protected: 'eyJhbGciOiJFZERTQSJ9', signature: 'c2lnbmF0dXJl' }]);
    assert.ok(parseAgentCard(form).ok);
    assert.equal(SdkAgentCard.fromJSON(form).signatures.length, 1);
  }
  const unsigned = (c: any) => {
    const { signatures: _s, ...rest } = c;
    return rest;
  };
  assert.deepEqual(seen, [unsigned(card), unsigned(v1)], 'the signer sees each form of the card exactly as served, without signatures');
  assert.equal(JSON.parse(docOf(docs, '/discovery.json').body.toString()).identity.dns_txt.value, 'v=mcp1; url=http://localhost:8080/api/mcp');
  // Without extras neither appears.
  const bare = await buildDiscoveryDocuments({ config: app.config, catalog: operations });
  assert.equal(JSON.parse(docOf(bare, '/.well-known/agent-card.json').body.toString()).signatures, undefined);
  assert.equal(JSON.parse(docOf(bare, '/discovery.json').body.toString()).identity.dns_txt.value, null);
});

test('the served agent card carries an A2A card signature that verifies with the published JWKS; the TXT record names our key', async () => {
  const card = await (await fetch(`${base}/.well-known/agent-card.json`)).json();
  const jwks = await (await fetch(`${base}/.well-known/jwks.json`)).json();
  assert.equal(card.signatures.length, 1);
  const verdict = await verifyAgentCard(card, jwks.keys);
  assert.equal(verdict.valid, true, JSON.stringify(verdict));
  const tampered = await verifyAgentCard({ ...card, name: 'Someone Else' }, jwks.keys);
  assert.equal(tampered.valid, false, 'a changed card no longer verifies');
  const discovery = await (await fetch(`${base}/discovery.json`)).json();
  const txt: string = discovery.identity.dns_txt.value;
  assert.match(txt, /^v=MCPv1;/);
  const x = jwks.keys[0].x as string;
  assert.ok(txt.includes(Buffer.from(x, 'base64url').toString('base64')), 'the TXT record carries the published public key');
});
