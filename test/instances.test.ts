// Several instances on one database: every due probe runs exactly once, and the jobs of an
// instance that dies mid-lease are taken over once the lease expires.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, recordingScheduler, engine, type TestApp } from './helpers/app.ts';
import { ManualClock, HOUR_MS } from '../src/platform/clock.ts';
import { claimDue } from '../src/platform/jobs/store.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

const N = 50;
const clock = new ManualClock('2026-11-01T00:00:00.000Z');
const env = { PROBE_ALLOW_PRIVATE: '1', PROBE_CONCURRENCY: '8', PROBE_PER_HOST: '8', JOB_LEASE_S: '60', PROBE_INTERVAL_H: '6' };
let agent: AgentPeer;
let a: TestApp;
let b: TestApp;

before(async () => {
  agent = await startA2aAgent();
  // Publishing through A wakes nobody: the batch is left for the two instances' ticks to share.
  a = await startApp({ clock, env, probing: true, probes: recordingScheduler() });
  b = await startApp({ clock, env, probing: true, joinStore: a.store });
});
after(async () => {
  await b.close();
  await a.close();
  await agent.close();
});

const cardPath = (i: number) => `/agents/${i}/agent-card.json`;
const hitCounts = () => Array.from({ length: N }, (_, i) => agent.hits.get(cardPath(i)) ?? 0);

/** Ticks both instances at once until no probe is due and both are idle. */
async function drain() {
  for (let round = 0; round < 200; round++) {
    await Promise.all([a.jobs.tick(), b.jobs.tick()]);
    await new Promise((r) => setTimeout(r, 5));
    const due = await a.sql
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'probe')
      .where('due_at', '<=', clock.now().toISOString())
      .executeTakeFirst();
    if (!due) break;
  }
  await Promise.all([a.jobs.idle(), b.jobs.idle()]);
}

test(`two instances probe a batch of ${N} listings, each exactly once per due time (${engine})`, async () => {
  for (let i = 0; i < N; i++) await postJson(a, '/api/publish', { url: `${agent.baseUrl}${cardPath(i)}` });
  await drain();
  assert.deepEqual(hitCounts(), Array(N).fill(1), 'one probe per listing');
  const active = await a.sql.selectFrom('listings').select('id').where('lane', '=', 'active').execute();
  assert.equal(active.length, N);
  if (engine === 'postgres') assert.ok(a.jobs.started > 0 && b.jobs.started > 0, `both instances worked (${a.jobs.started}/${b.jobs.started})`);

  clock.advance(6 * HOUR_MS);
  await drain();
  assert.deepEqual(hitCounts(), Array(N).fill(2), 'the next due time: exactly one more each');
});

test('an instance killed mid-lease hands its jobs to the other after the lease expires', async () => {
  clock.advance(6 * HOUR_MS);
  // Instance A leases the whole due batch, then dies before finishing any of it.
  const leased = await claimDue(a.services.db, clock.now(), 60_000, N + 10);
  assert.equal(leased.filter((l) => l.kind === 'probe').length, N);
  await a.http.close(); // the instance is gone: no HTTP, no ticks, no runner; its leases stay behind

  const before = hitCounts();
  await b.jobs.tick();
  await b.jobs.idle();
  assert.deepEqual(hitCounts(), before, 'leased jobs are not run while the lease holds');

  clock.advance(61_000);
  for (let i = 0; i < 20 && hitCounts().some((h) => h < 3); i++) {
    await b.jobs.tick();
    await b.jobs.idle();
  }
  assert.deepEqual(hitCounts(), Array(N).fill(3), 'B took every job over, once');
  const stillLeased = await b.sql.selectFrom('jobs').select('id').where('lease_token', 'is not', null).execute();
  assert.deepEqual(stillLeased, []);
});
