// The MCP endpoint's 2026-07-28 era, over real HTTP: server/discover, the `_meta`
// envelope, the standard headers, resultType, cache hints, removed methods and the new error codes;
// and the whole tool catalog through the official SDK client, whose output-schema checks prove
// that every result (failures included) matches the schema tools/list advertises.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, type TestApp } from './helpers/app.ts';
import { operations } from '../src/catalog.ts';

let app: TestApp;
let base: string;
before(async () => {
  app = await startApp();
  base = await app.listen();
});
after(() => app.close());

const MODERN = '2026-07-28';
const envelope = (version = MODERN, extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'rollcall-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});
const headersFor = (method: string, extra: Record<string, string> = {}) => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...extra });

async function rpc(body: unknown, headers: Record<string, string> = {}, accept = 'application/json, text/event-stream') {
  const res = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
const modern = (id: number, method: string, params: Record<string, unknown> = {}, extraHeaders: Record<string, string> = {}) =>
  rpc({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } }, headersFor(method, extraHeaders));

test('server/discover answers the supported versions, capabilities and server info', async () => {
  const { status, body } = await modern(1, 'server/discover');
  assert.equal(status, 200);
  assert.equal(body.id, 1);
  assert.deepEqual(body.result.supportedVersions, [MODERN, '2025-11-25', '2025-06-18', '2025-03-26']);
  assert.deepEqual(body.result.capabilities.tools, { listChanged: false });
  // No tool of the catalog sends its caller log messages, so logging is not declared.
  assert.equal(body.result.capabilities.logging, undefined);
  assert.equal(body.result.resultType, 'complete');
  assert.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'rollcall');
  assert.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].version, '3.12.0');
  assert.match(body.result.instructions, /list_yourself/);
});

test('tools/list carries resultType and cache hints, every tool fully described, in a stable order', async () => {
  const first = await modern(2, 'tools/list');
  assert.equal(first.status, 200);
  const result = first.body.result;
  assert.equal(result.resultType, 'complete');
  assert.ok(Number.isInteger(result.ttlMs) && result.ttlMs >= 0);
  assert.ok(['public', 'private'].includes(result.cacheScope));
  // find_tools, served by every MCP endpoint, comes after the catalog's tools.
  const expected = [...operations.filter((o) => o.tool !== false).flatMap((o) => [o.name, ...(o.aliases ?? [])]), 'find_tools'];
  assert.deepEqual(
    result.tools.map((t: { name: string }) => t.name),
    expected,
    'the catalog order, aliases after their tool',
  );
  for (const tool of result.tools) {
    assert.match(tool.name, /^[A-Za-z0-9_.-]{1,128}$/);
    assert.equal(typeof tool.title, 'string', `${tool.name} has a title`);
    assert.ok(tool.description.length > 40, `${tool.name} says when to use it`);
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.outputSchema.type, 'object');
    for (const hint of ['readOnlyHint', 'idempotentHint', 'openWorldHint']) assert.equal(typeof tool.annotations[hint], 'boolean', `${tool.name} ${hint}`);
  }
  const again = await modern(3, 'tools/list');
  assert.deepEqual(again.body.result.tools, result.tools);
  const checkStatus = result.tools.find((t: { name: string }) => t.name === 'check_status');
  assert.deepEqual(checkStatus.annotations, { title: 'Check listing status', readOnlyHint: true, idempotentHint: true, openWorldHint: false });
});

test('tools/call answers with resultType complete; tool failures stay isError results', async () => {
  const ok = await modern(4, 'tools/call', { name: 'capability_hash', arguments: { capabilities: ['b', 'a'] } }, { 'mcp-name': 'capability_hash' });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.result.resultType, 'complete');
  assert.equal(ok.body.result.structuredContent.count, 2);
  const failed = await modern(5, 'tools/call', { name: 'check_status', arguments: { id: 'lst_missing' } }, { 'mcp-name': 'check_status' });
  assert.equal(failed.body.result.isError, true);
  assert.equal(failed.body.result.resultType, 'complete');
  assert.equal(failed.body.result.structuredContent.error.code, 'not_found');
  const unknown = await modern(6, 'tools/call', { name: 'no_such_tool', arguments: {} }, { 'mcp-name': 'no_such_tool' });
  assert.equal(unknown.body.error.code, -32602);
  // A name outside plain header text travels Base64-encoded in Mcp-Name.
  const encoded = `=?base64?${Buffer.from('capability_hash').toString('base64')}?=`;
  const viaSentinel = await modern(7, 'tools/call', { name: 'capability_hash', arguments: { capabilities: ['x'] } }, { 'mcp-name': encoded });
  assert.equal(viaSentinel.status, 200);
  assert.equal(viaSentinel.body.result.structuredContent.count, 1);
});

test('initialize and ping do not exist in the modern era: 404 with -32601, like any unknown method', async () => {
  for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'no/such']) {
    const res = await modern(8, method, method === 'initialize' ? { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'x', version: '1' } } : {});
    assert.equal(res.status, 404, method);
    assert.equal(res.body.error.code, -32601, method);
    assert.equal(res.body.id, 8, 'the error echoes the request id');
  }
});

test('a version we do not serve is -32022 with the supported list', async () => {
  const inBody = await rpc({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: envelope('2027-01-01') } }, { 'mcp-protocol-version': '2027-01-01', 'mcp-method': 'tools/list' });
  assert.equal(inBody.status, 400);
  assert.equal(inBody.body.error.code, -32022);
  assert.equal(inBody.body.id, 9);
  assert.deepEqual(inBody.body.error.data, { supported: [MODERN, '2025-11-25', '2025-06-18', '2025-03-26'], requested: '2027-01-01' });
  const headerOnly = await rpc({ jsonrpc: '2.0', id: 10, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
  assert.equal(headerOnly.status, 400);
  assert.equal(headerOnly.body.error.code, -32022);
});

test('headers that disagree with the body, or are missing, are -32020 on HTTP 400', async () => {
  const body = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 11, method, params: { ...params, _meta: envelope() } });
  const cases: [string, unknown, Record<string, string>][] = [
    ['no MCP-Protocol-Version', body('tools/list'), { 'mcp-method': 'tools/list' }],
    ['no Mcp-Method', body('tools/list'), { 'mcp-protocol-version': MODERN }],
    ['Mcp-Method names another method', body('tools/list'), headersFor('tools/call')],
    ['header and envelope versions differ', body('tools/list'), { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' }],
    ['no Mcp-Name on tools/call', body('tools/call', { name: 'capability_hash', arguments: {} }), headersFor('tools/call')],
    ['Mcp-Name names another tool', body('tools/call', { name: 'capability_hash', arguments: {} }), headersFor('tools/call', { 'mcp-name': 'check_status' })],
    ['Mcp-Name with a broken Base64 sentinel', body('tools/call', { name: 'capability_hash', arguments: {} }), headersFor('tools/call', { 'mcp-name': '=?base64?%%%?=' })],
  ];
  for (const [what, payload, headers] of cases) {
    const res = await rpc(payload, headers);
    assert.equal(res.status, 400, what);
    assert.equal(res.body.error.code, -32020, what);
    assert.equal(res.body.id, 11, `${what}: the id is echoed`);
    assert.ok(res.body.error.data.mismatch, what);
  }
  const legacyInit = await rpc({ jsonrpc: '2.0', id: 12, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, { 'mcp-protocol-version': MODERN });
  assert.equal(legacyInit.status, 400);
  assert.equal(legacyInit.body.error.code, -32020, 'the legacy handshake under a modern header');
});

test('a broken or missing envelope is -32602 on HTTP 400; batches may not carry modern requests', async () => {
  const noCaps = await rpc({ jsonrpc: '2.0', id: 13, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } }, headersFor('tools/list'));
  assert.equal(noCaps.status, 400);
  assert.equal(noCaps.body.error.code, -32602);
  assert.equal(noCaps.body.error.data.envelope.key, 'io.modelcontextprotocol/clientCapabilities');
  const badInfo = await rpc({ jsonrpc: '2.0', id: 14, method: 'tools/list', params: { _meta: envelope(MODERN, { 'io.modelcontextprotocol/clientInfo': 'me' }) } }, headersFor('tools/list'));
  assert.equal(badInfo.body.error.code, -32602);
  const headerWithoutEnvelope = await rpc({ jsonrpc: '2.0', id: 15, method: 'tools/list' }, headersFor('tools/list'));
  assert.equal(headerWithoutEnvelope.status, 400);
  assert.equal(headerWithoutEnvelope.body.error.code, -32602);
  const batch = await rpc([{ jsonrpc: '2.0', id: 16, method: 'tools/list', params: { _meta: envelope() } }], { 'mcp-protocol-version': '2025-03-26' });
  assert.equal(batch.status, 400);
  assert.equal(batch.body.error.code, -32600);
  const notification = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized', params: { _meta: envelope() } }, headersFor('notifications/initialized'));
  assert.equal(notification.status, 202);
});

test('a plain client sending Accept: application/json alone is served in both eras', async () => {
  const legacy = await rpc({ jsonrpc: '2.0', id: 17, method: 'tools/list' }, {}, 'application/json');
  assert.equal(legacy.status, 200);
  assert.ok(legacy.body.result.tools.length > 0);
  assert.match(legacy.headers.get('content-type') ?? '', /^application\/json/);
  const mod = await rpc({ jsonrpc: '2.0', id: 18, method: 'tools/list', params: { _meta: envelope() } }, headersFor('tools/list'), 'application/json');
  assert.equal(mod.status, 200);
  assert.equal(mod.body.result.resultType, 'complete');
});

test('GET answers the info object with the keys of SPEC.md 4.2', async () => {
  const res = await fetch(`${base}/api/mcp`);
  const info = await res.json();
  for (const key of ['ok', 'name', 'transport', 'mcp_release', 'stateless', 'version', 'endpoint', 'aliases', 'methods', 'tools', 'server_card', 'mcp_json', 'discovery', 'hard_next', 'deal', 'note', 'card', 'dual_as_tool']) {
    assert.ok(key in info, key);
  }
  assert.equal(info.mcp_release, MODERN);
  assert.equal(info.version, '3.12.0');
  assert.ok(info.methods.includes('server/discover') && info.methods.includes('initialize'));
  assert.equal(info.card.remotes.length, 3);
  assert.equal(info.dual_as_tool.tools.list_yourself, `POST ${app.config.publicBaseUrl}/api/publish`);
});

test('the official SDK client lists every tool and calls each one; every result matches its output schema', async () => {
  const client = new Client({ name: 'rollcall-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  try {
    const { tools } = await client.listTools();
    // find_tools, served by every MCP endpoint, comes after the catalog's tools.
  const expected = [...operations.filter((o) => o.tool !== false).flatMap((o) => [o.name, ...(o.aliases ?? [])]), 'find_tools'];
    assert.deepEqual(
      tools.map((t) => t.name),
      expected,
    );
    // Arguments that run each tool for real where that needs no network, and fail cleanly where it would.
    const args: Record<string, Record<string, unknown>> = {
      list_yourself: { url: 'https://sdk-client.example.org/mcp' },
      capability_hash: { capabilities: ['search', 'fetch'] },
      probe_clean: { url: 'ftp://not-http.example.org/' },
      check_liveness: { url: 'ftp://not-http.example.org/' },
      find_tools: { need: 'list my MCP server' },
    };
    for (const tool of tools) {
      // The SDK validates structuredContent against the tool's outputSchema and throws when it does not match.
      const result = await client.callTool({ name: tool.name, arguments: args[tool.name] ?? {} });
      assert.ok(result.structuredContent, `${tool.name} returns structured content`);
      assert.equal(typeof (result.structuredContent as { ok: boolean }).ok, 'boolean', tool.name);
    }
    const listed = await client.callTool({ name: 'list_yourself', arguments: args.list_yourself! });
    assert.equal((listed.structuredContent as { lane: string }).lane, 'queued');
  } finally {
    await client.close();
  }
});

test('a modern request with a malformed id or version is an invalid request, like any other', async () => {
  const badId = await rpc({ jsonrpc: '2.0', id: { x: 1 }, method: 'tools/list', params: { _meta: envelope() } }, headersFor('tools/list'));
  assert.equal(badId.status, 400);
  assert.equal(badId.body.error.code, -32600);
  const badVersion = await rpc({ jsonrpc: '1.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }, headersFor('tools/list'));
  assert.equal(badVersion.status, 400);
  assert.equal(badVersion.body.error.code, -32600);
});
