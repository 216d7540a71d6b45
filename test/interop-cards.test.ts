// The cards outside clients parse strictly, checked on what the server really answers:
// - the MCP server card in the server-card draft's shape (SEP-2127) at /.well-known/mcp/server-card
//   and one per toolset: valid against the draft's facts, a reverse-DNS name from PUBLIC_BASE_URL,
//   and every remote it lists initializes with the official MCP SDK client and lists the tools the
//   card lists;
// - the A2A agent card: with A2A-Version 1.0 only v1.0 fields (a strict v1 parser reads it), without
//   the header the v0.3 card, and the @a2a-js/sdk client works on both versions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { freePort } from './peers/mcp-servers.ts';
import { a2aV03RequiredFields, a2aV1AgentCardFacts, DRAFT_SCHEMA_URL, draftServerCardFacts } from './fixtures/interop-card-facts.ts';
import { TOOLSET_NAMES } from '../src/http/mcp-toolsets.ts';

let app: TestApp;
let base: string;

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validDraftCard = ajv.compile<any>(draftServerCardFacts);
const validV1Card = ajv.compile<any>(a2aV1AgentCardFacts);

before(async () => {
  // The cards name their remotes by PUBLIC_BASE_URL, so the app listens where that says.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await startApp({ env: { PUBLIC_BASE_URL: base, SEARCH_POLL_MS: '0' } });
  await app.http.listen({ port, host: '127.0.0.1' });
});
after(() => app.close());

const DRAFT_PATHS = ['/.well-known/mcp/server-card', ...TOOLSET_NAMES.map((t) => `/.well-known/mcp/server-card/${t}`)];

test(`the draft server cards are valid to the draft, and every remote they list initializes with the MCP SDK client and lists the card's tools (${engine})`, async () => {
  for (const path of DRAFT_PATHS) {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /\bGET\b/, path);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /\bContent-Type\b/, path);
    const card = await res.json();
    assert.ok(validDraftCard(card), `${path}: ${JSON.stringify(validDraftCard.errors)}`);
    assert.equal(card.$schema, DRAFT_SCHEMA_URL);
    assert.ok(card.remotes.length >= 1, path);
    for (const remote of card.remotes) {
      assert.equal(remote.type, 'streamable-http', path);
      assert.notEqual(new URL(remote.url).pathname, '/api/a2a', `${path}: only MCP endpoints`);
      const client = new Client({ name: 'draft-card-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(remote.url));
      await client.connect(transport);
      try {
        assert.ok(remote.supportedProtocolVersions.includes(transport.protocolVersion), `${remote.url}: the version initialize agreed (${transport.protocolVersion}) is one the card lists`);
        assert.deepEqual(client.getServerCapabilities(), card.capabilities, `${remote.url}: the capabilities initialize answers`);
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), card.tools.map((t: { name: string }) => t.name), `${remote.url}: the card lists the tools the remote serves`);
        assert.deepEqual(tools.find((t) => t.name === 'find_tools')?.inputSchema, card.tools.find((t: { name: string }) => t.name === 'find_tools').inputSchema);
      } finally {
        await client.close();
      }
    }
  }
  const whole = await (await fetch(`${base}/.well-known/mcp/server-card`)).json();
  assert.deepEqual(whole.remotes.map((r: { url: string }) => r.url), [`${base}/api/mcp`, `${base}/mcp`, `${base}/api/protocol`]);
  assert.equal(whole.name, '127.0.0.1/rollcall', 'an IP address has no reverse-DNS form and stays as it is');
  const registry = await (await fetch(`${base}/.well-known/mcp/server-card/registry`)).json();
  assert.deepEqual(registry.remotes.map((r: { url: string }) => r.url), [`${base}/api/mcp/registry`]);
});

test(`the draft card's name is PUBLIC_BASE_URL's host in reverse-DNS form; its preflight allows GET (${engine})`, async () => {
  const named = await startApp({ joinStore: app.store, env: { PUBLIC_BASE_URL: 'https://registry.rollcall.example:8443' } });
  try {
    const card = JSON.parse((await named.http.inject({ method: 'GET', url: '/.well-known/mcp/server-card' })).body);
    assert.equal(card.name, 'example.rollcall.registry/rollcall');
    assert.equal(card.remotes[0].url, 'https://registry.rollcall.example:8443/api/mcp');
    const collab = JSON.parse((await named.http.inject({ method: 'GET', url: '/.well-known/mcp/server-card/collab' })).body);
    assert.equal(collab.name, 'example.rollcall.registry/rollcall-collab');
    assert.ok(validDraftCard(collab), JSON.stringify(validDraftCard.errors));
  } finally {
    await named.close();
  }
  const pre = await fetch(`${base}/.well-known/mcp/server-card`, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' } });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-methods') ?? '', /\bGET\b/);
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /\bContent-Type\b/);
});

test(`the agent card: v1.0 fields only for A2A-Version 1.0, the v0.3 card without the header, each with its own ETag (${engine})`, async () => {
  const v1Res = await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } });
  const v1 = await v1Res.json();
  assert.ok(validV1Card(v1), `a strict v1.0 parser refuses: ${JSON.stringify(validV1Card.errors)}`);
  assert.deepEqual(
    v1.supportedInterfaces.map((i: { protocolVersion: string; url: string }) => [i.protocolVersion, i.url]),
    [
      ['1.0', `${base}/api/a2a`],
      ['0.3', `${base}/api/a2a`],
    ],
  );
  const compatRes = await fetch(`${base}/.well-known/agent-card.json`);
  const compat = await compatRes.json();
  for (const field of a2aV03RequiredFields) assert.ok(field in compat, `the v0.3 card has ${field}`);
  assert.equal(compat.protocolVersion, '0.3.0');
  assert.equal(compat.url, `${base}/api/a2a`);
  assert.equal(validV1Card(compat), false, 'the v0.3 card carries fields v1.0 does not define');
  for (const res of [v1Res, compatRes]) assert.match(res.headers.get('vary') ?? '', /a2a-version/i, 'caches keep the two forms apart');
  assert.notEqual(v1Res.headers.get('etag'), compatRes.headers.get('etag'));
  const again = await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0', 'if-none-match': v1Res.headers.get('etag')! } });
  assert.equal(again.status, 304);
  assert.equal((await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'if-none-match': v1Res.headers.get('etag')! } })).status, 200, "the v1 card's ETag is not the v0.3 card's");
  // 1, 1.0 and 1.0.x ask for v1.0, like the A2A door; an unknown version gets the default card.
  for (const header of ['1', '1.0.1']) assert.deepEqual(await (await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': header } })).json(), v1, header);
  assert.deepEqual(await (await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '0.3' } })).json(), compat);
  assert.deepEqual(await (await fetch(`${base}/.well-known/agent.json`, { headers: { 'A2A-Version': '1.0' } })).json(), v1);
});

test(`the @a2a-js/sdk client talks to Rollcall on v1.0 and on v0.3 (${engine})`, async () => {
  const ask = async (client: Awaited<ReturnType<ClientFactory['createFromUrl']>>) => {
    const request = SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'help' }] } });
    const task = (await client.sendMessage(request)) as Task;
    assert.ok('status' in task, 'the answer is a Task');
    assert.equal((await client.getTask({ id: task.id, historyLength: 0 } as never)).id, task.id);
  };
  // v1.0: the SDK's resolver sends A2A-Version 1.0 and gets the v1.0 card.
  const v1 = await new ClientFactory().createFromUrl(base);
  assert.equal(v1.protocolVersion, '1.0');
  await ask(v1);
  // v0.3: a v0.3 client reads the card without the header and knows nothing of supportedInterfaces.
  const { supportedInterfaces: _unknownToV03, ...legacyCard } = await (await fetch(`${base}/.well-known/agent-card.json`)).json();
  const legacy = await new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    }),
  ).createFromAgentCard(parseLegacyAgentCard(legacyCard));
  assert.equal(legacy.protocolVersion, '0.3');
  await ask(legacy);
});
