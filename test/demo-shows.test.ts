// The free demo shows what the listing can do, through the real doors: a lone MCP server
// (server-everything, the only listing) demoed with the official MCP SDK client shows each of its
// probed tools with a ready call whose arguments are valid against the tool's own input schema
// (checked with ajv against the schemas the server serves), what the probe saw, and no partner
// section when there are no partners (no empty matches, no tools listed as gaps). An A2A agent's
// demo shows its skills, each with a ready message the agent answers when sent as given. The
// publish answer carries the demo request once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { repeated } from './helpers/repeated.ts';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { waitForLane } from './helpers/wait.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

let app: TestApp;
let t: Tools;
let everything: Peer;
let agents: AgentPeer[];
/** The tools server-everything serves, read from it directly with the SDK client. */
let served: { name: string; description?: string; inputSchema: Record<string, unknown>; annotations?: Record<string, unknown> }[];
let peerClient: Client;

before(async () => {
  [everything, ...agents] = await Promise.all([startEverything(), startA2aAgent({ shape: '1.0', host: '127.0.0.2' }), startA2aAgent({ shape: '0.3', host: '127.0.0.3' })]);
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0' } });
  t = await connect(app);
  await t.client.listTools(); // the SDK client then checks every result against the tool's outputSchema
  peerClient = new Client({ name: 'rollcall-demo-test', version: '1.0.0' });
  await peerClient.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
  served = (await peerClient.listTools()).tools as typeof served;
});
after(async () => {
  await peerClient.close();
  await t.close();
  await app.close();
  await Promise.all([everything.close(), ...agents.map((a) => a.close())]);
});

test(`a lone MCP server's demo shows each tool with a ready call valid against its schema, and no gaps (${engine})`, async () => {
  const published = await postJson(app, '/api/publish', { url: everything.url });
  assert.equal(published.status, 200, JSON.stringify(published.body));
  const id = published.body.listing_id as string;
  const status = await waitForLane(app, id, ['active', 'failed']);
  assert.equal(status.lane, 'active', `${status.lane_reason}: ${JSON.stringify(status.probe)}`);
  // The publish answer says nothing twice, and points at the demo without its curl (the active list's row carries that).
  assert.deepEqual(repeated(published.body), []);
  assert.equal(JSON.stringify(published.body).split('curl -sS').length - 1, 0, 'no curl in the publish answer');

  const demo = await t.ok('take_demo', { listing_id: id });
  assert.equal(demo.sku, 'mcp_mesh');
  const { artifacts } = demo;
  assert.equal(served.length, 13);
  assert.deepEqual(artifacts.tools.map((x: any) => x.call.name), served.map((x) => x.name), 'every probed tool, in the server\'s order');
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const tool of served) {
    const shown = artifacts.tools.find((x: any) => x.call.name === tool.name);
    // What the probe saw of the tool: its title, description and annotations, as the server states them.
    assert.equal(shown.title, (tool as { title?: string }).title, tool.name);
    assert.equal(shown.description, tool.description, tool.name);
    assert.deepEqual(shown.annotations, tool.annotations, tool.name);
    assert.equal(shown.needs, undefined, `${tool.name}: nothing left for the caller to fill`);
    const valid = ajv.validate(tool.inputSchema, shown.call.arguments);
    assert.ok(valid, `${tool.name} ${JSON.stringify(shown.call.arguments)}: ${ajv.errorsText()}`);
  }
  const args = (name: string) => artifacts.tools.find((x: any) => x.call.name === name).call.arguments;
  // Sensible values: an enum's first value, numbers, a string drawn from the property.
  assert.deepEqual(args('get-annotated-message'), { messageType: 'error' });
  assert.deepEqual(args('get-structured-content'), { location: 'New York' });
  assert.deepEqual(Object.keys(args('get-sum')).sort(), ['a', 'b']);
  assert.equal(typeof args('echo').message, 'string');
  assert.ok(args('echo').message.length > 0);
  assert.deepEqual(args('get-env'), {});
  // The ready calls work as given: sent to the server with the SDK client, as the answer says.
  assert.equal(artifacts.call_with.method, 'tools/call');
  assert.equal(artifacts.call_with.endpoint, everything.url);
  for (const name of ['echo', 'get-sum', 'get-structured-content', 'get-annotated-message']) {
    const answer = await peerClient.callTool(artifacts.tools.find((x: any) => x.call.name === name).call);
    assert.notEqual(answer.isError, true, `${name}: ${JSON.stringify(answer.content)}`);
  }
  // What the probe recorded about the server.
  assert.equal(artifacts.probe.endpoint, everything.url);
  assert.equal(typeof artifacts.probe.latency_ms, 'number');
  assert.equal(typeof artifacts.probe.probed_at, 'string');
  assert.equal(artifacts.probe.tools, 13);
  // Alone: no partner section at all, no tools listed as gaps, no "0 matches".
  assert.equal(artifacts.matches, undefined);
  assert.equal(artifacts.composition, undefined);
  assert.doesNotMatch(JSON.stringify(demo), /"gaps"|"count":0/);
  assert.deepEqual(repeated(demo), []);
  const calls = artifacts.tools.map((x: any) => JSON.stringify(x.call));
  assert.equal(new Set(calls).size, calls.length, 'no call twice');

  // A repeat shows the same tools again (without the token).
  const again = await t.ok('take_demo', { listing_id: id });
  assert.equal(again.first_demo, false);
  assert.deepEqual(again.artifacts.tools, artifacts.tools);
  assert.equal(again.artifacts.matches, undefined);
  assert.equal(again.artifacts.composition, undefined);
});

test(`an agent's demo shows its skills, each with a ready message the agent answers (${engine})`, async () => {
  for (const [agent, protocol] of [[agents[0]!, 'a2a/1.0'], [agents[1]!, 'a2a/0.3']] as const) {
    const published = await postJson(app, '/api/publish', { url: agent.cardUrl });
    const id = published.body.listing_id as string;
    const status = await waitForLane(app, id, ['active', 'failed']);
    assert.equal(status.lane, 'active', `${status.lane_reason}: ${JSON.stringify(status.probe)}`);
    const demo = await t.ok('take_demo', { listing_id: id });
    assert.equal(demo.sku, 'alive');
    const { skills, send_with: sendWith, probe } = demo.artifacts;
    assert.equal(probe.protocol, protocol);
    assert.deepEqual(skills.map((s: any) => [s.id, s.name, s.description, s.tags]), [['translate-text', 'Translate text', 'Translates short English text into French, German or Spanish.', ['translation', 'language']]]);
    const [skill] = skills;
    // The card's example is the message's text (shown once, there).
    assert.equal(skill.other_examples, undefined);
    assert.deepEqual(skill.message.parts.map((p: any) => p.text), ['translate "good morning" to French']);
    // The message is sent as given, in the JSON-RPC request the answer names once.
    const request = { jsonrpc: '2.0', id: 1, method: sendWith.method, params: { message: skill.message } };
    const reply = await fetch(sendWith.endpoint, { method: 'POST', headers: sendWith.headers, body: JSON.stringify(request) });
    const body = (await reply.json()) as any;
    assert.equal(body.error, undefined, JSON.stringify(body));
    assert.match(JSON.stringify(body.result), /translated: translate \\"good morning\\" to French/);
    // The kernel artifact is the product as stored (its goals and checks restate each other by design): the rest repeats nothing.
    const { artifact: _artifact, ...kernel } = demo.artifacts.kernel;
    assert.deepEqual(repeated({ ...demo, artifacts: { ...demo.artifacts, kernel } }), []);
  }
});
