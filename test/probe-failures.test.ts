// Every way a probe can fail ends in lane `failed` with the right reason, and nothing hangs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startFixtures, type Fixtures } from './peers/fixtures.ts';
import { startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { createProber } from '../src/probe/factory.ts';
import { allowPrivatePolicy } from '../src/platform/net/address-policy.ts';
import { loadConfig } from '../src/config.ts';

let app: TestApp;
let fx: Fixtures;
before(async () => {
  fx = await startFixtures();
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '800', PROBE_CONNECT_TIMEOUT_MS: '500', PROBE_RATE_PER_MIN: '0' } });
});
after(async () => {
  await app.close();
  await fx.close();
});

async function failsWith(url: string, reason: string, extra: (s: Record<string, any>) => void = () => {}) {
  const { body } = await postJson(app, '/api/publish', { url });
  const s = await waitForLane(app, body.id, ['active', 'failed']);
  assert.equal(s.lane, 'failed', `${url}: ${JSON.stringify(s.probe)}`);
  assert.equal(s.lane_reason, reason, url);
  assert.equal(s.probe.ok, false);
  assert.notEqual(s.probe.handshake, 'ok');
  assert.equal(s.checks_clean, false);
  assert.match(s.next, /^list_yourself/);
  extra(s);
  return s;
}

test('a dead port is unreachable', async () => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await failsWith(`http://127.0.0.1:${port}/mcp`, 'unreachable', (s) => assert.equal(s.probe.score, 0));
});

test('JSON that is not a card, and an HTML page, are not_a_card', async () => {
  await failsWith(`${fx.base}/plain.json`, 'not_a_card');
  await failsWith(`${fx.base}/page`, 'not_a_card');
});

test('a 5 MB body is too_large', async () => {
  await failsWith(`${fx.base}/huge`, 'too_large');
});

test('a slow endpoint is a timeout, within the configured time', async () => {
  const started = Date.now();
  await failsWith(`${fx.base}/slow`, 'timeout');
  assert.ok(Date.now() - started < 8000, 'nothing hangs');
});

test('a redirect loop is redirect_loop', async () => {
  await failsWith(`${fx.base}/loop-a`, 'redirect_loop');
});

test('an auth-protected server is auth_required, distinct from unreachable, and scored for its public metadata', async () => {
  await failsWith(`${fx.base}/protected/mcp`, 'auth_required', (s) => {
    assert.equal(s.probe.handshake, 'auth_required');
    assert.ok(s.probe.score > 0, 'reachability and resource metadata count');
  });
});

test('a card that does not validate is invalid_card; a card whose endpoint is mute is handshake_failed', async () => {
  await failsWith(`${fx.base}/broken-card.json`, 'invalid_card');
  await failsWith(`${fx.base}/mute-agent.json`, 'handshake_failed', (s) => assert.equal(s.kind, 'agent'));
  await failsWith(`${fx.base}/bad-endpoint-card.json`, 'handshake_failed', (s) => assert.match(s.probe.target, /bad-endpoint-card\.json$/));
});

test('probe_clean lists every check and the breakdown, and fails clearly on bad URLs', async () => {
  const call = async (args: Record<string, unknown>) =>
    (await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe_clean', arguments: args } } })).json().result;
  const marked = (await call({ url: `${fx.base}/marked-up-card.json` })).structuredContent;
  assert.equal(marked.ok, true);
  assert.equal(marked.live_ready, false);
  const ids = marked.checks.map((c: { id: string }) => c.id).sort();
  assert.deepEqual(ids, ['description_clean', 'name_clean', 'parsed', 'protocol_version', 'unique_url', 'url_allowed', 'within_limits']);
  assert.equal(marked.checks.find((c: { id: string }) => c.id === 'name_clean').pass, false, 'markup in a name is not clean');
  assert.deepEqual(Object.keys(marked.breakdown).sort(), ['completeness', 'definitions', 'handshake', 'https', 'latency', 'reachability']);
  const none = await call({});
  assert.equal(none.isError, true);
  assert.equal(none.structuredContent.error.field, 'url');
  const ftp = await call({ url: 'ftp://example.org/x' });
  assert.equal(ftp.structuredContent.error.code, 'invalid_url');
});

test('on-demand probes have their own per-caller budget', async () => {
  const limited = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '2' } });
  try {
    for (const path of ['/page', '/plain.json']) assert.equal((await getJson(limited, `/api/score?url=${encodeURIComponent(fx.base + path)}`)).status, 200);
    const third = await getJson(limited, `/api/score?url=${encodeURIComponent(`${fx.base}/huge`)}`);
    assert.equal(third.status, 429);
    assert.equal(third.body.error.code, 'rate_limited');
    const cached = await getJson(limited, `/api/score?url=${encodeURIComponent(`${fx.base}/page`)}`);
    assert.equal(cached.status, 200, 'a cached score costs no probe');
  } finally {
    await limited.close();
  }
});

test('https is a clean check: a working http server is not Live without PROBE_ALLOW_PRIVATE', async () => {
  const peer: Peer = await startModernMcp();
  // The production address rules are swapped for loopback here, but the prober is in production mode.
  const prober = createProber(loadConfig({}), { policy: allowPrivatePolicy });
  const strict = await startApp({ probing: true, prober });
  try {
    const { body } = await postJson(strict, '/api/publish', { url: peer.url });
    const s = await waitForLane(strict, body.id, ['active', 'failed']);
    assert.equal(s.lane, 'failed');
    assert.equal(s.lane_reason, 'checks_failed');
    assert.equal(s.probe.handshake, 'ok', 'the handshake itself worked');
    assert.equal(s.checks_clean, false);
  } finally {
    await strict.close();
    await peer.close();
  }
});

test('without PROBE_ALLOW_PRIVATE a loopback listing is refused before any byte reaches it', async () => {
  const strict = await startApp({ probing: true });
  try {
    const before = fx.connections();
    const res = await postJson(strict, '/api/publish', { url: `${fx.base}/plain.json` });
    assert.equal(res.status, 400, 'refused at publish, not listed to fail forever');
    assert.equal(res.body.error.code, 'url_not_allowed');
    assert.match(res.body.error.message, /port \d+ is not allowed.*PROBE_ALLOW_PRIVATE=1/);
    const named = await postJson(strict, '/api/publish', { url: 'https://localhost/mcp' });
    assert.equal(named.status, 400);
    assert.match(named.body.error.message, /localhost names this machine/);
    const literal = await postJson(strict, '/api/publish', { url: 'https://10.0.0.8/mcp' });
    assert.equal(literal.status, 400);
    assert.match(literal.body.error.message, /10\.0\.0\.8 is not a public address/);
    assert.equal((await strict.sql.selectFrom('listings').select('id').execute()).length, 0, 'nothing was listed');
    assert.equal(fx.connections(), before, 'the listener saw no connection');
  } finally {
    await strict.close();
  }
});
