// Toolsets: /api/mcp serves every tool; /api/mcp/<toolset> is a complete MCP server of its own
// for a group of them, so an agent's context holds only what it needs. Each is reached with the
// official SDK client; a tool of another toolset answers -32602 naming its endpoint; find_tools,
// served everywhere, says which tool and endpoint serve a need; and tools/list stays small.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, startApp, type TestApp } from './helpers/app.ts';
import { operations } from '../src/catalog.ts';
import { TOOLSETS, TOOLSET_NAMES, type ToolsetName } from '../src/http/mcp-toolsets.ts';

/** tools/list may not grow past these (bytes of its JSON): docs/performance.md "tools/list". */
const FULL_MAX = 100_000;
const REGISTRY_MAX = 15_000;

let app: TestApp;
let base: string;
before(async () => {
  app = await startApp();
  base = await app.listen();
});
after(() => app.close());

async function connect(path: string): Promise<Client> {
  const client = new Client({ name: 'toolsets-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`)));
  return client;
}

const rpc = async (path: string, body: unknown) => {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) };
};

test('every tool is in exactly one toolset, and every toolset names only tools that exist', () => {
  const tools = operations.filter((o) => o.tool !== false).flatMap((o) => [o.name, ...(o.aliases ?? [])]);
  const placed = TOOLSET_NAMES.flatMap((t) => [...TOOLSETS[t]]);
  assert.deepEqual([...placed].sort(), [...tools].sort(), 'the toolsets hold the catalog exactly');
  assert.equal(new Set(placed).size, placed.length, 'no tool in two toolsets');
});

test(`the SDK client reaches every toolset endpoint: its tools and find_tools, and a call there (${engine})`, async () => {
  const calls: Record<ToolsetName, [string, Record<string, unknown>]> = {
    registry: ['capability_hash', { capabilities: ['echo', 'add'] }],
    funnel: ['get_founding_deal', {}],
    value: ['list_event_pricing', { agent_name: 'toolsets-test' }],
    network: ['attractor_targets', {}],
    collab: ['list_collab_market', {}],
    economics: ['network_value', {}],
    identity: ['verify_attestation', { token: 'not.a.jws' }],
    owner: ['update_listing', { listing_id: 'lst_nope', description: 'A listing that does not exist.' }],
  };
  for (const toolset of TOOLSET_NAMES) {
    const client = await connect(`/api/mcp/${toolset}`);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOLSETS[toolset], 'find_tools'].sort(), toolset);
      const [name, args] = calls[toolset];
      const result = await client.callTool({ name, arguments: args });
      assert.ok(result.structuredContent, `${toolset}: ${name} answered`);
      assert.equal(typeof (result.structuredContent as { ok: unknown }).ok, 'boolean');
    } finally {
      await client.close();
    }
  }
});

test(`a tool of another toolset answers -32602 naming its endpoint; /api/mcp serves it (${engine})`, async () => {
  const elsewhere = await rpc('/api/mcp/registry', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'improve_kernel', arguments: { agent_name: 'x', goals: 'answer support mail' } } });
  assert.equal(elsewhere.body.error.code, -32602);
  assert.deepEqual(elsewhere.body.error.data, { endpoint: `${app.config.publicBaseUrl}/api/mcp/value`, toolset: 'value' });
  const unknown = await rpc('/api/mcp/registry', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
  assert.equal(unknown.body.error.code, -32602);
  const full = await rpc('/api/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'capability_hash', arguments: { capabilities: ['a'] } } });
  assert.equal(full.body.result.isError, undefined);
});

test(`find_tools says which tool and endpoint serve a need, on every endpoint (${engine})`, async () => {
  const ask = async (path: string, need: string) => (await rpc(path, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_tools', arguments: { need } } })).body.result.structuredContent;
  const listing = await ask('/api/mcp/economics', 'list my MCP server in the registry');
  assert.equal(listing.tools[0].tool, 'list_yourself');
  assert.equal(listing.tools[0].endpoint, `${app.config.publicBaseUrl}/api/mcp/registry`);
  assert.equal(listing.toolsets.length, TOOLSET_NAMES.length);
  const kernel = await ask('/api/mcp', 'improve my agent kernel');
  assert.equal(kernel.tools[0].tool, 'improve_kernel');
  assert.equal(kernel.tools[0].endpoint, `${app.config.publicBaseUrl}/api/mcp/value`);
  const partner = await ask('/api/mcp/registry', 'find a partner that covers a capability I lack');
  assert.ok(partner.tools.slice(0, 3).some((t: { tool: string }) => t.tool === 'mesh_match'), JSON.stringify(partner.tools.map((t: { tool: string }) => t.tool)));
});

test(`find_tools ranks by what the caller wants to do, each tool with its score, best first (${engine})`, async () => {
  // "find an MCP server that sends email" once ranked list_yourself (the tool whose texts say "MCP
  // server" most) above the search tools, and said nothing of how well each tool fit.
  const client = await connect('/api/mcp/registry');
  try {
    const result = await client.callTool({ name: 'find_tools', arguments: { need: 'find an MCP server that sends email' } });
    const { tools } = result.structuredContent as { tools: { tool: string; score: number }[] };
    assert.ok(['ard_search', 'search_active'].includes(tools[0]!.tool), JSON.stringify(tools));
    for (const t of tools) assert.ok(typeof t.score === 'number' && t.score >= 0 && t.score <= 100, JSON.stringify(t));
    assert.equal(tools[0]!.score, 100);
    const scores = tools.map((t) => t.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a), 'scores descend');
  } finally {
    await client.close();
  }
});

test(`tools/list stays small: every tool at most ${FULL_MAX} bytes, the registry toolset at most ${REGISTRY_MAX} (${engine})`, async () => {
  const full = await rpc('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const registry = await rpc('/api/mcp/registry', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.ok(full.bytes <= FULL_MAX, `full tools/list is ${full.bytes} bytes`);
  assert.ok(registry.bytes <= REGISTRY_MAX, `registry tools/list is ${registry.bytes} bytes`);
  // The GET info of a toolset endpoint names it and points at the others.
  const info = await (await fetch(`${base}/api/mcp/registry`)).json();
  const pub = app.config.publicBaseUrl;
  assert.deepEqual([info.toolset, info.first_connection, info.every_tool], ['registry', `${pub}/api/mcp/registry`, `${pub}/api/mcp`]);
});
