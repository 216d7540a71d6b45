// Probes nobody can turn into a weapon or a lever: republish and on-demand bursts make at
// most one probe and never dormancy; the probe budget's 429 says so in its own headers; a listing
// that never recovers is retired from probing; writes that race keep one result.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, getMetrics, engine, type TestApp } from './helpers/app.ts';
import { ManualClock, HOUR_MS } from '../src/platform/clock.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

const clock = new ManualClock('2026-11-01T00:00:00.000Z');
let agent: AgentPeer;
let app: TestApp;

before(async () => {
  agent = await startA2aAgent();
  app = await startApp({
    probing: true,
    clock,
    env: { PROBE_ALLOW_PRIVATE: '1', PROBE_INTERVAL_H: '6', PROBE_BACKOFF_S: '300', REPUBLISH_MIN_INTERVAL_S: '300', PROBE_RATE_PER_MIN: '1000', PROBE_RETIRE_AFTER_H: '48' },
  });
});
after(async () => {
  // Both guarded: when `before` fails, a peer left open would hold the file until the runner's timeout.
  await app?.close();
  await agent?.close();
});

const cardHits = (path: string) => agent.hits.get(path) ?? 0;
const status = async (id: string) => (await getJson(app, `/api/listings/status?id=${id}`)).body;
const job = (id: string) => app.sql.selectFrom('jobs').selectAll().where('id', '=', `probe:${id}`).executeTakeFirst();
async function publishLive(path: string) {
  const res = await postJson(app, '/api/publish', { url: `${agent.baseUrl}${path}` });
  await app.jobs.idle();
  assert.equal((await status(res.body.id)).lane, 'active');
  return res.body.id as string;
}
const liveness = (args: Record<string, unknown>) =>
  app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_liveness', arguments: args } } });

test('100 republishes of a Live listing in a burst cause at most one extra probe', async () => {
  const path = '/burst/agent-card.json';
  const id = await publishLive(path);
  const probes = cardHits(path);
  // Within REPUBLISH_MIN_INTERVAL_S of the last probe: nothing at all.
  const early = await Promise.all(Array.from({ length: 20 }, () => postJson(app, '/api/publish', { url: `${agent.baseUrl}${path}` })));
  await app.jobs.idle();
  assert.ok(early.every((r) => r.body.outcome === 'listed' && r.body.already_listed === true && r.body.reprobe.queued === false && r.body.reprobe.reason === 'recently_probed'));
  assert.equal(cardHits(path), probes, 'no probe inside the minimum interval');
  // Past it: a hundred at once make one probe between them.
  clock.advance(301_000);
  const burst = await Promise.all(Array.from({ length: 100 }, () => postJson(app, '/api/publish', { url: `${agent.baseUrl}${path}` })));
  await app.jobs.idle();
  assert.ok(burst.every((r) => r.status === 200 && r.body.id === id));
  assert.ok(burst.some((r) => r.body.reprobe.queued), 'the first of them queued a probe');
  assert.equal(cardHits(path), probes + 1, 'exactly one extra probe');
  assert.equal((await status(id)).lane, 'active');
});

test('while an agent is briefly down, bursts of republishes and liveness checks do not make it dormant', async () => {
  const path = '/flaky/agent-card.json';
  const id = await publishLive(path);
  agent.setHealthy(false);
  try {
    for (let round = 0; round < 3; round++) {
      clock.advance(301_000);
      await Promise.all(Array.from({ length: 3 }, () => postJson(app, '/api/publish', { url: `${agent.baseUrl}${path}` })));
      await app.jobs.idle();
      for (let i = 0; i < 5; i++) assert.equal((await liveness({ listing_id: id })).json().result.structuredContent.alive, false);
    }
    const s = await status(id);
    assert.equal(s.lane, 'active', 'requested probes that fail are not counted toward dormancy');
    assert.equal(s.probe.ok, false, 'but they do show what they saw');
    assert.equal((await job(id))!.attempts, 0);
  } finally {
    agent.setHealthy(true);
  }
});

test('a listing failing for PROBE_RETIRE_AFTER_H is retired from probing until republished', async () => {
  clock.set('2026-11-05T00:00:00.000Z');
  const res = await postJson(app, '/api/publish', { url: 'http://127.0.0.1:1/retire/mcp' });
  await app.jobs.idle();
  assert.equal((await status(res.body.id)).lane, 'failed');
  // Follow the backoff (capped at the interval) for more than 48 hours.
  for (let i = 0; i < 30; i++) {
    const j = await job(res.body.id);
    if (!j) break;
    clock.set(j.due_at);
    await app.jobs.tick();
    await app.jobs.idle();
  }
  const retired = await status(res.body.id);
  assert.equal(retired.lane, 'failed');
  assert.equal(retired.lane_reason, 'retired');
  assert.equal(await job(res.body.id), undefined, 'no probe job is left');
  clock.advance(24 * HOUR_MS);
  await app.jobs.tick();
  await app.jobs.idle();
  assert.equal(await job(res.body.id), undefined, 'nothing brings it back on its own');
  const again = await postJson(app, '/api/publish', { url: 'http://127.0.0.1:1/retire/mcp' });
  assert.equal(again.body.reprobe.queued, true, 'republishing brings it back');
  await app.jobs.idle();
  const j = await job(res.body.id);
  assert.ok(j, 'its probe job is back');
  assert.equal(j!.attempts, 1, 'a fresh count: the first probe after republishing failed');
});

test('the probe budget answers 429 with its own Retry-After and RateLimit headers', async () => {
  const limited = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '2', RATE_LIMIT_READ_PER_MIN: '600', RATE_LIMIT_WRITE_PER_MIN: '120' } });
  try {
    const url = (i: number) => `/api/score?url=${encodeURIComponent(`${agent.baseUrl}/budget/${i}/agent-card.json`)}`;
    assert.equal((await getJson(limited, url(1))).status, 200);
    assert.equal((await getJson(limited, url(2))).status, 200);
    const refused = await getJson(limited, url(3));
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.match(refused.body.error.message, /2 on-demand probes a minute/);
    assert.equal(refused.headers['ratelimit-limit'], '2', 'the limit is the probe budget, not the read limit');
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    const retry = Number(refused.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `retry-after ${retry}`);
    assert.equal(refused.headers['ratelimit-reset'], String(retry));
  } finally {
    await limited.close();
  }
});

test('/metrics shows the probe queue: due, leased, running, oldest due age and phase timings', async () => {
  const res = await getMetrics(app);
  assert.equal(res.status, 200);
  for (const name of ['rollcall_jobs_due', 'rollcall_jobs_leased', 'rollcall_jobs_running', 'rollcall_jobs_oldest_due_seconds', 'rollcall_probe_phase_seconds']) {
    assert.match(res.body, new RegExp(`^# TYPE ${name} `, 'm'), name);
  }
  assert.match(res.body, /^rollcall_jobs_due\{kind="probe"\} \d+/m);
  assert.match(res.body, /^rollcall_probe_phase_seconds_count\{phase="card"\} [1-9]/m);
});

test(`check_liveness and a scheduled probe of one listing on two instances: one holder at a time, nothing lost (${engine})`, async () => {
  const path = '/race/agent-card.json';
  const id = await publishLive(path);
  const other = await startApp({ probing: true, clock, joinStore: app.store, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0' } });
  try {
    const history = async () => (await app.sql.selectFrom('probe_history').select('id').where('listing_id', '=', id).execute()).length;
    for (let round = 0; round < 5; round++) {
      clock.advance(6 * HOUR_MS);
      const before = await history();
      const [, checked] = await Promise.all([
        app.jobs.tick().then(() => app.jobs.idle()),
        other.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_liveness', arguments: { listing_id: id } } } }),
      ]);
      assert.equal(checked.json().result.structuredContent.alive, true);
      // A check that found the job leased answered without writing; one that took the lease handed it
      // back still due, so the scheduled probe runs on the next tick: it is never lost.
      await Promise.all([app.jobs.tick(), other.jobs.tick()]);
      await Promise.all([app.jobs.idle(), other.jobs.idle()]);
      assert.equal(await history(), before + 1, `round ${round}: the scheduled probe ran once, in one of the two`);
      const j = (await job(id))!;
      assert.equal(j.lease_token, null);
      assert.equal(j.due_at, new Date(clock.now().getTime() + 6 * HOUR_MS).toISOString());
      assert.equal((await status(id)).lane, 'active');
    }
  } finally {
    await other.close();
  }
});
