// The probe pool under load: slots stay busy, a slow or stalling host costs only its own
// slots, and a backlog is shared by instances with each job run once.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, postJson, recordingScheduler, engine, type TestApp } from './helpers/app.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A loopback server on `host` that answers every request after `delayMs` (never, when null). */
async function lingeringServer(host: string, delayMs: number | null) {
  let requests = 0;
  let aborted = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.on('close', () => {
      if (!res.writableEnded) aborted++;
    });
    if (delayMs === null) return;
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"nothing here"}');
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as AddressInfo;
  cleanups.push(() => new Promise((r) => server.close(() => r(undefined))).then(() => server.closeAllConnections()));
  return { base: `http://${host}:${port}`, requests: () => requests, aborted: () => aborted };
}

async function lanes(app: TestApp, ids: string[]) {
  if (!ids.length) return [];
  const rows = await app.sql.selectFrom('listings').select(['id', 'lane']).where('id', 'in', ids).execute();
  return rows.map((r) => r.lane);
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('300 listings on one loopback server under distinct URLs all reach Live on one instance', async () => {
  const everything: Peer = await startEverything();
  cleanups.push(() => everything.close());
  // As `rollcall serve` runs them: on the probe thread.
  const app = await startApp({ probing: true, probeThread: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0' } });
  cleanups.push(() => app.close());
  const port = new URL(everything.url).port;
  const ids: string[] = [];
  // Ten loopback addresses are ten hosts to the per-host cap; each URL is a distinct listing.
  for (let i = 0; i < 300; i++) {
    const res = await postJson(app, '/api/publish', { url: `http://127.0.0.${1 + (i % 10)}:${port}/mcp?n=${i}` });
    assert.equal(res.body.outcome, 'listed');
    ids.push(res.body.id);
  }
  // A generous limit: the assertion is the count, not the time.
  await waitUntil('all 300 are Live or failed', async () => (await lanes(app, ids)).every((l) => l === 'active' || l === 'failed'), 240_000);
  const result = await lanes(app, ids);
  assert.equal(result.filter((l) => l === 'active').length, 300);
});

test('a slow host (3 s an answer) does not hold up the other hosts\' probes', async () => {
  const agent: AgentPeer = await startA2aAgent();
  cleanups.push(() => agent.close());
  const slow = await lingeringServer('127.0.0.2', 3000);
  const app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', PROBE_CONCURRENCY: '4', PROBE_PER_HOST: '2' } });
  cleanups.push(() => app.close());
  const slowIds: string[] = [];
  for (let i = 0; i < 6; i++) slowIds.push((await postJson(app, '/api/publish', { url: `${slow.base}/slow/${i}/agent-card.json` })).body.id);
  const fastIds: string[] = [];
  for (let i = 0; i < 20; i++) fastIds.push((await postJson(app, '/api/publish', { url: `${agent.baseUrl}/fast/${i}/agent-card.json` })).body.id);
  await waitUntil('every fast listing is Live', async () => (await lanes(app, fastIds)).every((l) => l === 'active'), 30_000);
  // The slow host never had more than its cap of slots: its later listings still wait their turn.
  const slowLanes = await lanes(app, slowIds);
  assert.ok(slowLanes.some((l) => l === 'queued' || l === 'probing'), `the slow host's backlog is still being worked (${slowLanes.join(', ')})`);
  assert.ok(slow.requests() <= 6, 'the slow host saw at most its share');
});

test('a host that stalls every request is cut at the probe deadline, and its slot is free again', async () => {
  const agent: AgentPeer = await startA2aAgent();
  cleanups.push(() => agent.close());
  const stall = await lingeringServer('127.0.0.3', null);
  const app = await startApp({
    probing: true,
    probeThread: true, // the deadline crosses to the probe thread and cuts the request there
    // One slot, requests allowed 20 s each: only the 1 s deadline of the whole probe can free it.
    env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', PROBE_CONCURRENCY: '1', PROBE_TIMEOUT_MS: '20000', PROBE_DEADLINE_S: '1' },
  });
  cleanups.push(() => app.close());
  const stalled = (await postJson(app, '/api/publish', { url: `${stall.base}/agent-card.json` })).body.id;
  const fast = (await postJson(app, '/api/publish', { url: `${agent.baseUrl}/after-stall/agent-card.json` })).body.id;
  await waitUntil('the listing behind the stalled one is Live', async () => (await lanes(app, [fast]))[0] === 'active', 10_000);
  // The stalled probe's result is written as its job ends, which a loaded machine may finish just after.
  await waitUntil('the stalled listing failed', async () => (await lanes(app, [stalled]))[0] === 'failed', 5000);
  const s = (await app.http.inject({ url: `/api/listings/status?id=${stalled}` })).json();
  assert.equal(s.lane, 'failed');
  assert.equal(s.lane_reason, 'timeout');
  await waitUntil('the stalled connection was closed by us', async () => stall.aborted() >= 1, 5000);
});

test(`two instances share a backlog of 200 due jobs: each runs once, ${engine === 'postgres' ? 'both run some' : 'one connection'}`, async () => {
  const agent: AgentPeer = await startA2aAgent();
  cleanups.push(() => agent.close());
  const env = { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', PROBE_CONCURRENCY: '8', PROBE_PER_HOST: '8' };
  // Publishing through A wakes nobody: the whole backlog waits for the two runners.
  const a = await startApp({ env, probing: true, probes: recordingScheduler() });
  const b = await startApp({ env, probing: true, joinStore: a.store });
  cleanups.push(() => a.close());
  cleanups.push(() => b.close());
  const path = (i: number) => `/backlog/${i}/agent-card.json`;
  for (let i = 0; i < 200; i++) await postJson(a, '/api/publish', { url: `${agent.baseUrl}${path(i)}` });
  // Each runner's first claim fills its slots; every freed slot claims the next job at once.
  await Promise.all([a.jobs.tick(), b.jobs.tick()]);
  await waitUntil('no probe is due or running', async () => {
    await Promise.all([a.jobs.idle(), b.jobs.idle()]);
    const left = await a.sql.selectFrom('jobs').select('id').where('kind', '=', 'probe').where((eb) => eb.or([eb('priority', '=', 0), eb('lease_token', 'is not', null)])).executeTakeFirst();
    return !left;
  }, 60_000);
  const hits = Array.from({ length: 200 }, (_, i) => agent.hits.get(path(i)) ?? 0);
  assert.deepEqual(hits, Array(200).fill(1), 'one probe per listing');
  const active = await a.sql.selectFrom('listings').select('id').where('lane', '=', 'active').execute();
  assert.equal(active.length, 200);
  if (engine === 'postgres') assert.ok(a.jobs.started > 0 && b.jobs.started > 0, `both instances worked (${a.jobs.started}/${b.jobs.started})`);
});
