// One server, one listing: spellings of one endpoint answer with the first listing, a probe
// that reaches another listing's endpoint marks its listing a duplicate, queries stay distinct,
// and a name never silently answers with another publisher's listing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

let app: TestApp;
let mcp: Peer;
let agent: AgentPeer;
let redirector: http.Server;
let redirectBase: string;

before(async () => {
  [mcp, agent] = await Promise.all([startModernMcp(), startA2aAgent()]);
  // Another address for the same MCP server: every request is sent on to it with a 308.
  redirector = http.createServer((_req, res) => {
    res.writeHead(308, { location: mcp.url });
    res.end();
  });
  await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
  redirectBase = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0' } });
});
after(async () => {
  await app.close();
  await Promise.all([mcp.close(), agent.close(), new Promise((r) => redirector.close(r))]);
});

const publish = (url: string) => postJson(app, '/api/publish', { url });
const live = async (id: string) => waitForLane(app, id, ['active', 'failed']);

test('an MCP server is one listing whatever the trailing slash; a query selects another listing', async () => {
  const first = await publish(mcp.url);
  assert.equal(first.body.outcome, 'listed');
  assert.equal((await live(first.body.id)).lane, 'active');
  for (const spelling of [`${mcp.url}/`, `${mcp.url}//`, mcp.url.replace('http://', 'HTTP://')]) {
    const again = await publish(spelling);
    assert.equal(again.body.outcome, 'queued', spelling);
    assert.equal(again.body.id, first.body.id, spelling);
  }
  const configured = await publish(`${mcp.url}?profile=weather`);
  assert.equal(configured.body.outcome, 'listed', 'a query may select another configuration: a listing of its own');
  assert.notEqual(configured.body.id, first.body.id);
  assert.equal((await live(configured.body.id)).lane, 'active');
});

test('a URL that redirects to a listed endpoint becomes a duplicate of it, and then answers with it', async () => {
  const original = (await getJson(app, `/api/listings/status?id=${(await publish(mcp.url)).body.id}`)).body;
  const viaRedirect = await publish(`${redirectBase}/old-path`);
  assert.equal(viaRedirect.body.outcome, 'listed', 'the redirect is only known once probed');
  const s = await live(viaRedirect.body.id);
  assert.equal(s.lane, 'failed');
  assert.equal(s.lane_reason, 'duplicate_of');
  assert.equal(s.duplicate_of, original.id);
  assert.equal(s.next, `check_status ${JSON.stringify({ id: original.id })}`);
  const check = s.checks_clean;
  assert.equal(check, false);
  // Its spelling now reaches the original: publishing it again answers with the original.
  const again = await publish(`${redirectBase}/old-path`);
  assert.equal(again.body.outcome, 'queued');
  assert.equal(again.body.id, original.id);
  const active = (await getJson(app, '/api/listings/active')).body;
  assert.equal(active.mcps.filter((m: { id: string }) => m.id === original.id || m.id === viaRedirect.body.id).length, 1, 'counted once');
});

test('an agent is one listing whatever URL reached its card: card URL, origin, well-known path', async () => {
  const byCard = await publish(agent.cardUrl);
  assert.equal((await live(byCard.body.id)).lane, 'active');
  // The card URL with a trailing slash is the same spelling: answered at once.
  const slash = await publish(`${agent.cardUrl}/`);
  assert.equal(slash.body.id, byCard.body.id);
  // The origin is only known to lead there once probed: it becomes a duplicate, then answers with the card's listing.
  const byOrigin = await publish(`${agent.baseUrl}/`);
  assert.equal(byOrigin.body.outcome, 'listed');
  const dup = await live(byOrigin.body.id);
  assert.equal(dup.lane_reason, 'duplicate_of');
  assert.equal(dup.duplicate_of, byCard.body.id);
  assert.equal((await publish(`${agent.baseUrl}/`)).body.id, byCard.body.id);
  assert.equal((await publish(agent.baseUrl)).body.id, byCard.body.id);
  // Another agent on the same host (its own card and endpoint) is a listing of its own.
  const other = await publish(`${agent.baseUrl}/team/b/agent-card.json`);
  assert.equal(other.body.outcome, 'listed');
  assert.equal((await live(other.body.id)).lane, 'active');
});

test('status by name answers only an unambiguous name; several matches are a 409 with the candidates', async () => {
  // Every agent of the test peer is called "Polyglot Translator": the listings above share the name.
  const ambiguous = await getJson(app, `/api/listings/status?name=${encodeURIComponent('polyglot translator')}`);
  assert.equal(ambiguous.status, 409);
  assert.equal(ambiguous.body.error.code, 'ambiguous_name');
  assert.equal(ambiguous.body.error.field, 'name');
  const candidates = ambiguous.body.error.details.candidates as { id: string; url: string; lane: string }[];
  assert.ok(candidates.length >= 2);
  for (const c of candidates) assert.deepEqual(Object.keys(c).sort(), ['id', 'lane', 'url']);
  const unique = await getJson(app, `/api/listings/status?name=${encodeURIComponent('weather-now')}`);
  assert.equal(unique.status, 409, 'two weather-now listings: the plain URL and its ?profile configuration');
  const none = await getJson(app, '/api/listings/status?name=nobody-has-this-name');
  assert.equal(none.status, 404);
  const { body } = await postJson(app, '/api/publish', { url: 'http://127.0.0.1:1/solo/mcp', name: 'Solo Unreachable' });
  await live(body.id);
  const solo = await getJson(app, `/api/listings/status?name=${encodeURIComponent('SOLO unreachable')}`);
  assert.equal(solo.status, 200);
  assert.equal(solo.body.id, body.id);
  // Over MCP the same rule: an isError result with the same error.
  const rpc = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    headers: { 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_status', arguments: { name: 'Polyglot Translator' } } },
  });
  const result = rpc.json().result;
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.error.code, 'ambiguous_name');
});

test('republishing a failed listing answers with the state to expect: queued, and a next that polls status', async () => {
  const { body } = await publish('http://127.0.0.1:1/down/mcp');
  assert.equal((await live(body.id)).lane, 'failed');
  const again = await publish('http://127.0.0.1:1/down/mcp');
  assert.equal(again.body.outcome, 'queued');
  assert.equal(again.body.reprobe.queued, true);
  assert.ok(['queued', 'probing'].includes(again.body.lane), again.body.lane);
  assert.equal(again.body.lane_reason, null);
  assert.equal(again.body.next, `check_status ${JSON.stringify({ id: body.id })}`);
  assert.equal((await live(body.id)).lane, 'failed', 'and the new probe decides');
});

test('concurrent publishes of two spellings of one URL converge on one listing', async () => {
  const base = `${mcp.url.replace('/mcp', '/race')}`;
  const results = await Promise.all([publish(base), publish(`${base}/`), publish(base), publish(`${base}/`)]);
  assert.equal(new Set(results.map((r) => r.body.id)).size, 1);
  assert.equal(results.filter((r) => r.body.outcome === 'listed').length, 1);
});
