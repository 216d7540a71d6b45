// What a 2026-07-28 MCP request declares of its client, over real HTTP: a tool that needs a client
// capability the request did not declare is refused with -32021 on HTTP 400 (data.requiredCapabilities
// a ClientCapabilities object); log messages go out only at or above the level a request asks for,
// on its own SSE response stream, and never without a level; input asked of the client travels
// inside the result, never as a request of its own. The conformance suite's diagnostic tools are
// served only with MCP_CONFORMANCE_TOOLS=1, to 2026-07-28 requests, and never grow the production list.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, type TestApp } from './helpers/app.ts';
import { operations } from '../src/catalog.ts';
import { defineOperation } from '../src/platform/operation.ts';
import { clientLog } from '../src/platform/client-log.ts';

// Two operations of the real catalog's kind, served by the real door: one needs the client's
// roots, one logs to its caller (no production tool does either yet; the door's rules are the same).
const needsRoots = defineOperation({
  name: 'test_needs_roots',
  title: 'Test: needs roots',
  description: 'Test only: a tool that cannot run without the client declaring its roots capability.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  clientCapabilities: { roots: {} },
  input: z.object({}),
  handler: async () => ({ ok: true as const }),
});
const logsSteps = defineOperation({
  name: 'test_logs_steps',
  title: 'Test: logs its steps',
  description: 'Test only: a tool that logs one message at debug, notice and error to its caller.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  clientLogs: true,
  input: z.object({}),
  handler: async (ctx) => {
    for (const level of ['debug', 'notice', 'error'] as const) clientLog(ctx, level, { step: level }, 'test_logs_steps');
    return { ok: true as const };
  },
});
(operations as unknown[]).push(needsRoots, logsSteps);

let plain: TestApp;
let withDiagnostics: TestApp;
let plainBase: string;
let base: string;
before(async () => {
  plain = await startApp();
  plainBase = await plain.listen();
  withDiagnostics = await startApp({ env: { MCP_CONFORMANCE_TOOLS: '1' } });
  base = await withDiagnostics.listen();
});
after(async () => {
  await plain.close();
  await withDiagnostics.close();
});

const MODERN = '2026-07-28';
const DIAGNOSTICS = ['test_missing_capability', 'test_streaming_elicitation', 'test_logging_tool'];
const BOTH = 'application/json, text/event-stream';

interface Answer {
  status: number;
  contentType: string;
  /** Every JSON-RPC message of the answer: one for JSON, each `data:` of an SSE stream in order. */
  messages: Record<string, any>[];
}

async function post(url: string, body: unknown, headers: Record<string, string>, accept = BOTH): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body: JSON.stringify(body) });
  const contentType = res.headers.get('content-type') ?? '';
  const text = await res.text();
  const messages = contentType.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  return { status: res.status, contentType, messages };
}

/** A 2026-07-28 request with its envelope and standard headers. */
function modern(at: string, id: number, method: string, params: Record<string, unknown>, client: { capabilities?: Record<string, unknown>; logLevel?: string } = {}, accept = BOTH) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'rollcall-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': client.capabilities ?? {},
    ...(client.logLevel !== undefined ? { 'io.modelcontextprotocol/logLevel': client.logLevel } : {}),
  };
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (method === 'tools/call') headers['mcp-name'] = params.name as string;
  return post(`${at}/api/mcp`, { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }, headers, accept);
}
const call = (at: string, id: number, name: string, client: Parameters<typeof modern>[4] = {}, extra: Record<string, unknown> = {}, accept = BOTH) =>
  modern(at, id, 'tools/call', { name, arguments: {}, ...extra }, client, accept);
const legacy = (at: string, id: number, method: string, params: Record<string, unknown> = {}) => post(`${at}/api/mcp`, { jsonrpc: '2.0', id, method, params }, {});

test('without MCP_CONFORMANCE_TOOLS no diagnostic tool exists, in either era, nor in the GET info object', async () => {
  const modernList = (await modern(plainBase, 1, 'tools/list', {})).messages[0]!.result.tools;
  const legacyList = (await legacy(plainBase, 2, 'tools/list')).messages[0]!.result.tools;
  assert.deepEqual(modernList, legacyList, 'the same tools in both eras');
  for (const name of DIAGNOSTICS) assert.ok(!modernList.some((t: { name: string }) => t.name === name), name);
  const unknown = await call(plainBase, 3, 'test_missing_capability');
  assert.equal(unknown.status, 200);
  assert.equal(unknown.messages[0]!.error.code, -32602, 'an unknown tool, not a capability refusal');
  const info = await (await fetch(`${plainBase}/api/mcp`)).json();
  assert.ok(!info.tools.some((t: string) => DIAGNOSTICS.includes(t)), 'nor in the GET info object');
});

test('with MCP_CONFORMANCE_TOOLS=1 the diagnostic tools follow the catalog in the 2026-07-28 list only', async () => {
  const modernList = (await modern(base, 4, 'tools/list', {})).messages[0]!.result.tools;
  const legacyList = (await legacy(base, 5, 'tools/list')).messages[0]!.result.tools;
  assert.deepEqual(
    modernList.map((t: { name: string }) => t.name),
    [...legacyList.map((t: { name: string }) => t.name), ...DIAGNOSTICS],
  );
  for (const tool of modernList.slice(-3)) {
    assert.equal(tool.inputSchema.type, 'object');
    assert.equal(tool.outputSchema, undefined, `${tool.name}: no structuredContent, so no output schema`);
    assert.match(tool.description, /MCP_CONFORMANCE_TOOLS=1 only/);
  }
  const legacyCall = await legacy(base, 6, 'tools/call', { name: 'test_logging_tool', arguments: {} });
  assert.equal(legacyCall.messages[0]!.error.code, -32602, 'a legacy client never reaches them');
  // The toolset endpoints serve no diagnostic tool either.
  const registry = await post(`${base}/api/mcp/registry`, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' });
  assert.ok(!registry.messages[0]!.result.tools.some((t: { name: string }) => DIAGNOSTICS.includes(t.name)));
});

test('a tool needing a capability the request did not declare is -32021 on HTTP 400, naming what is missing', async () => {
  const refused = await call(base, 8, 'test_missing_capability');
  assert.equal(refused.status, 400);
  assert.match(refused.contentType, /^application\/json/);
  assert.equal(refused.messages[0]!.id, 8, 'the error echoes the request id');
  assert.equal(refused.messages[0]!.error.code, -32021);
  assert.deepEqual(refused.messages[0]!.error.data, { requiredCapabilities: { sampling: {} } });
  // Declared: the tool asks for its sample inside the result, and the retry with the answer completes.
  const asked = await call(base, 9, 'test_missing_capability', { capabilities: { sampling: {} } });
  assert.equal(asked.status, 200);
  const result = asked.messages[0]!.result;
  assert.equal(result.resultType, 'input_required');
  assert.equal(result.inputRequests.sample.method, 'sampling/createMessage');
  const answer = { role: 'assistant', content: { type: 'text', text: 'OK' }, model: 'test-model', stopReason: 'endTurn' };
  const done = await call(base, 10, 'test_missing_capability', { capabilities: { sampling: {} } }, { inputResponses: { sample: answer } });
  assert.equal(done.messages[0]!.result.resultType, 'complete');
  assert.match(done.messages[0]!.result.content[0].text, /answered the sampling request/);
});

test('the same rule holds for a catalog operation that declares clientCapabilities, in both eras', async () => {
  const refused = await call(base, 11, 'test_needs_roots', { capabilities: { sampling: {} } });
  assert.equal(refused.status, 400);
  assert.equal(refused.messages[0]!.error.code, -32021);
  assert.deepEqual(refused.messages[0]!.error.data.requiredCapabilities, { roots: {} });
  const ran = await call(base, 12, 'test_needs_roots', { capabilities: { roots: { listChanged: true } } });
  assert.equal(ran.status, 200);
  assert.equal(ran.messages[0]!.result.structuredContent.ok, true);
  // A legacy request declares nothing this stateless server keeps: refused, on HTTP 200 like every legacy error.
  const old = await legacy(base, 13, 'tools/call', { name: 'test_needs_roots', arguments: {} });
  assert.equal(old.status, 200);
  assert.equal(old.messages[0]!.error.code, -32021);
  assert.deepEqual(old.messages[0]!.error.data.requiredCapabilities, { roots: {} });
});

test('input asked of the client travels inside the result, only of a kind the request declared', async () => {
  // A bare elicitation declaration covers the form mode.
  const asked = await call(base, 14, 'test_streaming_elicitation', { capabilities: { elicitation: {} } });
  assert.equal(asked.status, 200);
  assert.equal(asked.messages.length, 1, 'one message: the result');
  assert.equal(asked.messages[0]!.method, undefined, 'never a request of the server');
  assert.equal(asked.messages[0]!.result.resultType, 'input_required');
  assert.equal(asked.messages[0]!.result.inputRequests.confirm.method, 'elicitation/create');
  assert.equal(asked.messages[0]!.result.inputRequests.confirm.params.mode, 'form');
  const urlOnly = await call(base, 15, 'test_streaming_elicitation', { capabilities: { elicitation: { url: {} } } });
  assert.equal(urlOnly.status, 400);
  assert.deepEqual(urlOnly.messages[0]!.error.data.requiredCapabilities, { elicitation: { form: {} } });
  const done = await call(base, 16, 'test_streaming_elicitation', { capabilities: { elicitation: { form: {} } } }, { inputResponses: { confirm: { action: 'accept', content: { ok: true } } } });
  assert.equal(done.messages[0]!.result.resultType, 'complete');
  assert.match(done.messages[0]!.result.content[0].text, /accept/);
});

test('log messages go out only at or above the requested level, on the request\'s own stream, and none without a level', async () => {
  const none = await call(base, 17, 'test_logging_tool');
  assert.match(none.contentType, /^application\/json/, 'no level asked: a plain JSON answer');
  assert.deepEqual(
    none.messages.map((m) => m.id),
    [17],
  );
  const levelsAt = async (id: number, logLevel: string) => {
    const answer = await call(base, id, 'test_logging_tool', { logLevel });
    assert.equal(answer.status, 200);
    const last = answer.messages.at(-1)!;
    assert.equal(last.id, id, 'the answer ends the stream');
    assert.equal(last.result.resultType, 'complete');
    const logs = answer.messages.slice(0, -1);
    for (const m of logs) assert.equal(m.method, 'notifications/message');
    return logs.map((m) => m.params.level);
  };
  assert.deepEqual(await levelsAt(18, 'debug'), ['debug', 'info', 'warning']);
  assert.deepEqual(await levelsAt(19, 'info'), ['info', 'warning']);
  assert.deepEqual(await levelsAt(20, 'warning'), ['warning']);
  const streamed = await call(base, 21, 'test_logging_tool', { logLevel: 'info' });
  assert.match(streamed.contentType, /^text\/event-stream/);
  assert.deepEqual(streamed.messages[0]!.params, { level: 'info', logger: 'test_logging_tool', data: { message: 'test_logging_tool: one message at info' } });
  // A client that takes JSON only cannot be sent notifications: the answer alone.
  const jsonOnly = await call(base, 22, 'test_logging_tool', { logLevel: 'debug' }, {}, 'application/json');
  assert.match(jsonOnly.contentType, /^application\/json/);
  assert.equal(jsonOnly.messages[0]!.result.resultType, 'complete');
  // An unknown level is a broken envelope.
  const bad = await call(base, 23, 'test_logging_tool', { logLevel: 'loud' });
  assert.equal(bad.status, 400);
  assert.equal(bad.messages[0]!.error.code, -32602);
  assert.equal(bad.messages[0]!.error.data.envelope.key, 'io.modelcontextprotocol/logLevel');
});

test('a catalog operation logs through the same door: filtered by level, and its endpoint declares logging', async () => {
  const answer = await call(plainBase, 24, 'test_logs_steps', { logLevel: 'notice' });
  assert.deepEqual(
    answer.messages.slice(0, -1).map((m) => [m.method, m.params.level, m.params.data.step]),
    [
      ['notifications/message', 'notice', 'notice'],
      ['notifications/message', 'error', 'error'],
    ],
  );
  assert.equal(answer.messages.at(-1)!.result.structuredContent.ok, true);
  const quiet = await call(plainBase, 25, 'test_logs_steps');
  assert.equal(quiet.messages.length, 1);
  const discover = await modern(plainBase, 26, 'server/discover', {});
  assert.deepEqual(discover.messages[0]!.result.capabilities.logging, {});
  // The legacy handshake keeps its capabilities: logging/setLevel is not served there.
  const init = await legacy(plainBase, 27, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
  assert.equal(init.messages[0]!.result.capabilities.logging, undefined);
});

test('the official SDK client (2025 era) sees no diagnostic tool even when they are served', async () => {
  const client = new Client({ name: 'rollcall-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  try {
    const { tools } = await client.listTools();
    for (const name of DIAGNOSTICS) assert.ok(!tools.some((t) => t.name === name), name);
    await assert.rejects(client.callTool({ name: 'test_missing_capability', arguments: {} }), /Unknown tool/);
  } finally {
    await client.close();
  }
});
