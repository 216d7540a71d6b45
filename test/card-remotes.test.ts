// The MCP server card is true: every remote it lists answers MCP to the official SDK client
// (initialize, tools/list, a read tool), including /api/a2a, which keeps answering A2A to the A2A
// SDK client. How /api/a2a tells the two protocols apart (the method name) and what it does with
// a batch that mixes them (refuses it) is pinned here too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { freePort } from './peers/mcp-servers.ts';

let app: TestApp;
let base: string;

before(async () => {
  // The card names its remotes by PUBLIC_BASE_URL, so the app listens where that says.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await startApp({ env: { PUBLIC_BASE_URL: base, SEARCH_POLL_MS: '0' } });
  await app.http.listen({ port, host: '127.0.0.1' });
});
after(() => app.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test(`every streamable-http remote of the MCP server card answers the official MCP client (${engine})`, async () => {
  const card = await (await fetch(`${base}/.well-known/mcp/server-card.json`)).json();
  const urls: string[] = card.remotes.map((r: { type: string; url: string }) => {
    assert.equal(r.type, 'streamable-http');
    return r.url;
  });
  assert.deepEqual(urls, [`${base}/api/mcp`, `${base}/api/protocol`, `${base}/api/a2a`], 'the three remotes SPEC.md 4.2 lists');
  for (const url of urls) {
    const client = new Client({ name: 'card-remotes-test', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (err) => errors.push(err);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      assert.equal(client.getServerVersion()?.name, 'rollcall', url);
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'check_status'), `${url} lists check_status`);
      const result = await client.callTool({ name: 'network_sense', arguments: {} });
      assert.notEqual(result.isError, true, `${url}: ${JSON.stringify(result.content)}`);
      assert.ok(result.structuredContent, url);
      await client.ping();
      assert.deepEqual(errors, [], `${url}: the transport reported no error`);
    } finally {
      await client.close();
    }
  }
});

test(`the A2A SDK client still talks to /api/a2a (${engine})`, async () => {
  const client = await new ClientFactory().createFromUrl(base);
  const request = SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'help' }] } });
  const task = (await client.sendMessage(request)) as Task;
  assert.ok('status' in task, 'the answer is a Task');
  const got = await client.getTask({ id: task.id, historyLength: 0 } as never);
  assert.equal(got.id, task.id);
});

test(`/api/a2a tells MCP from A2A by the method name, both eras of MCP included (${engine})`, async () => {
  const init = await post('/api/a2a', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  assert.equal(init.status, 200);
  assert.equal(init.body.result.serverInfo.name, 'rollcall');
  assert.equal((await post('/api/a2a', { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const modern = await post(
    '/api/a2a',
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
  );
  assert.equal(modern.status, 200);
  assert.equal(modern.body.result.resultType, 'complete');
  // An MCP batch (2025-03-26) is served as at /api/mcp.
  const batch = await post('/api/a2a', [
    { jsonrpc: '2.0', id: 3, method: 'ping' },
    { jsonrpc: '2.0', id: 4, method: 'tools/list' },
  ]);
  assert.deepEqual(
    batch.body.map((a: { id: number }) => a.id),
    [3, 4],
  );
  // A batch that mixes the protocols is refused whole; nothing in it runs.
  const mixed = await post('/api/a2a', [
    { jsonrpc: '2.0', id: 5, method: 'ping' },
    { jsonrpc: '2.0', id: 6, method: 'tasks/get', params: { id: 'x' } },
  ]);
  assert.equal(mixed.body.error.code, -32600);
  assert.match(mixed.body.error.message, /mixes MCP and A2A/);
  // A method neither protocol serves keeps the A2A door's answer, which names what is served.
  const unknown = await post('/api/a2a', { jsonrpc: '2.0', id: 7, method: 'tasks/list' });
  assert.equal(unknown.body.error.code, -32601);
  assert.match(unknown.body.error.message, /Served here: SendMessage/);
  // The MCP door's own checks apply: a protocol version it does not serve is refused.
  const badVersion = await post('/api/a2a', { jsonrpc: '2.0', id: 8, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
  assert.equal(badVersion.status, 400);
  assert.equal(badVersion.body.error.code, -32022);
});

test(`MCP at /api/a2a counts each message against the limits and checks Origin, as /api/mcp does (${engine})`, async () => {
  const limited = await startApp({ env: { RATE_LIMIT_READ_PER_MIN: '3' } });
  try {
    const rpc = (body: unknown, headers: Record<string, string> = {}) =>
      limited.http.inject({ method: 'POST', url: '/api/a2a', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    // A batch of two is two reads; the third read fits, the fourth is refused as at /api/mcp.
    assert.equal((await rpc([ping(1), ping(2)])).statusCode, 200);
    assert.equal((await rpc(ping(3))).statusCode, 200);
    const refused = await rpc(ping(4));
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error.code, -32029);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const foreign = await rpc(ping(5), { origin: 'https://evil.example' });
    assert.equal(foreign.statusCode, 403);
  } finally {
    await limited.close();
  }
});
