// The verified catalog: every remote of the catalog's latest versions is checked by the schedule (the
// periodic task makes the `catalog_checks` job due; the job checks one round) against real servers
// on loopback: server-everything in streamable HTTP and in legacy HTTP+SSE mode, a server that wants
// OAuth, one that is not MCP, one that answers 503 and a port nobody listens on. What was measured
// shows on /v0.1 under Rollcall's _meta key, valid against the vendored schemas; a remote shared by
// two entries is checked once; a changed remote is checked at once; the host budget's public share
// is never exceeded; two instances never check one remote at once; `rollcall check-catalog` checks
// now. Runs on RC_TEST_ENGINE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { startEverything, freePort, type Peer } from './peers/mcp-servers.ts';
import { OFFICIAL, SCHEMA } from './peers/upstream-registry.ts';
import { validators } from './fixtures/mcp-registry/schemas.ts';
import { loadCatalogItems } from '../src/catalog/load.ts';
import { checkRound } from '../src/probe/catalog-check.ts';
import { createChecker } from '../src/probe/factory.ts';
import { PROBE_JOB } from '../src/probe/scheduler.ts';
import { allCheckKeys, claimDueChecks, recordCheck } from '../src/catalog/checks-store.ts';
import { remoteKey } from '../src/catalog/store.ts';
import type { ManualClock } from '../src/platform/clock.ts';

const META = 'io.rollcall.local';
const root = path.resolve(import.meta.dirname, '..');

let app: TestApp;
let streamable: Peer;
let sse: Peer;
const servers: http.Server[] = [];
let deadPort: number;

/** A plain HTTP server on `host` answering every request with `answer`. */
async function responder(host: string, answer: (res: http.ServerResponse, port: number) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    answer(res, (server.address() as AddressInfo).port);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  servers.push(server);
  return `http://${host}:${(server.address() as AddressInfo).port}/mcp`;
}

const item = (name: string, server: Record<string, unknown>, version = '1.0.0') => ({
  server: { $schema: SCHEMA, name, description: `${name} test entry.`, version, ...server },
  _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2026-10-01T00:00:00.000Z', updatedAt: '2026-10-01T00:00:00.000Z' } },
});

const urls: Record<string, string> = {};

before(async () => {
  [streamable, sse] = await Promise.all([startEverything(), startEverything('sse')]);
  deadPort = await freePort();
  urls.live = streamable.url.replace('127.0.0.1', '127.0.0.2');
  urls.sse = sse.url.replace('127.0.0.1', '127.0.0.3');
  urls.oauth = await responder('127.0.0.4', (res, port) =>
    res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="http://127.0.0.4:${port}/.well-known/oauth-protected-resource"`, 'content-type': 'application/json' }).end('{"error":"unauthorized"}'),
  );
  urls.html = await responder('127.0.0.5', (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'));
  urls.down = await responder('127.0.0.6', (res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance'));
  urls.dead = `http://127.0.0.7:${deadPort}/mcp`;
  app = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1', CATALOG_CHECK_CONCURRENCY: '4', PROBE_TIMEOUT_MS: '4000', PROBE_CONNECT_TIMEOUT_MS: '1000' } });
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, [
    item('io.example/live', { remotes: [{ type: 'streamable-http', url: urls.live }] }),
    item('io.example/live-mirror', { remotes: [{ type: 'streamable-http', url: urls.live }] }),
    item('io.example/legacy-sse', { remotes: [{ type: 'sse', url: urls.sse }] }),
    item('io.example/oauth', { remotes: [{ type: 'streamable-http', url: urls.oauth }] }),
    item('io.example/html', { remotes: [{ type: 'streamable-http', url: urls.html }] }),
    item('io.example/down', { remotes: [{ type: 'streamable-http', url: urls.down }] }),
    item('io.example/dead', { remotes: [{ type: 'streamable-http', url: urls.dead }] }),
    item('io.example/stdio', { packages: [{ registryType: 'npm', identifier: 'example-stdio', version: '1.0.0', transport: { type: 'stdio' } }] }),
    item('io.example/template', { remotes: [{ type: 'streamable-http', url: 'https://{tenant}.example.com/mcp' }] }),
    item('io.example/keyed', { remotes: [{ type: 'streamable-http', url: 'https://keyed.example.com/mcp', headers: [{ name: 'X-Api-Key', isRequired: true }] }] }),
  ]);
});
after(async () => {
  await app.close();
  await Promise.all([streamable.close(), sse.close(), ...servers.map((s) => new Promise((r) => s.close(r)))]);
});

/** The periodic task makes the job due; the job checks a round (the clock starts on a period boundary). */
async function runSchedule() {
  await app.jobs.tick();
  await app.jobs.idle();
  await app.jobs.tick();
  await app.jobs.idle();
}

async function latest(name: string) {
  const res = await app.http.inject({ method: 'GET', url: `/v0.1/servers/${encodeURIComponent(name)}/versions/latest` });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json() as any;
  const [valid, validServer] = [validators.one(body), validators.server(body.server)];
  assert.ok(valid, `${name}: ${JSON.stringify(validators.one.errors)}`);
  assert.ok(validServer, `${name}: ${JSON.stringify(validators.server.errors)}`);
  return body._meta[META];
}

test(`the schedule checks every remote: live with its tools and context cost, SSE, OAuth, not MCP, dead; the rest say why not (${engine})`, async () => {
  const before = await latest('io.example/live');
  assert.equal(before.status, 'unchecked');
  assert.equal(before.remotes[0].next_check_at, app.clock.now().toISOString(), 'a new remote is due at once');
  await runSchedule();

  const live = await latest('io.example/live');
  assert.equal(live.status, 'live');
  const remote = live.remotes[0];
  assert.equal(remote.url, urls.live);
  assert.equal(remote.transport, 'streamable-http');
  assert.match(remote.protocol_version, /^\d{4}-\d{2}-\d{2}$/);
  assert.equal(remote.server_info.name, 'mcp-servers/everything');
  assert.ok(remote.tools.count >= 10, `${remote.tools.count} tools`);
  assert.ok(remote.tools.bytes > 1000);
  assert.equal(remote.tools.tokens_estimate, Math.ceil(remote.tools.bytes / 4));
  assert.equal(remote.tools.truncated, false);
  assert.equal(typeof remote.latency_ms, 'number');
  assert.equal(remote.last_verified, app.clock.now().toISOString());
  assert.equal(remote.next_check_at, new Date(app.clock.now().getTime() + 24 * 3_600_000).toISOString(), 'a live remote: again in 24 h');

  const legacy = await latest('io.example/legacy-sse');
  assert.equal(legacy.status, 'live', JSON.stringify(legacy));
  assert.equal(legacy.remotes[0].transport, 'sse');
  assert.equal(legacy.remotes[0].protocol_version, '2024-11-05');
  assert.equal(legacy.remotes[0].tools.count, remote.tools.count, 'the same server over SSE lists the same tools');

  const oauth = await latest('io.example/oauth');
  assert.equal(oauth.status, 'auth_required');
  assert.match(oauth.remotes[0].auth_metadata_url, /\/\.well-known\/oauth-protected-resource$/);
  assert.equal((await latest('io.example/html')).status, 'not_mcp');
  for (const name of ['io.example/down', 'io.example/dead']) {
    const dead = await latest(name);
    assert.equal(dead.status, 'dead', name);
    assert.equal(dead.remotes[0].next_check_at, new Date(app.clock.now().getTime() + 3_600_000).toISOString(), `${name}: a failing remote again after 1 h`);
  }
  assert.deepEqual(await latest('io.example/stdio'), { status: 'not_remote', remotes: [] });
  const template = await latest('io.example/template');
  assert.deepEqual([template.status, template.remotes[0].not_checkable_reason], ['not_checkable', 'url_template']);
  const keyed = await latest('io.example/keyed');
  assert.deepEqual([keyed.status, keyed.remotes[0].not_checkable_reason], ['not_checkable', 'required_headers']);

  // One remote URL shared by two entries is one remote, checked once.
  assert.deepEqual((await latest('io.example/live-mirror')).remotes[0], remote);
  const history = await app.sql.selectFrom('catalog_check_history').selectAll().execute();
  assert.equal(history.length, 6, 'six checkable remotes, each checked once');
  const listed = await app.http.inject({ method: 'GET', url: '/v0.1/servers?limit=100' });
  assert.ok(validators.list(listed.json()), JSON.stringify(validators.list.errors));

  // Rollcall's own filters: live only, remote only, and the tool list's context cost.
  const names = async (query: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/v0.1/servers?limit=100&${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { servers: { server: { name: string } }[] }).servers.map((i) => i.server.name);
  };
  assert.deepEqual(await names('health=live'), ['io.example/legacy-sse', 'io.example/live', 'io.example/live-mirror']);
  assert.deepEqual(await names('remote=true'), ['io.example/dead', 'io.example/down', 'io.example/html', 'io.example/keyed', 'io.example/legacy-sse', 'io.example/live', 'io.example/live-mirror', 'io.example/oauth']);
  const costs = [remote.tools.tokens_estimate, legacy.remotes[0].tools.tokens_estimate];
  assert.deepEqual(await names(`max_tool_tokens=${Math.max(...costs)}`), ['io.example/legacy-sse', 'io.example/live', 'io.example/live-mirror']);
  assert.deepEqual(await names(`max_tool_tokens=${Math.min(...costs) - 1}`), [], 'a tool list over the limit, and unchecked servers, are left out');
  assert.equal((await app.http.inject({ method: 'GET', url: '/v0.1/servers?health=dead' })).statusCode, 400);
});

test(`search hits carry the measured health and context cost; live_only, remote_only and max_tool_tokens narrow them; a dead server gives way to a live one (${engine})`, async () => {
  const search = async (query: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/ard/search?q=${encodeURIComponent('example test entry')}&limit=20${query}` });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { hits: { server?: string; score: number; health?: { status: string; tools: { count: number; tokens_estimate: number } | null } }[] }).hits;
  };
  const all = await search('');
  const byName = new Map(all.map((h) => [h.server, h]));
  assert.equal(byName.get('io.example/live')?.health?.status, 'live');
  assert.ok((byName.get('io.example/live')?.health?.tools?.count ?? 0) >= 10);
  assert.equal(byName.get('io.example/oauth')?.health?.status, 'auth_required');
  assert.equal(byName.get('io.example/dead')?.health?.status, 'dead');
  assert.equal(byName.get('io.example/stdio')?.health?.status, 'not_remote');
  // Near-equal relevance (the same words): every live entry is ranked before every dead one.
  const at = (name: string) => all.findIndex((h) => h.server === name);
  for (const live of ['io.example/live', 'io.example/live-mirror', 'io.example/legacy-sse']) {
    for (const dead of ['io.example/dead', 'io.example/down']) assert.ok(at(live) < at(dead), `${live} before ${dead}`);
  }
  assert.deepEqual((await search('&live_only=true')).map((h) => h.server).sort(), ['io.example/legacy-sse', 'io.example/live', 'io.example/live-mirror']);
  assert.ok(!(await search('&remote_only=true')).some((h) => h.health?.status === 'not_remote'));
  const cost = byName.get('io.example/live')!.health!.tools!.tokens_estimate;
  assert.ok((await search(`&max_tool_tokens=${cost}`)).some((h) => h.server === 'io.example/live'));
  assert.deepEqual(await search(`&max_tool_tokens=${cost - 1000}`), []);
});

test(`a dead remote is checked again after 1 h, 6 h, 24 h, then weekly; a changed remote at once; history keeps what changed (${engine})`, async () => {
  const clock = app.clock as ManualClock;
  const due = async (name: string) => (await latest(name)).remotes[0].next_check_at;
  clock.advance(3_600_000);
  await runSchedule();
  const second = await due('io.example/dead');
  assert.equal(second, new Date(clock.now().getTime() + 6 * 3_600_000).toISOString());
  clock.advance(6 * 3_600_000);
  await runSchedule();
  assert.equal(await due('io.example/dead'), new Date(clock.now().getTime() + 24 * 3_600_000).toISOString());
  for (let day = 0; day < 7; day++) {
    clock.advance(24 * 3_600_000);
    await runSchedule();
  }
  assert.equal(await due('io.example/dead'), new Date(clock.now().getTime() + 7 * 24 * 3_600_000).toISOString(), 'failing for 7 days: weekly');

  // A new version moves the entry to a new remote: it is checked in the next round, not in a day.
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, [item('io.example/html', { remotes: [{ type: 'sse', url: urls.sse }] }, '1.1.0')]);
  const moved = await latest('io.example/html');
  assert.equal(moved.status, 'live', `the same remote as legacy-sse, its checks shared: ${JSON.stringify(moved)}`);
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, [item('io.example/oauth', { remotes: [{ type: 'streamable-http', url: `${urls.live}?tenant=new` }] }, '2.0.0')]);
  assert.equal((await latest('io.example/oauth')).status, 'unchecked');
  clock.advance(60_000); // the next round, a minute on (not the remote's day)
  await runSchedule();
  assert.equal((await latest('io.example/oauth')).status, 'live');

  // The remote html's entry dropped is no longer checked; the one it moved to is.
  const scheduled = await allCheckKeys(app.services.db.kysely);
  assert.ok(!scheduled.includes(remoteKey(urls.html!)!), 'a remote no latest version lists is left alone');
  assert.ok(scheduled.includes(remoteKey(urls.sse!)!));

  const kept = await app.sql.selectFrom('catalog_check_history').select(['url_key']).execute();
  const perRemote = new Map<string, number>();
  for (const k of kept) perRemote.set(k.url_key, (perRemote.get(k.url_key) ?? 0) + 1);
  assert.ok([...perRemote.values()].every((n) => n <= 30), 'at most 30 checks kept per remote');
});

test(`a remote's status change reaches the public feed once two checks agree, with its server's name and no URL (${engine})`, async () => {
  let down = false;
  const url = await responder('127.0.0.9', (res) => (down ? res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance') : res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>')));
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, [item('io.example/flaky', { remotes: [{ type: 'streamable-http', url }] })]);
  const checker = createChecker(app.config);
  const check = () => checkRound(app.services, checker, { holder: 'feed', concurrency: 1, keys: [remoteKey(url)!] });
  const catalogFeed = async () => {
    const res = await app.http.inject({ method: 'GET', url: '/api/feed?about=catalog' });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { items: { event: string; catalog: { name: string }; from: string; to: string }[] }).items.filter((i) => i.catalog.name === 'io.example/flaky');
  };
  try {
    await check();
    await check();
    assert.deepEqual(await catalogFeed(), [], 'a first status, agreed on, is not a change');
    down = true;
    await check();
    assert.equal((await latest('io.example/flaky')).status, 'dead');
    assert.deepEqual(await catalogFeed(), [], 'one failed check is not news');
    await check();
    const [event, ...more] = await catalogFeed();
    assert.deepEqual([event?.event, event?.from, event?.to, more.length], ['catalog.status_changed', 'not_mcp', 'dead', 0]);
    const all = await app.http.inject({ method: 'GET', url: '/api/feed?limit=100' });
    assert.ok(!all.body.includes(new URL(url).host), 'the remote URL is not in the feed');
    const listingsOnly = await app.http.inject({ method: 'GET', url: '/api/feed?about=listings&limit=100' });
    assert.ok(!(listingsOnly.json() as { items: { event: string }[] }).items.some((i) => i.event.startsWith('catalog.')));
    // The talk page shows the whole feed: the catalog's event reads as a sentence with its page linked.
    const talk = await app.http.inject({ method: 'GET', url: '/talk' });
    assert.equal(talk.statusCode, 200);
    assert.match(talk.body, /a remote of <a href="\/c\/io\.example\/flaky">io\.example\/flaky<\/a> is now dead <span class="muted small">\(was not MCP\)<\/span>/);
  } finally {
    await checker.close();
  }
});

test(`a live remote's server card at <remote>/server-card is read and shown beside the entry's fields (${engine})`, async () => {
  // server-everything behind a front that also serves a card at the reserved place.
  const target = new URL(urls.live!);
  const card = { $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json', name: 'io.example/carded', version: '9.9.9', description: 'What the server\n  says of itself.\u202e\u0007', websiteUrl: 'https://carded.example.com', tools: [{ name: 'not kept' }] };
  const front = http.createServer((req, res) => {
    if (req.url?.startsWith('/mcp/server-card')) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/mcp-server-card+json' }).end(JSON.stringify(card));
      return;
    }
    const upstream = http.request({ host: '127.0.0.1', port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.10', resolve));
  servers.push(front);
  const url = `http://127.0.0.10:${(front.address() as AddressInfo).port}/mcp`;
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, [item('io.example/carded', { remotes: [{ type: 'streamable-http', url }] })]);
  const checker = createChecker(app.config);
  try {
    await checkRound(app.services, checker, { holder: 'card', concurrency: 1, keys: [remoteKey(url)!] });
  } finally {
    await checker.close();
  }
  const health = await latest('io.example/carded');
  assert.equal(health.status, 'live');
  assert.deepEqual(health.remotes[0].server_card, { url: `${url}/server-card`, name: 'io.example/carded', version: '9.9.9', description: 'What the server says of itself.', websiteUrl: 'https://carded.example.com' });
  const page = await app.http.inject({ method: 'GET', url: '/c/io.example/carded' });
  assert.match(page.body, /<h2 id="card-h">Server card<\/h2>/);
  assert.match(page.body, /<dt>Version<\/dt><dd>9\.9\.9 <span class="pill">differs from the entry<\/span>/);
  assert.match(page.body, /<dt>Name<\/dt><dd><code>io\.example\/carded<\/code><\/dd>/);
  // A remote that serves no card (server-everything answers 404 there) shows none.
  assert.equal((await latest('io.example/live')).remotes[0].server_card, null);
});

test(`one host's many new remotes are checked round after round at once, not two a minute (${engine})`, async () => {
  const port = new URL(urls.live!).port;
  const burst = Array.from({ length: 8 }, (_, i) => item(`io.example/burst-${i}`, { remotes: [{ type: 'streamable-http', url: `http://127.0.0.11:${port}/mcp?burst=${i}` }] }));
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, burst);
  // The next minute's periodic task wakes the job; then the clock stands still: only rounds that go
  // on at once can check more than one round's two.
  (app.clock as ManualClock).advance(60_000);
  for (let i = 0; i < 6; i++) {
    await app.jobs.tick();
    await app.jobs.idle();
  }
  for (let i = 0; i < 8; i++) assert.equal((await latest(`io.example/burst-${i}`)).status, 'live', `burst-${i}`);
});

test(`listing probes go first: while this instance probes a listing, the schedule's checks wait (${engine})`, async () => {
  const port = new URL(urls.live!).port;
  const held = Array.from({ length: 3 }, (_, i) => item(`io.example/held-${i}`, { remotes: [{ type: 'streamable-http', url: `http://127.0.0.13:${port}/mcp?held=${i}` }] }));
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, held);
  (app.clock as ManualClock).advance(60_000);
  // A probe slot taken, as an on-demand probe of a publisher takes one.
  const release = await app.jobs.acquire(PROBE_JOB, 1000);
  await app.jobs.tick();
  await new Promise((r) => setTimeout(r, 400));
  for (let i = 0; i < 3; i++) assert.equal((await latest(`io.example/held-${i}`)).status, 'unchecked', `held-${i} waits while the probe runs`);
  release();
  await app.jobs.idle();
  await app.jobs.tick();
  await app.jobs.idle();
  for (let i = 0; i < 3; i++) assert.equal((await latest(`io.example/held-${i}`)).status, 'live', `held-${i} checked once the probe is done`);
});

test(`two legacy SSE remotes of one host checked at once both answer: their streams do not hold the connections their posts need (${engine})`, async () => {
  const base = urls.sse!.replace('127.0.0.3', '127.0.0.12');
  const pair = [`${base}?pair=1`, `${base}?pair=2`];
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, pair.map((url, i) => item(`io.example/sse-pair-${i}`, { remotes: [{ type: 'sse', url }] })));
  const checker = createChecker(app.config);
  try {
    const round = await checkRound(app.services, checker, { holder: 'sse-pair', concurrency: 2, keys: pair.map((u) => remoteKey(u)!) });
    assert.deepEqual(round.byStatus, { live: 2 });
  } finally {
    await checker.close();
  }
});

test(`catalog checks are public work: a host's public share is never exceeded, the rest wait for the next hour (${engine})`, async () => {
  const limited = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1', CATALOG_CHECK_CONCURRENCY: '2', PROBE_HOST_PER_HOUR: '50' } });
  try {
    const many = Array.from({ length: 30 }, (_, i) => item(`io.example/many-${i}`, { remotes: [{ type: 'streamable-http', url: `${urls.live}?n=${i}` }] }));
    await loadCatalogItems({ db: limited.services.db.kysely, clock: limited.clock }, many);
    const checker = createChecker(limited.config);
    try {
      let round = await checkRound(limited.services, checker, { holder: 'test', concurrency: 2 });
      let checked = round.checked;
      let waiting = round.waiting;
      while (round.claimed > 0 && checked + waiting < 30) {
        round = await checkRound(limited.services, checker, { holder: 'test', concurrency: 2 });
        checked += round.checked;
        waiting += round.waiting;
      }
      const counter = await limited.sql.selectFrom('budget_counters').select(['key', 'n']).where('key', 'like', 'requests:%').execute();
      const spent = counter.find((c) => c.key === 'requests:127.0.0.2');
      assert.ok(spent && Number(spent.n) <= 40, `${spent?.n} requests: the public share is 40 of 50`);
      assert.ok(checked > 0 && waiting > 0, `${checked} checked, ${waiting} wait for the next hour`);
      const waitingRow = await limited.sql.selectFrom('catalog_checks').select(['next_check_at', 'status']).where('status', 'is', null).executeTakeFirstOrThrow();
      assert.equal(waitingRow.next_check_at, '2026-11-01T13:00:00.000Z', 'due again when the hour turns');
    } finally {
      await checker.close();
    }
  } finally {
    await limited.close();
  }
});

test(`two instances never check one remote at once: each remote is checked by one of them (${engine})`, async () => {
  const a = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1', CATALOG_CHECK_CONCURRENCY: '2' } });
  const b = await startApp({ joinStore: a.store, env: { PROBE_ALLOW_PRIVATE: '1', CATALOG_CHECK_CONCURRENCY: '2' } });
  const [ca, cb] = [createChecker(a.config), createChecker(b.config)];
  try {
    const entries = Array.from({ length: 12 }, (_, i) => item(`io.example/pair-${i}`, { remotes: [{ type: 'streamable-http', url: `http://127.0.0.${2 + (i % 4)}:${new URL(urls.live!).port}/mcp?pair=${i}` }] }));
    await loadCatalogItems({ db: a.services.db.kysely, clock: a.clock }, entries);
    // Rounds on both at once (2 remotes of a host per round) until neither finds one to claim.
    let checked = 0;
    for (;;) {
      const [ra, rb] = await Promise.all([checkRound(a.services, ca, { holder: 'a', concurrency: 2 }), checkRound(b.services, cb, { holder: 'b', concurrency: 2 })]);
      checked += ra.checked + rb.checked;
      if (!ra.claimed && !rb.claimed) break;
    }
    assert.equal(checked, 12);
    const history = await a.sql.selectFrom('catalog_check_history').select(['url_key']).execute();
    assert.equal(history.length, 12);
    assert.equal(new Set(history.map((h) => h.url_key)).size, 12, 'no remote checked twice');
  } finally {
    await ca.close();
    await cb.close();
    await b.close();
    await a.close();
  }
});

test(`a round is fair across hosts however the remotes sort, and a check whose lease was lost is not recorded (${engine})`, async () => {
  const own = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1', CATALOG_CHECK_CONCURRENCY: '2' } });
  try {
    const port = new URL(urls.live!).port;
    // Twenty remotes of one host sort before the single remote of another.
    const entries = [
      ...Array.from({ length: 20 }, (_, i) => item(`io.example/crowd-${String(i).padStart(2, '0')}`, { remotes: [{ type: 'streamable-http', url: `http://127.0.0.2:${port}/mcp?crowd=${String(i).padStart(2, '0')}` }] })),
      item('io.example/single', { remotes: [{ type: 'streamable-http', url: `http://127.0.0.3:${port}/mcp?single=1` }] }),
    ];
    await loadCatalogItems({ db: own.services.db.kysely, clock: own.clock }, entries);
    const now = own.clock.now().toISOString();
    const lease = new Date(own.clock.now().getTime() + 60_000).toISOString();
    const claimed = await claimDueChecks(own.services.db.kysely, { now, limit: 3, perHost: 2, holder: 'fair', leaseUntil: lease });
    assert.deepEqual(claimed.map((c) => c.host).sort(), ['127.0.0.2', '127.0.0.2', '127.0.0.3']);
    // Another instance takes one over once the lease ran out: the first holder's late check is dropped.
    const [first] = claimed;
    await own.sql.updateTable('catalog_checks').set({ holder: 'other' }).where('url_key', '=', first!.url_key).execute();
    const late = await recordCheck(own.services.db.kysely, first!, { status: 'dead', latencyMs: null, protocol: null, transport: null, serverName: null, serverVersion: null, tools: null, toolsBytes: null, toolsTruncated: false, authMetadata: null, detail: 'late' }, own.clock.now(), 'fair');
    assert.equal(late, undefined);
    const row = await own.sql.selectFrom('catalog_checks').select(['status', 'holder']).where('url_key', '=', first!.url_key).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: null, holder: 'other' });
    assert.equal((await own.sql.selectFrom('catalog_check_history').select('url_key').execute()).length, 0);
  } finally {
    await own.close();
  }
});

test(`rollcall check-catalog --name checks one server's remotes now and prints a summary by status (${engine})`, async () => {
  const env = { ...process.env, LOG_LEVEL: 'silent', PROBE_ALLOW_PRIVATE: '1', ...app.store.env } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  Object.assign(env, app.store.env);
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'check-catalog', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      child.on('close', (code) => resolve({ code, out, err }));
    });
  const one = await run(['--name', 'io.example/legacy-sse', '--json']);
  assert.equal(one.code, 0, one.err);
  const answer = JSON.parse(one.out);
  assert.deepEqual([answer.remotes, answer.checked, answer.by_status], [1, 1, { live: 1 }]);
  const unknown = await run(['--name', 'io.example/nothing']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /no server named "io\.example\/nothing" in the catalog/);
});

test(`every instance's search narrows by the health the index keeps: a remote that goes down leaves live_only and max_tool_tokens, one that comes up joins them (${engine})`, async () => {
  // A server-everything whose availability the test switches: a proxy on its own host.
  let up = true;
  const target = new URL(streamable.url);
  const proxy = await responder('127.0.0.8', () => undefined);
  const server = servers.at(-1)!;
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!up) return void req.resume().on('end', () => res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance'));
    const forward = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  const a = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1' } });
  const b = await startApp({ joinStore: a.store, env: { PROBE_ALLOW_PRIVATE: '1' } });
  const checker = createChecker(a.config);
  try {
    await loadCatalogItems({ db: a.services.db.kysely, clock: a.clock }, [item('io.example/flaky', { description: 'A flaky weather forecast server.', remotes: [{ type: 'streamable-http', url: proxy }] })]);
    const key = remoteKey(proxy)!;
    const check = async () => assert.equal((await checkRound(a.services, checker, { holder: 'a', concurrency: 1, keys: [key] })).checked, 1);
    const found = async (instance: TestApp, filters: string) => {
      const res = await instance.http.inject({ method: 'GET', url: `/api/ard/search?q=${encodeURIComponent('flaky weather forecast')}${filters}` });
      assert.equal(res.statusCode, 200, res.body);
      const hit = (res.json() as { hits: { server?: string; health: { status: string; tools: { tokens_estimate: number } | null } }[] }).hits.find((h) => h.server === 'io.example/flaky');
      return hit?.health;
    };
    // Down first: the index learns of it; then up, which it must learn through the change feed.
    up = false;
    await check();
    const down = async () => {
      for (const instance of [a, b]) {
        assert.equal((await found(instance, ''))?.status, 'dead', 'still found, and shown as dead');
        assert.equal(await found(instance, '&live_only=true'), undefined);
        assert.equal((await found(instance, '&remote_only=true'))?.status, 'dead');
      }
    };
    await down();
    up = true;
    await check();
    const live = await found(b, '');
    assert.equal(live?.status, 'live');
    const cost = live!.tools!.tokens_estimate;
    for (const instance of [a, b]) {
      assert.equal((await found(instance, '&live_only=true'))?.status, 'live');
      assert.equal((await found(instance, `&max_tool_tokens=${cost}`))?.status, 'live');
      assert.equal(await found(instance, `&max_tool_tokens=${cost - 1}`), undefined);
    }
    up = false;
    await check();
    await down();
    for (const instance of [a, b]) assert.equal(await found(instance, `&max_tool_tokens=${cost}`), undefined);
  } finally {
    await checker.close();
    await b.close();
    await a.close();
  }
});
