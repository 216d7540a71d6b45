// An argument a tool does not take is refused, never dropped: over MCP (the official SDK client, and
// the 2026-07-28 era's envelope), over A2A (a data part naming a tool, through the A2A SDK client)
// and in REST bodies. The error names the unknown arguments and the accepted ones. Found by a new
// agent: `ard_search {q, foo}` answered as if foo were not there, and `search_active {query:
// "email"}` searched for nothing and listed every Live listing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SendMessageRequest, TaskState, type Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { freePort } from './peers/mcp-servers.ts';

let app: TestApp;
let base: string;
let mcp: Client;

before(async () => {
  // The agent card names the public URL the A2A client then calls: this app's own.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await startApp({ env: { PUBLIC_BASE_URL: base } });
  await app.http.listen({ port, host: '127.0.0.1' });
  mcp = new Client({ name: 'unknown-arguments-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
});

after(async () => {
  await mcp?.close();
  await app?.close();
});

interface ToolError {
  ok: false;
  error: { code: string; message: string; field?: string; details?: { unknown: string[]; accepted: string[] } };
}

/** A tool call's error, from its structured content (or its text when there is none). */
async function toolError(name: string, args: Record<string, unknown>): Promise<ToolError> {
  const result = await mcp.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result)}`);
  const content = result.content as { type: string; text: string }[];
  return (result.structuredContent as unknown as ToolError | undefined) ?? JSON.parse(content[0]!.text);
}

test(`MCP: ard_search {q, foo} and search_active {query} are refused, naming the unknown and the accepted arguments (${engine})`, async () => {
  const search = await toolError('ard_search', { q: 'postgres', foo: 1 });
  assert.equal(search.error.code, 'unknown_argument');
  assert.equal(search.error.field, 'foo');
  assert.deepEqual(search.error.details?.unknown, ['foo']);
  assert.ok(search.error.details?.accepted.includes('q') && search.error.details.accepted.includes('live_only'), JSON.stringify(search.error));
  assert.match(search.error.message, /unknown argument "foo"; accepted: "q", "limit"/);

  const active = await toolError('search_active', { query: 'email' });
  assert.equal(active.error.code, 'unknown_argument');
  assert.deepEqual(active.error.details?.unknown, ['query']);
  assert.ok(active.error.details?.accepted.includes('q'));

  // The same calls with the arguments the tools take still answer.
  const fine = await mcp.callTool({ name: 'ard_search', arguments: { q: 'postgres' } });
  assert.notEqual(fine.isError, true, JSON.stringify(fine));
  const none = await mcp.callTool({ name: 'capability_hash', arguments: { capabilities: ['a'] } });
  assert.notEqual(none.isError, true, JSON.stringify(none));
});

test(`MCP, 2026-07-28 era: an unknown argument is the same error (${engine})`, async () => {
  const era = '2026-07-28';
  const res = await fetch(`${base}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': era, 'mcp-method': 'tools/call', 'mcp-name': 'search_active' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'search_active',
        arguments: { query: 'email' },
        _meta: { 'io.modelcontextprotocol/protocolVersion': era, 'io.modelcontextprotocol/clientInfo': { name: 'rollcall-test', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.result.isError, true, JSON.stringify(body));
  assert.equal(body.result.structuredContent.error.code, 'unknown_argument');
  assert.deepEqual(body.result.structuredContent.error.details.unknown, ['query']);
});

test(`A2A: a data part naming a tool with an argument it does not take is a FAILED task saying which (${engine})`, async () => {
  const client = await new ClientFactory().createFromUrl(base);
  const send = async (data: Record<string, unknown>) =>
    (await client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ data }] } }))) as Task;
  const task = await send({ tool: 'search_active', arguments: { query: 'email' } });
  assert.equal(task.status!.state, TaskState.TASK_STATE_FAILED);
  const part = task.status!.message!.parts.find((p) => p.content?.$case === 'data');
  assert.ok(part?.content, 'the status message carries the error as data');
  const error = (part.content.value as ToolError).error;
  assert.equal(error.code, 'unknown_argument');
  assert.deepEqual(error.details?.unknown, ['query']);
  // Its arguments as the tool takes them: answered.
  const fine = await send({ tool: 'search_active', arguments: { q: 'email' } });
  assert.equal(fine.status!.state, TaskState.TASK_STATE_COMPLETED);
  // A request in words still runs (its input is built by Rollcall, not named by the caller).
  const words = (await client.sendMessage(SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'find an MCP server for postgres' }] } }))) as Task;
  assert.equal(words.status!.state, TaskState.TASK_STATE_COMPLETED);
});

test(`REST: a body field the operation does not take is a 400 naming it; a query string may carry others (${engine})`, async () => {
  const refused = await postJson(app, '/api/publish', { url: 'https://example.org/mcp', contact: 'me@example.org' });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error.code, 'unknown_argument');
  assert.equal(refused.body.error.field, 'contact');
  assert.ok(refused.body.error.details.accepted.includes('contact_email'));
  const read = await getJson(app, '/api/ard/search?q=postgres&utm_source=newsletter');
  assert.equal(read.status, 200);
});
