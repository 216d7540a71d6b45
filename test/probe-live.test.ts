// End to end over real HTTP: real peers on loopback are published and probed until Live.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startEverything, startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';


/** The ready demo request the active list's row of a listing carries (SPEC 2.1). */
async function demoOf(id: string) {
  const active = (await getJson(app, '/api/listings/active')).body;
  return [...active.agents, ...active.mcps].find((r: { id: string }) => r.id === id).take_demo;
}
let app: TestApp;
let everything: Peer;
let agent: AgentPeer;
let agent03: AgentPeer;
let modern: Peer;
let modernOnly: Peer;
let sseOnly: Peer;

before(async () => {
  [everything, agent, agent03, modern, modernOnly, sseOnly] = await Promise.all([
    startEverything(),
    startA2aAgent({ shape: '1.0' }),
    startA2aAgent({ shape: '0.3' }),
    startModernMcp(),
    startModernMcp({ legacy: 'reject' }),
    startEverything('sse'),
  ]);
  // Probes run on the probe thread, as in `rollcall serve`.
  app = await startApp({ probing: true, probeThread: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0' } });
});
after(async () => {
  await app.close();
  await Promise.all([everything.close(), agent.close(), agent03.close(), modern.close(), modernOnly.close(), sseOnly.close()]);
});

test('server-everything speaking only the legacy HTTP+SSE transport (2024-11-05) goes Live with its tools', async () => {
  const published = await postJson(app, '/api/publish', { url: sseOnly.url });
  assert.equal(published.body.outcome, 'listed');
  const s = await waitForLane(app, published.body.id, ['active', 'failed']);
  assert.equal(s.lane, 'active', `${s.lane_reason}: ${JSON.stringify(s.probe)}`);
  assert.equal(s.kind, 'mcp');
  assert.equal(s.probe.handshake, 'ok');
  assert.equal(s.name, 'Everything Reference Server');
  const row = await app.sql.selectFrom('listings').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
  assert.ok(JSON.parse(row.capabilities!).names.includes('echo'), 'its tools were read over the stream');
});

test('server-everything (streamable HTTP, SSE answers, sessions) goes Live with its tools', async () => {
  const published = await postJson(app, '/api/publish', { url: everything.url, contact_email: 'ops@example.org' });
  assert.equal(published.body.outcome, 'listed');
  const s = await waitForLane(app, published.body.id, ['active', 'failed']);
  assert.equal(s.lane, 'active', `${s.lane_reason}: ${JSON.stringify(s.probe)}`);
  assert.equal(s.kind, 'mcp');
  assert.equal(s.probe.ok, true);
  assert.equal(s.probe.handshake, 'ok');
  assert.equal(s.checks_clean, true);
  assert.equal(typeof s.probe.score, 'number');
  assert.ok(s.probe.score >= 50, `score ${s.probe.score}`);
  assert.equal(s.probe.target, everything.url);
  assert.equal(typeof s.probe.probed_at, 'string');
  assert.equal(s.name, 'Everything Reference Server');
  assert.equal((await demoOf(s.id)).sku, 'mcp_mesh');
  assert.equal(s.remote_url, everything.url);
  assert.equal(s.activation.stage, 'live');
  assert.match(s.next, /^take_demo /);

  const row = await app.sql.selectFrom('listings').selectAll().where('id', '=', s.id).executeTakeFirstOrThrow();
  const caps = JSON.parse(row.capabilities!);
  assert.ok(caps.names.includes('echo'));
  const echo = caps.items.find((i: { name: string }) => i.name === 'echo');
  assert.equal(echo.params[0].name, 'message');
  assert.equal(echo.params[0].description, 'Message to echo');
  const hash = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'capability_hash', arguments: { listing_id: s.id } } } });
  const expected = createHash('sha256').update([...new Set(caps.names.map((n: string) => n.toLowerCase()))].sort().join('\n')).digest('hex');
  assert.equal(hash.json().result.structuredContent.capability_hash, expected);

  const active = (await getJson(app, '/api/listings/active')).body;
  assert.ok(active.mcps.some((m: { id: string }) => m.id === s.id));
  assert.equal(active.counts.mcp_active >= 1, true);
});

test('an A2A agent (v1.0 card, @a2a-js/sdk) goes Live as an agent with the alive demo', async () => {
  const published = await postJson(app, '/api/publish', { url: agent.cardUrl });
  assert.equal(published.body.kind, 'agent');
  const s = await waitForLane(app, published.body.id, ['active', 'failed']);
  assert.equal(s.lane, 'active', `${s.lane_reason}: ${JSON.stringify(s.probe)}`);
  assert.equal(s.kind, 'agent');
  assert.equal(s.probe.handshake, 'ok');
  assert.equal(s.probe.target, `${agent.baseUrl}/a2a/jsonrpc`);
  assert.equal(s.name, 'Polyglot Translator');
  assert.equal(s.description, 'A small agent that translates short texts between European languages.');
  assert.equal(s.website, 'https://example.org/');
  assert.equal((await demoOf(s.id)).sku, 'alive');
  assert.equal(s.agent_card_url, agent.cardUrl);
  const active = (await getJson(app, '/api/listings/active')).body;
  assert.ok(active.agents.some((a: { id: string }) => a.id === s.id));
});

test('a v0.3 agent published by its base URL is found through the well-known card path', async () => {
  const published = await postJson(app, '/api/publish', { url: `${agent03.baseUrl}/`, name: 'Fallback name' });
  assert.equal(published.body.kind, 'mcp', 'a plain URL is guessed as MCP until probed');
  const s = await waitForLane(app, published.body.id, ['active', 'failed']);
  assert.equal(s.lane, 'active', `${s.lane_reason}: ${JSON.stringify(s.probe)}`);
  assert.equal(s.kind, 'agent', 'the probe settles the kind');
  assert.equal((await demoOf(s.id)).sku, 'alive');
  assert.equal(s.name, 'Polyglot Translator', 'the card name wins over the publisher name');
});

test('a 2026-07-28 server (v2 SDK createMcpHandler) goes Live through server/discover', async () => {
  for (const peer of [modernOnly, modern]) {
    const published = await postJson(app, '/api/publish', { url: peer.url });
    const s = await waitForLane(app, published.body.id, ['active', 'failed']);
    assert.equal(s.lane, 'active', `${s.lane_reason}: ${JSON.stringify(s.probe)}`);
    assert.equal(s.probe.handshake, 'ok');
    const row = await app.sql
      .selectFrom('listings')
      .innerJoin('probe_state', 'probe_state.listing_id', 'listings.id')
      .select(['probe_state.protocol as probe_protocol', 'listings.capabilities', 'listings.name'])
      .where('listings.id', '=', s.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.probe_protocol, '2026-07-28');
    assert.deepEqual(JSON.parse(row.capabilities!).names.sort(), ['current_weather', 'forecast']);
    assert.equal(row.name, 'weather-now');
  }
});

test('republishing a Live listing re-probes it and keeps it Live', async () => {
  const changes = async (id: string) => (await app.sql.selectFrom('changes').select('seq').where('entity_id', '=', id).execute()).length;
  const existing = (await app.sql.selectFrom('listings').select('id').where('url', '=', modern.url).executeTakeFirstOrThrow()).id;
  const before = await changes(existing);
  const again = await postJson(app, '/api/publish', { url: modern.url });
  assert.equal(again.body.outcome, 'queued');
  assert.equal(again.body.id, existing);
  assert.equal(again.body.lane, 'active', 'the lane does not flap while the re-probe runs');
  const deadline = Date.now() + 10_000;
  while ((await changes(existing)) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  assert.ok((await changes(existing)) > before, 'the re-probe wrote its result');
  assert.equal((await waitForLane(app, existing, ['active'])).probe.handshake, 'ok');
});

test("a Live server's tools' context cost narrows search in its index, and stays through failed re-probes", async () => {
  const own = await startEverything();
  const published = await postJson(app, '/api/publish', { url: own.url });
  const id = published.body.id as string;
  const live = await waitForLane(app, id, ['active']);
  const cost = live.probe.context_cost as { count: number; bytes: number; tokens_estimate: number };
  assert.ok(cost.count >= 10 && cost.bytes > 1000, JSON.stringify(cost));
  // The index keeps the cost beside the listing's text: max_tool_tokens narrows while it ranks.
  await app.services.search.caughtUp();
  const within = (maxToolTokens: number) => app.services.search.engine.query(live.name, { health: { maxToolTokens } }, 50).some((h) => h.id === `listing:${id}`);
  assert.equal(within(cost.tokens_estimate), true);
  assert.equal(within(cost.tokens_estimate - 1), false);
  await own.close();
  await postJson(app, '/api/publish', { url: own.url });
  const deadline = Date.now() + 15_000;
  let status = (await getJson(app, `/api/listings/status?id=${id}`)).body;
  while (status.probe.ok && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await getJson(app, `/api/listings/status?id=${id}`)).body;
  }
  assert.equal(status.probe.ok, false, 'the re-probe failed');
  assert.equal(status.lane, 'active', 'one failed re-probe does not take it off the Live list');
  assert.deepEqual(status.probe.context_cost, cost);
});

test('check_liveness re-runs only the handshake and updates the probe time', async () => {
  const { body } = await postJson(app, '/api/publish', { url: agent.cardUrl });
  const call = (args: Record<string, unknown>) =>
    app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_liveness', arguments: args } } });
  const res = (await call({ listing_id: body.id })).json().result.structuredContent;
  assert.equal(res.alive, true);
  assert.equal(res.probe.handshake, 'ok');
  assert.equal(res.probe.age_hours, 0);
  const byBase = await postJson(app, '/api/publish', { url: `${agent03.baseUrl}/` });
  const base = (await call({ listing_id: byBase.body.id })).json().result.structuredContent;
  assert.equal(base.alive, true, 'an agent listed by its base URL is found through the well-known card');
  assert.equal(base.target, `${agent03.baseUrl}/a2a/jsonrpc`);
  const byUrl = (await call({ url: everything.url })).json().result.structuredContent;
  assert.equal(byUrl.alive, true);
  const dead = (await call({ url: 'http://127.0.0.1:1/mcp' })).json().result.structuredContent;
  assert.equal(dead.alive, false);
  assert.equal(dead.reason, 'unreachable');
  const none = (await call({})).json().result;
  assert.equal(none.isError, true);
});

test('GET /api/score scores any URL without listing it, caches briefly, and answers a known URL from its last check', async () => {
  const before = await app.sql.selectFrom('listings').select('id').execute();
  const unknown = `${modernOnly.url}?scored=1`;
  const first = await getJson(app, `/api/score?url=${encodeURIComponent(unknown)}`);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.cached, false);
  assert.equal(first.body.probe.handshake, 'ok');
  assert.equal(first.body.score, Object.values(first.body.breakdown as Record<string, number>).reduce((a, b) => a + b, 0));
  assert.ok(first.body.checks.every((c: { id: string; pass: boolean }) => typeof c.pass === 'boolean'));
  const second = await getJson(app, `/api/score?url=${encodeURIComponent(unknown)}`);
  assert.equal(second.body.cached, true);
  assert.equal(second.body.score, first.body.score);
  const after = await app.sql.selectFrom('listings').select('id').execute();
  assert.equal(after.length, before.length, 'scoring lists nothing');
  // A URL Rollcall knows (listed above) is answered from its last check, with its age: nothing is fetched.
  const known = await getJson(app, `/api/score?url=${encodeURIComponent(modern.url)}`);
  assert.equal(known.status, 200);
  const listed = await app.sql.selectFrom('listings').select('id').where('url', '=', modern.url).executeTakeFirstOrThrow();
  assert.deepEqual([known.body.from_last_check, known.body.listing_id, known.body.probe.handshake, typeof known.body.age_s], [true, listed.id, 'ok', 'number']);
  assert.equal(known.body.score, Object.values(known.body.breakdown as Record<string, number>).reduce((a, b) => a + b, 0));
  const missing = await getJson(app, '/api/score');
  assert.equal(missing.status, 400);
  assert.match(missing.body.error.message, /\/api\/score\/rubric/);
  const rubric = await getJson(app, '/api/score/rubric');
  assert.equal(rubric.body.max, 100);
  assert.equal(Object.values(rubric.body.parts as Record<string, { max: number }>).reduce((a, p) => a + p.max, 0), 100);
  const bad = await getJson(app, '/api/score?url=ftp%3A%2F%2Fx');
  assert.equal(bad.status, 400);
});

test('the probe <url> command prints the checks and the score', async () => {
  // Asynchronous on purpose: the peer serving the probe lives in this process's event loop.
  const run = (url: string) =>
    new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'probe', url], { env: { ...process.env, PROBE_ALLOW_PRIVATE: '1' } });
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.on('exit', (code) => resolve({ code, stdout }));
    });
  const out = await run(modern.url);
  assert.equal(out.code, 0, out.stdout);
  assert.match(out.stdout, /would go Live/);
  assert.match(out.stdout, /pass {2}protocol_version/);
  assert.match(out.stdout, /score {6}\d+\/100/);
  const dead = await run('http://127.0.0.1:1/');
  assert.equal(dead.code, 1);
  assert.match(dead.stdout, /not Live: unreachable/);
});

test('the probe <url> command names a refused address for what it is and exits as soon as it has printed', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'probe', 'http://127.0.0.1:9/mcp'], { env: { ...process.env, PROBE_ALLOW_PRIVATE: '0' } });
  let stdout = '';
  let printedAt = 0;
  child.stdout.on('data', (c) => {
    stdout += c;
    printedAt = Date.now();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  // Nothing is left running behind a refused request (it used to hold the process for its 10 s timer).
  assert.ok(Date.now() - printedAt < 3000, `exited ${Date.now() - printedAt} ms after printing`);
  assert.equal(code, 1);
  assert.match(stdout, /not Live: blocked_address - port 9 is not allowed/);
  assert.match(stdout, /hint .*PROBE_ALLOW_PRIVATE=1/);
  assert.match(stdout, /FAIL {2}url_allowed +refused by the address policy: port 9 is not allowed/);
  assert.doesNotMatch(stdout, /nothing to parse|invalid_url/);
});
