// The service's probe thread (src/probe/off-thread.ts): probes of real peers on loopback run on
// the thread and come back as the same reports the event loop's prober makes; the thread's one
// question (who owns this URL?) is answered by the service; check_liveness's handshakes run there
// too, under the same cap per host; deadlines and shutdown reach it; and when the thread dies, the
// probes in flight and after it still finish, on the event loop. The catalog's checks run on a
// thread of their own, asking the service for each request's room in the host's budget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { loadConfig } from '../src/config.ts';
import { createChecker, createProber, createServiceChecker, createServiceProber } from '../src/probe/factory.ts';
import { OutboundError } from '../src/platform/net/guarded-client.ts';
import type { ProbeReport } from '../src/probe/prober.ts';
import { OFFLINE_HOSTS, offlineResolver } from './helpers/app.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { startFixtures, type Fixtures } from './peers/fixtures.ts';

const config = loadConfig({ LOG_LEVEL: 'silent', PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '10000' });
let everything: Peer;
let agent: AgentPeer;
let fx: Fixtures;

before(async () => {
  [everything, agent, fx] = await Promise.all([startEverything(), startA2aAgent({ shape: '1.0' }), startFixtures()]);
});
after(async () => {
  await Promise.all([everything.close(), agent.close(), fx.close()]);
});

/** A report without what differs from one probe to the next (timings, and the score's latency share). */
const stable = ({ latencyMs: _l, score: _s, breakdown: _b, ...rest }: ProbeReport) => rest;

test('probes on the thread give the reports the event loop gives, with phases and fetches counted here', async () => {
  const onLoop = createProber(config, { resolver: offlineResolver });
  const lost: Error[] = [];
  const threaded = createServiceProber(config, { hosts: OFFLINE_HOSTS, onLost: (err) => lost.push(err) });
  let fetches = 0;
  threaded.observeFetches(() => fetches++);
  try {
    await threaded.prepare();
    for (const [url, hint] of [
      [everything.url, 'mcp'],
      [agent.cardUrl, 'agent'],
    ] as const) {
      const phases: string[] = [];
      const before = fetches;
      const [here, there] = await Promise.all([onLoop.probe(url, { hint }), threaded.probe(url, { hint, onPhase: (phase) => phases.push(phase) })]);
      assert.equal(there.live, true, `${url}: ${there.reason} ${there.detail}`);
      assert.deepEqual(stable(there), stable(here));
      assert.ok(phases.includes(hint === 'mcp' ? 'mcp' : 'a2a'), `phases told here: ${phases.join(', ')}`);
      assert.ok(fetches - before >= 2, `the thread's fetches are counted here (${fetches - before})`);
    }
    assert.equal(threaded.usesThread(), true);
    assert.deepEqual(lost, []);
  } finally {
    await Promise.all([onLoop.close(), threaded.close()]);
  }
});

test('probes at once on the thread count the fetches they made, as many as on the loop', async () => {
  const onLoop = createProber(config, { resolver: offlineResolver });
  const threaded = createServiceProber(config, { hosts: OFFLINE_HOSTS });
  const counted = { loop: 0, thread: 0 };
  onLoop.observeFetches(() => counted.loop++);
  threaded.observeFetches(() => counted.thread++);
  try {
    await threaded.prepare();
    const urls = [everything.url, agent.cardUrl, `${fx.base}/plain.json`, `${fx.base}/page`];
    await Promise.all(urls.flatMap((url) => [0, 1].map(() => onLoop.probe(url))));
    await Promise.all(urls.flatMap((url) => [0, 1].map(() => threaded.probe(url))));
    assert.ok(counted.loop > urls.length * 2, `the loop made ${counted.loop} fetches`);
    // Each probe used to count every fetch the thread made while it ran, its neighbours' included.
    assert.equal(counted.thread, counted.loop);
  } finally {
    await Promise.all([onLoop.close(), threaded.close()]);
  }
});

test('the thread asks the service who owns a URL: the answer decides the report, and no answer fails the probe', async () => {
  const threaded = createServiceProber(config, { hosts: OFFLINE_HOSTS });
  try {
    const asked: string[] = [];
    const report = await threaded.probe(everything.url, {
      hint: 'mcp',
      takenByOther: async (url) => {
        asked.push(url);
        return 'lst_owner';
      },
    });
    assert.deepEqual(asked, [everything.url]);
    assert.equal(report.live, false);
    assert.equal(report.reason, 'duplicate_of');
    assert.equal(report.duplicateOf, 'lst_owner');
    // A question the service cannot answer (its database is gone) is Rollcall's trouble: the probe
    // fails as such, on the thread as on the loop, and never reports the listing as not taken.
    const gone = { hint: 'mcp' as const, takenByOther: async () => Promise.reject(new Error('database gone')) };
    await assert.rejects(threaded.probe(everything.url, gone), /could not check for duplicates: database gone/);
    await assert.rejects(createProber(config, { resolver: offlineResolver }).probe(everything.url, gone), /database gone/);
  } finally {
    await threaded.close();
  }
});

test('the thread resolves by the table it was given, and a deadline set here cuts its request there', async () => {
  const threaded = createServiceProber(config, { hosts: { 'everything.test': ['127.0.0.1'] } });
  try {
    // A name only the table knows: the thread reached the server through it.
    const named = new URL(everything.url);
    named.hostname = 'everything.test';
    const found = await threaded.probe(named.href, { hint: 'mcp' });
    assert.equal(found.live, true, `${found.reason} ${found.detail}`);
    const unknown = await threaded.probe('https://agent.example.org/.well-known/agent-card.json');
    assert.equal(unknown.live, false);
    assert.equal(unknown.reason, 'unreachable');
    const started = Date.now();
    const slow = await threaded.probe(`${fx.base}/slow`, { signal: AbortSignal.timeout(300) });
    assert.ok(Date.now() - started < 3000, `cut at the deadline (${Date.now() - started} ms)`);
    assert.equal(slow.live, false);
    assert.equal(slow.reason, 'timeout');
  } finally {
    await threaded.close();
  }
});

test('check_liveness runs on the thread: it answers as on the loop and waits behind a probe for the one slot of a host', async () => {
  const onLoop = createProber(config, { resolver: offlineResolver });
  const threaded = createServiceProber(loadConfig({ LOG_LEVEL: 'silent', PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '10000', PROBE_PER_HOST: '1' }), { hosts: OFFLINE_HOSTS });
  let fetches = 0;
  threaded.observeFetches(() => fetches++);
  try {
    await threaded.prepare();
    for (const [url, kind] of [
      [everything.url, 'mcp'],
      [agent.cardUrl, 'agent'],
      [`${fx.base}/plain.json`, 'mcp'],
    ] as const) {
      const [here, there] = await Promise.all([onLoop.liveness(url, kind), threaded.liveness(url, kind)]);
      assert.deepEqual({ ...there, latencyMs: null }, { ...here, latencyMs: null }, url);
    }
    assert.ok(fetches >= 3, `the thread's fetches are counted here (${fetches})`);
    // PROBE_PER_HOST=1: a probe stalled on the fixtures' host holds its one slot, so a liveness
    // check of another path on that host starts only when the probe's deadline frees it.
    const settled: string[] = [];
    const noted = <T>(name: string) => (value: T) => {
      settled.push(name);
      return value;
    };
    const connections = fx.connections();
    const stalled = threaded.probe(`${fx.base}/slow`, { signal: AbortSignal.timeout(1000) }).then(noted('probe'));
    while (fx.connections() === connections) await new Promise((r) => setTimeout(r, 10));
    const alive = threaded.liveness(`${fx.base}/plain.json`, 'mcp').then(noted('liveness'));
    const [probe, liveness] = await Promise.all([stalled, alive]);
    assert.equal(probe.reason, 'timeout');
    assert.equal(liveness.ok, false);
    assert.equal(liveness.reason, 'handshake_failed', liveness.detail);
    assert.deepEqual(settled, ['probe', 'liveness']);
  } finally {
    await Promise.all([onLoop.close(), threaded.close()]);
  }
});

test('close lets the probe in flight finish on the thread, then ends it', async () => {
  const lost: Error[] = [];
  const threaded = createServiceProber(config, { hosts: OFFLINE_HOSTS, onLost: (err) => lost.push(err) });
  await threaded.prepare();
  const inFlight = threaded.probe(everything.url, { hint: 'mcp' });
  await threaded.close();
  const report = await inFlight;
  assert.equal(report.live, true, `${report.reason} ${report.detail}`);
  assert.equal(threaded.usesThread(), false);
  assert.deepEqual(lost, [], 'closing is not a loss');
});

test('when the thread dies, the probe in flight and the later ones finish on the event loop', async () => {
  const lost: Error[] = [];
  const threaded = createServiceProber(config, { hosts: OFFLINE_HOSTS, onLost: (err) => lost.push(err) });
  try {
    await threaded.prepare();
    const inFlight = threaded.probe(everything.url, { hint: 'mcp' });
    await (Reflect.get(threaded, 'worker') as Worker).terminate();
    assert.equal((await inFlight).live, true);
    assert.equal(threaded.usesThread(), false);
    assert.equal(lost.length, 1, 'the loss is told once');
    assert.match(lost[0]!.message, /probe thread exited/);
    assert.equal((await threaded.probe(agent.cardUrl, { hint: 'agent' })).live, true);
  } finally {
    await threaded.close();
  }
});

test('catalog checks on the check thread find what the event loop finds, each request admitted by the service', async () => {
  const onLoop = createChecker(config, { resolver: offlineResolver });
  const threaded = createServiceChecker(config, { hosts: OFFLINE_HOSTS });
  const admitted: string[] = [];
  const admit = async (host: string) => {
    admitted.push(host);
  };
  try {
    const row = { url: everything.url, transport: 'streamable-http' };
    const here = await onLoop.check(row, { admit });
    const onLoopRequests = admitted.length;
    const there = await threaded.check(row, { admit });
    assert.equal(there?.status, 'live', there?.detail ?? '');
    assert.ok(there.tools && there.tools.length > 0);
    assert.deepEqual({ ...there, latencyMs: 0 }, { ...here, latencyMs: 0 });
    assert.equal(admitted.length, 2 * onLoopRequests, 'every request of the thread\'s check was admitted here');
    assert.deepEqual(new Set(admitted), new Set(['127.0.0.1']));
    // The host's budget has no room: the check waits for the next hour (no findings), it did not fail.
    const noRoom = async () => Promise.reject(new OutboundError('host_budget', 'no room this hour'));
    assert.equal(await threaded.check(row, { admit: noRoom }), undefined);
    const dead = await threaded.check({ url: 'http://127.0.0.1:9/mcp', transport: 'streamable-http' }, { admit });
    assert.equal(dead?.status, 'dead');
    assert.equal(threaded.usesThread(), true);
    if (process.platform === 'linux') {
      // Checks are background work: their thread alone runs at the lowest CPU priority.
      const nice = (tid: string) => Number(fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      assert.ok(fs.readdirSync(`/proc/${process.pid}/task`).some((tid) => nice(tid) === 19), 'a thread at nice 19');
      assert.equal(nice(String(process.pid)), 0, 'the main thread keeps its priority');
    }
  } finally {
    await Promise.all([onLoop.close(), threaded.close()]);
  }
});
