// The cards outside clients parse strictly, checked on what the server really answers:
// - the MCP Server Card (SEP-2127) at every MCP endpoint's reserved `<endpoint>/server-card` and at
//   /.well-known/mcp/server-card[/<toolset>]: valid against the vendored schema
//   (fixtures/mcp-server-card/), in its own media type when asked, its version the serverInfo version
//   the official MCP SDK client sees at every remote it lists, and listed in the AI Catalog;
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
import { a2aV03RequiredFields, a2aV1AgentCardFacts } from './fixtures/interop-card-facts.ts';
import serverCardSchema from './fixtures/mcp-server-card/schema.json' with { type: 'json' };
import { TOOLSET_NAMES } from '../src/http/mcp-toolsets.ts';

let app: TestApp;
let base: string;

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
// The vendored schema has no root and no $id: it is added under the URL cards name in `$schema`,
// and a card is checked against its ServerCard definition.
const SERVER_CARD_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
ajv.addSchema({ ...serverCardSchema, $id: SERVER_CARD_SCHEMA_URL });
const validServerCard = ajv.compile<any>({ $ref: `${SERVER_CARD_SCHEMA_URL}#/$defs/ServerCard` });
const validV1Card = ajv.compile<any>(a2aV1AgentCardFacts);

before(async () => {
  // The cards name their remotes by PUBLIC_BASE_URL, so the app listens where that says.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await startApp({ env: { PUBLIC_BASE_URL: base, SEARCH_POLL_MS: '0' } });
  await app.http.listen({ port, host: '127.0.0.1' });
});
after(() => app.close());

/** Every MCP endpoint (the whole server's four, each toolset's) and the well-known place of its card. */
const CARDS: { endpoints: string[]; wellKnown: string }[] = [
  { endpoints: ['/api/mcp', '/mcp', '/api/protocol', '/api/a2a'], wellKnown: '/.well-known/mcp/server-card' },
  ...TOOLSET_NAMES.map((t) => ({ endpoints: [`/api/mcp/${t}`], wellKnown: `/.well-known/mcp/server-card/${t}` })),
];
const CARD_TYPE = 'application/mcp-server-card+json';
/** Fields the schema had before 8924e08 and no longer defines (its ServerCard is open, so ajv alone lets them through). */
const REMOVED = ['tools', 'resources', 'prompts', 'capabilities', 'requires'];

async function getCard(path: string, accept?: string) {
  const res = await fetch(`${base}${path}`, { headers: accept ? { accept } : {} });
  assert.equal(res.status, 200, path);
  return { res, card: await res.json() };
}

test(`every MCP endpoint's <endpoint>/server-card is a Server Card valid to the current schema, the same at /.well-known/mcp/server-card[/<toolset>] (${engine})`, async () => {
  const names = new Set<string>();
  for (const { endpoints, wellKnown } of CARDS) {
    const { card } = await getCard(`${endpoints[0]}/server-card`, CARD_TYPE);
    assert.ok(validServerCard(card), `${endpoints[0]}/server-card: ${JSON.stringify(validServerCard.errors)}`);
    assert.equal(card.$schema, SERVER_CARD_SCHEMA_URL);
    for (const field of REMOVED) assert.ok(!(field in card), `${endpoints[0]}/server-card: no ${field}`);
    for (const remote of card.remotes) assert.ok(!('authentication' in remote), `${remote.url}: no authentication`);
    // The card lists every endpoint it is served under, and only those.
    assert.deepEqual(card.remotes.map((r: { url: string }) => r.url), endpoints.map((e) => `${base}${e}`));
    for (const path of [...endpoints.map((e) => `${e}/server-card`), wellKnown]) assert.deepEqual((await getCard(path)).card, card, path);
    names.add(card.name);
  }
  assert.equal(names.size, CARDS.length, 'each card names its own server');
});

test(`the card answers in its own media type when Accept names it, JSON otherwise, each form with its own ETag (${engine})`, async () => {
  for (const { endpoints, wellKnown } of CARDS) {
    for (const path of [`${endpoints[0]}/server-card`, wellKnown]) {
      const typed = await getCard(path, CARD_TYPE);
      assert.equal(typed.res.headers.get('content-type'), CARD_TYPE, path);
      assert.match(typed.res.headers.get('vary') ?? '', /\baccept\b/i, `${path}: caches keep the two forms apart`);
      assert.equal((await getCard(path, `application/json;q=0.5, ${CARD_TYPE}`)).res.headers.get('content-type'), CARD_TYPE, path);
      for (const accept of [undefined, 'application/json', '*/*', `${CARD_TYPE};q=0, application/json`]) {
        const plain = await getCard(path, accept);
        assert.equal(plain.res.headers.get('content-type'), 'application/json; charset=utf-8', `${path} Accept: ${accept}`);
        assert.deepEqual(plain.card, typed.card, path);
        assert.notEqual(plain.res.headers.get('etag'), typed.res.headers.get('etag'), `${path}: one ETag per representation`);
      }
      const again = await fetch(`${base}${path}`, { headers: { accept: CARD_TYPE, 'if-none-match': typed.res.headers.get('etag')! } });
      assert.equal(again.status, 304, path);
    }
  }
});

test(`each card's version and title are what an MCP SDK client sees in serverInfo at every endpoint the card lists; the version initialize agrees is one it lists (${engine})`, async () => {
  for (const { endpoints } of CARDS) {
    const { card } = await getCard(`${endpoints[0]}/server-card`);
    for (const remote of card.remotes) {
      assert.equal(remote.type, 'streamable-http');
      const client = new Client({ name: 'server-card-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(remote.url));
      await client.connect(transport);
      try {
        const info = client.getServerVersion();
        assert.equal(card.version, info?.version, `${remote.url}: the card's version is serverInfo's`);
        assert.equal(card.title, info?.title, `${remote.url}: the card's title is serverInfo's`);
        assert.ok(remote.supportedProtocolVersions.includes(transport.protocolVersion), `${remote.url}: ${transport.protocolVersion} is listed`);
      } finally {
        await client.close();
      }
    }
  }
});

test(`the AI Catalog lists every Server Card at its reserved place, with the card's version (${engine})`, async () => {
  const catalog = await (await fetch(`${base}/.well-known/ai-catalog.json`)).json();
  const entries = catalog.entries.filter((e: { mediaType: string }) => e.mediaType === CARD_TYPE);
  assert.deepEqual(
    entries.map((e: { url: string }) => e.url),
    CARDS.map((c) => `${base}${c.endpoints[0]}/server-card`),
  );
  for (const entry of entries) {
    const { card } = await getCard(new URL(entry.url).pathname, CARD_TYPE);
    assert.ok(validServerCard(card), entry.url);
    assert.equal(entry.version, card.version, `${entry.url}: the entry's version is the card's`);
  }
});

test(`the card's name is PUBLIC_BASE_URL's host in reverse-DNS form; its preflight allows GET and Accept (${engine})`, async () => {
  const whole = (await getCard('/api/mcp/server-card')).card;
  assert.equal(whole.name, '127.0.0.1/rollcall', 'an IP address has no reverse-DNS form and stays as it is');
  const named = await startApp({ joinStore: app.store, env: { PUBLIC_BASE_URL: 'https://registry.rollcall.example:8443' } });
  try {
    const card = JSON.parse((await named.http.inject({ method: 'GET', url: '/api/mcp/server-card' })).body);
    assert.equal(card.name, 'example.rollcall.registry/rollcall');
    assert.equal(card.remotes[0].url, 'https://registry.rollcall.example:8443/api/mcp');
    const collab = JSON.parse((await named.http.inject({ method: 'GET', url: '/api/mcp/collab/server-card' })).body);
    assert.equal(collab.name, 'example.rollcall.registry/rollcall-collab');
    assert.ok(validServerCard(collab), JSON.stringify(validServerCard.errors));
  } finally {
    await named.close();
  }
  const pre = await fetch(`${base}/api/mcp/server-card`, { method: 'OPTIONS', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'accept' } });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-methods') ?? '', /\bGET\b/);
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /\bContent-Type\b/);
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /\bAccept\b/);
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
