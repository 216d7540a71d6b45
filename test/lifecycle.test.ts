// Lanes over time, driven by a moved clock: re-probes every PROBE_INTERVAL_H, backoff while
// failing, dormant after 3 failures in a row or (for a claimed listing) when the talk grace ran
// out, and back: a claimed listing with a good probe plus its owner's check-in (POST /api/talk with
// the owner token), an unclaimed one, whose probes are its presence, with a good probe alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, HOUR_MS, DAY_MS } from '../src/platform/clock.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

let app: TestApp;
let agent: AgentPeer;
const clock = new ManualClock('2026-11-01T00:00:00.000Z');

before(async () => {
  agent = await startA2aAgent();
  app = await startApp({ probing: true, clock, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_INTERVAL_H: '6', PROBE_BACKOFF_S: '300', TALK_GRACE_DAYS: '7', PROBE_TIMEOUT_MS: '2000' } });
});
after(async () => {
  await app.close();
  await agent.close();
});

const status = async (id: string) => (await getJson(app, `/api/listings/status?id=${id}`)).body;
const job = (id: string) => app.sql.selectFrom('jobs').selectAll().where('id', '=', `probe:${id}`).executeTakeFirstOrThrow();
/** Moves the clock, runs one tick and waits for what it started. */
async function at(ms: number): Promise<number> {
  clock.advance(ms);
  const started = await app.jobs.tick();
  await app.jobs.idle();
  return started;
}
async function publish(path: string) {
  const { body } = await postJson(app, '/api/publish', { url: `${agent.baseUrl}${path}` });
  await app.jobs.idle();
  return body.id as string;
}
/** The owner's talk check-in. */
async function checkIn(id: string, token: string) {
  const res = await postJson(app, '/api/talk', { listing_id: id }, asOwner(token));
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

test('a Live listing is re-probed every PROBE_INTERVAL_H, and its probe age is true in between', async () => {
  const id = await publish('/one/agent-card.json');
  let s = await status(id);
  assert.equal(s.lane, 'active');
  assert.equal(s.history.probes, 1);
  assert.equal((await job(id)).due_at, '2026-11-01T06:00:00.000Z');
  assert.equal(await at(2 * HOUR_MS), 1, 'only the sweep was due');
  s = await status(id);
  assert.equal(s.probe.age_hours, 2);
  // The sweep made the owners' proof re-check job due at 2 h; it runs with this tick.
  assert.equal(await at(4 * HOUR_MS), 3, 'the re-probe, the sweep and the owner re-check');
  s = await status(id);
  assert.equal(s.probe.age_hours, 0);
  assert.equal(s.history.probes, 2);
  assert.equal(s.history.uptime_pct, 100);
  assert.equal(typeof s.history.median_latency_ms, 'number');
  assert.equal(s.history.recent.length, 2);
});

test('failing re-probes back off, three in a row make it dormant; a good probe plus the owner\'s check-in bring it back (an unclaimed one: the probe alone)', async () => {
  clock.set('2026-11-02T00:00:00.000Z');
  const id = await publish('/two/agent-card.json');
  const token = await ownListing(app, id);
  const open = await publish('/two-open/agent-card.json');
  await app.jobs.tick();
  await app.jobs.idle();
  agent.setHealthy(false);
  try {
    await at(6 * HOUR_MS);
    let s = await status(id);
    assert.equal(s.lane, 'active', 'one failure does not end Live');
    assert.equal(s.lane_reason, 'unreachable');
    assert.equal(s.probe.ok, false);
    let j = await job(id);
    assert.equal(j.attempts, 1);
    assert.equal(j.due_at, '2026-11-02T06:05:00.000Z', 'retry after PROBE_BACKOFF_S');
    await at(299_000);
    assert.equal((await job(id)).attempts, 1, 'not due yet');
    await at(1000);
    j = await job(id);
    assert.equal(j.attempts, 2);
    assert.equal(j.due_at, '2026-11-02T06:15:00.000Z', 'the backoff doubles');
    assert.equal((await status(id)).lane, 'active');
    // Republishing right after a probe queues nothing and resets nothing: a burst of requests
    // cannot hold dormancy off, nor bring it on.
    const republished = await postJson(app, '/api/publish', { url: `${agent.baseUrl}/two/agent-card.json` });
    // Nothing was queued, so the answer does not say `queued`: the URL is listed, its re-probe not due.
    assert.equal(republished.body.outcome, 'listed');
    assert.equal(republished.body.already_listed, true);
    assert.equal(republished.body.reprobe.queued, false);
    assert.equal(republished.body.reprobe.reason, 'recently_probed');
    await app.jobs.idle();
    assert.equal((await job(id)).attempts, 2);
    // The third scheduled failure in a row makes it dormant.
    await at(10 * 60_000);
    s = await status(id);
    assert.equal(s.lane, 'dormant', 'dormant after 3 failed probes in a row');
    assert.equal((await job(id)).attempts, 3);
    assert.ok(s.history.uptime_pct < 50);
    assert.equal((await status(open)).lane, 'dormant', 'claimed or not, 3 failed probes make it dormant');
    const active = (await getJson(app, '/api/listings/active')).body;
    assert.ok(!active.agents.some((a: { id: string }) => a.id === id), 'dormant listings leave the active list');
  } finally {
    agent.setHealthy(true);
  }
  await at(20 * 60_000);
  let s = await status(id);
  assert.equal(s.lane, 'dormant', 'a good probe alone is not enough for a claimed listing');
  assert.equal(s.lane_reason, 'awaiting_check_in');
  assert.equal(s.probe.ok, true);
  assert.equal((await status(open)).lane, 'active', 'an unclaimed listing: its good probe is its presence');
  // Reading the talk channel is no check-in; the owner's POST is.
  await getJson(app, `/api/talk?listing_id=${id}`, asOwner(token));
  await app.jobs.idle();
  assert.equal((await status(id)).lane, 'dormant');
  await checkIn(id, token);
  await app.jobs.idle();
  s = await status(id);
  assert.equal(s.lane, 'active', 'probe plus check-in: Live again');
  assert.equal((await job(id)).attempts, 0);
});

test('a listing that never went Live backs off too, up to the interval', async () => {
  clock.set('2026-11-03T00:00:00.000Z');
  const { body } = await postJson(app, '/api/publish', { url: 'http://127.0.0.1:1/mcp' });
  await app.jobs.idle();
  assert.equal((await status(body.id)).lane, 'failed');
  const delays: number[] = [];
  let last = clock.now().getTime();
  for (let i = 0; i < 8; i++) {
    const j = await job(body.id);
    const due = new Date(j.due_at).getTime();
    delays.push((due - last) / 1000);
    clock.set(j.due_at);
    last = due;
    await app.jobs.tick();
    await app.jobs.idle();
  }
  assert.deepEqual(delays.slice(0, 7), [300, 600, 1200, 2400, 4800, 9600, 19200]);
  assert.equal(delays[7], 6 * 3600, 'capped at PROBE_INTERVAL_H');
  assert.equal((await status(body.id)).lane, 'failed');
});

test('the talk grace running out with no check-in makes a claimed Live listing dormant; an unclaimed one stays', async () => {
  clock.set('2026-11-10T00:00:00.000Z');
  const quiet = await publish('/quiet/agent-card.json');
  const chatty = await publish('/chatty/agent-card.json');
  const unclaimed = await publish('/unclaimed/agent-card.json');
  const quietToken = await ownListing(app, quiet);
  const chattyToken = await ownListing(app, chatty);
  assert.equal((await status(quiet)).lane, 'active');
  for (let day = 1; day <= 8; day++) {
    await at(DAY_MS);
    if (day === 6) await checkIn(chatty, chattyToken);
    // Reads every day are no check-ins.
    await getJson(app, `/api/talk?listing_id=${quiet}`, asOwner(quietToken));
  }
  const q = await status(quiet);
  assert.equal(q.lane, 'dormant');
  assert.equal(q.lane_reason, 'talk_absent');
  assert.equal(q.talk.active, false);
  const c = await status(chatty);
  assert.equal(c.lane, 'active', 'a check-in within the last 7 days keeps it Live');
  assert.equal(c.talk.mode, 'present');
  const u = await status(unclaimed);
  assert.equal(u.lane, 'active', 'nobody can check in for an unclaimed listing: it never goes dormant for that');
  assert.deepEqual([u.talk.required, u.talk.active], [false, true]);
  await checkIn(quiet, quietToken);
  await app.jobs.idle();
  assert.equal((await status(quiet)).lane, 'active', 'the check-in triggers a probe, which brings it back');
});

test('probe history is kept bounded', async () => {
  clock.set('2026-12-01T00:00:00.000Z');
  const id = await publish('/history/agent-card.json');
  for (let i = 0; i < 60; i++) {
    await app.sql.updateTable('jobs').set({ due_at: clock.now().toISOString() }).where('id', '=', `probe:${id}`).execute();
    await app.jobs.tick();
    await app.jobs.idle();
  }
  const rows = await app.sql.selectFrom('probe_history').select('id').where('listing_id', '=', id).execute();
  assert.equal(rows.length, 50);
  assert.equal((await status(id)).history.probes, 50);
});

test('PROBE_DELAY_S holds the first probe back; the tick runs it when due', async () => {
  const delayed = await startApp({ probing: true, clock, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_DELAY_S: '360' } });
  try {
    clock.set('2026-12-05T00:00:00.000Z');
    const { body } = await postJson(delayed, '/api/publish', { url: `${agent.baseUrl}/delayed/agent-card.json` });
    await delayed.jobs.idle();
    const read = async () => (await getJson(delayed, `/api/listings/status?id=${body.id}`)).body.lane;
    assert.equal(await read(), 'queued');
    clock.advance(359_000);
    await delayed.jobs.tick();
    await delayed.jobs.idle();
    assert.equal(await read(), 'queued');
    clock.advance(1000);
    await delayed.jobs.tick();
    await delayed.jobs.idle();
    assert.equal(await read(), 'active');
  } finally {
    await delayed.close();
  }
});
