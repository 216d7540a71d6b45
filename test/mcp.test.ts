import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { createHash } from 'node:crypto';
import { startApp, postJson, type TestApp } from './helpers/app.ts';
import { operations } from '../src/catalog.ts';

let app: TestApp;
let base: string;
let client: Client;

before(async () => {
  app = await startApp();
  base = await app.listen();
  client = new Client({ name: 'rollcall-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
});
after(async () => {
  await client.close();
  await app.close();
});

type Structured = Record<string, any>;
const structured = (r: unknown) => (r as { structuredContent: Structured }).structuredContent;

test('initialize through the official SDK client negotiates and names the server', async () => {
  const info = client.getServerVersion();
  assert.equal(info?.name, 'rollcall');
  assert.equal(info?.version, '3.12.0');
  assert.ok(client.getServerCapabilities()?.tools);
  await client.ping();
});

/** Every tool of the catalog, and find_tools, which every MCP endpoint serves. */
const catalogTools = [...operations.filter((o) => o.tool !== false).flatMap((o) => [o.name, ...(o.aliases ?? [])]), 'find_tools'];

test('tools/list lists every tool of the catalog with JSON Schema inputs', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, [...catalogTools].sort());
  for (const name of ['capability_hash', 'check_liveness', 'check_status', 'get_listing_status', 'list_yourself', 'probe_clean']) assert.ok(names.includes(name), name);
  const listYourself = tools.find((t) => t.name === 'list_yourself')!;
  assert.equal(listYourself.inputSchema.type, 'object');
  assert.ok(listYourself.inputSchema.properties && 'url' in listYourself.inputSchema.properties);
  assert.match(tools.find((t) => t.name === 'get_listing_status')!.description ?? '', /Alias of check_status/);
});

test('publishing over MCP and over REST gives the same listing', async () => {
  const viaMcp = structured(await client.callTool({ name: 'list_yourself', arguments: { url: 'https://Same.Example.org/mcp', name: 'Same' } }));
  assert.equal(viaMcp.ok, true);
  assert.equal(viaMcp.outcome, 'listed');
  const viaRest = await postJson(app, '/api/publish', { url: 'https://same.example.org/mcp' });
  assert.equal(viaRest.body.outcome, 'queued');
  assert.equal(viaRest.body.listing_id, viaMcp.listing_id);
  const status = structured(await client.callTool({ name: 'check_status', arguments: { id: viaMcp.listing_id } }));
  const alias = structured(await client.callTool({ name: 'get_listing_status', arguments: { name: 'same' } }));
  assert.equal(status.lane, 'queued');
  assert.equal(alias.listing_id, viaMcp.listing_id);
  const { lane, take_demo_get, next_step, url } = viaRest.body;
  assert.deepEqual({ lane: status.lane, take_demo_get: status.take_demo_get, next_step: status.next_step, url: status.url }, { lane, take_demo_get, next_step, url });
});

test('tool results mirror structuredContent as JSON text', async () => {
  const result = await client.callTool({ name: 'capability_hash', arguments: { capabilities: ['b', 'a'] } });
  const content = result.content as { type: string; text: string }[];
  assert.equal(content[0]!.type, 'text');
  assert.deepEqual(JSON.parse(content[0]!.text), structured(result));
});

test('capability_hash canonicalizes: equal sets give equal hashes', async () => {
  const a = structured(await client.callTool({ name: 'capability_hash', arguments: { capabilities: [' Search ', 'fetch', 'search', ''] } }));
  const b = structured(await client.callTool({ name: 'capability_hash', arguments: { capabilities: ['FETCH', 'search'] } }));
  assert.equal(a.capability_hash, b.capability_hash);
  assert.deepEqual(a.capabilities, ['fetch', 'search']);
  assert.equal(a.capability_hash, createHash('sha256').update('fetch\nsearch').digest('hex'));
  const c = structured(await client.callTool({ name: 'capability_hash', arguments: { capabilities: ['fetch'] } }));
  assert.notEqual(c.capability_hash, a.capability_hash);
});

test('capability_hash by listing_id: unknown is not_found, unprobed is a clear conflict', async () => {
  const missing = await client.callTool({ name: 'capability_hash', arguments: { listing_id: 'lst_missing' } });
  assert.equal(missing.isError, true);
  assert.equal(structured(missing).error.code, 'not_found');
  const listed = structured(await client.callTool({ name: 'list_yourself', arguments: { url: 'https://hash.example.org/mcp' } }));
  const unprobed = await client.callTool({ name: 'capability_hash', arguments: { listing_id: listed.listing_id } });
  assert.equal(unprobed.isError, true);
  assert.equal(structured(unprobed).error.code, 'not_probed');
  const empty = await client.callTool({ name: 'capability_hash', arguments: { capabilities: ['  '] } });
  assert.equal(structured(empty).error.code, 'invalid_input');
});

test('arguments that fail the schema are an isError result a model can read, not a protocol error', async () => {
  const result = await client.callTool({ name: 'list_yourself', arguments: { url: 12, contact_email: 'bad' } });
  assert.equal(result.isError, true);
  const s = structured(result);
  assert.equal(s.ok, false);
  assert.equal(s.error.code, 'invalid_input');
  assert.deepEqual(s.error.details.map((d: { field: string }) => d.field).sort(), ['contact_email', 'url']);
  assert.equal(typeof s.request_id, 'string');
  const noUrl = await client.callTool({ name: 'list_yourself', arguments: {} });
  assert.equal(structured(noUrl).error.field, 'url');
});

/** A value of another type than the JSON Schema property asks for. */
function wrongTyped(property: { type?: string | string[] }): unknown {
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  return type === 'string' ? 123 : type === 'array' ? 'not-a-list' : type === 'object' ? 7 : type === 'number' || type === 'integer' || type === 'boolean' ? 'not-a-value' : [];
}

test('every tool answers wrong-typed arguments with a readable isError result, and an argument it does not take with unknown_argument', async () => {
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string | string[] }>;
    const names = Object.keys(properties);
    if (names.length) {
      const wrong = Object.fromEntries(names.map((n) => [n, wrongTyped(properties[n]!)]));
      const s = structured(await client.callTool({ name: tool.name, arguments: wrong }));
      assert.equal(s.ok, false, tool.name);
      assert.equal(s.error.code, 'invalid_input', `${tool.name}: ${JSON.stringify(s.error)}`);
      assert.ok(s.error.details.length >= 1, tool.name);
    }
    const extra = await client.callTool({ name: tool.name, arguments: { not_an_argument: 1 } });
    assert.equal(extra.isError, true, tool.name);
    const e = structured(extra).error;
    assert.deepEqual([e.code, e.field, e.details.accepted], ['unknown_argument', 'not_an_argument', names], `${tool.name}: ${JSON.stringify(e)}`);
  }
});

test('an unknown tool is JSON-RPC -32602', async () => {
  await assert.rejects(
    client.callTool({ name: 'no_such_tool', arguments: {} }),
    (err: unknown) => err instanceof McpError && err.code === -32602 && /Unknown tool/.test(err.message),
  );
});

async function rpc(body: string | unknown, headers: Record<string, string> = {}, path = '/api/mcp') {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

test('raw JSON-RPC: parse errors, invalid requests, unknown methods, bad params', async () => {
  const parse = await rpc('{"jsonrpc": "2.0", "id": 1, "method": ');
  assert.equal(parse.status, 400);
  assert.equal(parse.body.error.code, -32700);
  assert.equal(parse.body.id, null);
  const notRpc = await rpc({ id: 1, method: 'ping' });
  assert.equal(notRpc.body.error.code, -32600);
  const badId = await rpc({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' });
  assert.equal(badId.body.error.code, -32600);
  const unknown = await rpc({ jsonrpc: '2.0', id: 2, method: 'sampling/createMessage' });
  assert.equal(unknown.body.error.code, -32601);
  const noName = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: {} } });
  assert.equal(noName.body.error.code, -32602);
  const badArgs = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'check_status', arguments: [1] } });
  assert.equal(badArgs.body.error.code, -32602);
  const noVersion = await rpc({ jsonrpc: '2.0', id: 5, method: 'initialize', params: {} });
  assert.equal(noVersion.body.error.code, -32602);
  const big = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping', params: { pad: 'x'.repeat(2 * 1024 * 1024) } }));
  assert.equal(big.status, 413);
  assert.equal(big.body.jsonrpc, '2.0');
  const plain = await rpc('{}', { 'content-type': 'text/plain' });
  assert.equal(plain.status, 415);
});

test('notifications get 202; batches answer every request; versions negotiate', async () => {
  const note = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' });
  assert.equal(note.status, 202);
  assert.equal(note.body, undefined);
  const batch = await rpc([
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]);
  assert.equal(batch.status, 200);
  assert.deepEqual(batch.body.map((r: { id: number }) => r.id), [1, 2]);
  const modernBatch = await rpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }], { 'mcp-protocol-version': '2025-06-18' });
  assert.equal(modernBatch.status, 400);
  const old = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  assert.equal(old.body.result.protocolVersion, '2025-03-26');
  const future = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  assert.equal(future.body.result.protocolVersion, '2025-11-25');
  const badHeader = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
  assert.equal(badHeader.status, 400);
});

test('the aliases /mcp and /api/protocol serve the same endpoint', async () => {
  for (const path of ['/mcp', '/api/protocol']) {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, {}, path);
    assert.equal(res.status, 200);
    assert.equal(res.body.result.tools.length, catalogTools.length);
  }
});

test('GET answers 405 to an SSE request and the info object otherwise; DELETE is 405', async () => {
  const sse = await fetch(`${base}/api/mcp`, { headers: { accept: 'text/event-stream' } });
  assert.equal(sse.status, 405);
  await sse.text();
  const info = await (await fetch(`${base}/api/mcp`, { headers: { accept: 'application/json' } })).json();
  assert.equal(info.ok, true);
  assert.equal(info.stateless, true);
  assert.equal(info.transport, 'streamable-http');
  assert.ok(info.tools.includes('list_yourself'));
  const del = await fetch(`${base}/api/mcp`, { method: 'DELETE' });
  assert.equal(del.status, 405);
  await del.text();
});

test('DNS rebinding: a foreign Origin or Host is refused with 403', async () => {
  const origin = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://evil.example' });
  assert.equal(origin.status, 403);
  const local = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://localhost:3000' });
  assert.equal(local.status, 200);
  const host = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { host: 'evil.example', 'content-type': 'application/json' }, payload: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  assert.equal(host.statusCode, 403);
});

test('GET info: an ETag answered with 304, cacheable, readable from any origin; Host still checked', async () => {
  const first = await fetch(`${base}/api/mcp`, { headers: { origin: 'https://someone-else.example' } });
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('access-control-allow-origin'), '*');
  assert.match(first.headers.get('cache-control') ?? '', /max-age=\d+/);
  const etag = first.headers.get('etag');
  assert.ok(etag);
  const info = await first.json();
  assert.equal(info.version, '3.12.0');
  for (const key of ['ok', 'name', 'transport', 'mcp_release', 'stateless', 'version', 'endpoint', 'aliases', 'methods', 'tools', 'server_card', 'mcp_json', 'discovery', 'hard_next', 'deal', 'note', 'card', 'dual_as_tool']) {
    assert.ok(key in info, `info has ${key}`);
  }
  const again = await fetch(`${base}/api/mcp`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(again.headers.get('etag'), etag);
  const host = await app.http.inject({ method: 'GET', url: '/api/mcp', headers: { host: 'evil.example' } });
  assert.equal(host.statusCode, 403);
});

test('POST honours Accept: JSON by default, one SSE message when only a stream is accepted, 406 for neither', async () => {
  const ping = { jsonrpc: '2.0', id: 7, method: 'ping' };
  const plain = await rpc(ping, { accept: 'application/json' });
  assert.equal(plain.status, 200);
  assert.deepEqual(plain.body, { jsonrpc: '2.0', id: 7, result: {} });
  const both = await rpc(ping, { accept: 'application/json, text/event-stream' });
  assert.equal(both.status, 200);
  const streamed = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify(ping) });
  assert.equal(streamed.status, 200);
  assert.match(streamed.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await streamed.text();
  assert.match(text, /^event: message\ndata: /);
  assert.deepEqual(JSON.parse(text.split('\n')[1]!.slice('data: '.length)), { jsonrpc: '2.0', id: 7, result: {} });
  const refused = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/html' }, body: JSON.stringify(ping) });
  assert.equal(refused.status, 406);
  const error = await refused.json();
  assert.equal(error.error.code, -32600);
  assert.equal(error.id, 7);
});
