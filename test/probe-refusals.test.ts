// Rollcall's own refusals are not evidence against a listing: a host whose name comes to
// resolve to a private address is refused before any connection, and that refusal neither enters
// the probe history nor lowers the score; a refused https URL earns no https points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson } from './helpers/app.ts';
import { createProber } from '../src/probe/factory.ts';
import { loadConfig } from '../src/config.ts';
import { setListingState } from './helpers/state.ts';
import { startFixtures } from './peers/fixtures.ts';
import type { ManualClock } from '../src/platform/clock.ts';

test('a Live listing whose host now resolves to a private address keeps its history and score', async (t) => {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  // Only this one name resolves, to a private address the guard refuses before dialing.
  const prober = createProber(config, { resolver: async (name) => (name === 'moved.example' ? ['10.1.2.3'] : []) });
  const app = await startApp({ probing: true, prober });
  t.after(() => app.close());

  const published = await postJson(app, '/api/publish', { url: 'https://moved.example/mcp' });
  assert.equal(published.status, 200);
  await app.jobs.idle();
  const id = published.body.id as string;
  const now = app.clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 80, probed_at: now }, now);
  const historyBefore = await app.sql.selectFrom('probe_history').select('id').where('listing_id', '=', id).execute();

  // The scheduled re-probe comes due and is refused by the address policy.
  await app.sql.updateTable('jobs').set({ due_at: now }).where('id', '=', `probe:${id}`).execute();
  await app.jobs.tick();
  await app.jobs.idle();

  const status = (await getJson(app, `/api/listings/status?id=${id}`)).body;
  assert.equal(status.lane_reason, 'blocked_address', 'the re-probe ran and was refused');
  assert.equal(status.probe.ok, false);
  assert.equal(status.lane, 'active', 'one refusal does not end a Live listing');
  assert.equal(status.probe.score, 80, 'the score is untouched');
  const listing = await app.sql.selectFrom('listings').select('rank').where('id', '=', id).executeTakeFirstOrThrow();
  assert.ok(listing.rank >= 80 - 15, `rank keeps the probe part (${listing.rank})`);
  const historyAfter = await app.sql.selectFrom('probe_history').select('id').where('listing_id', '=', id).execute();
  assert.equal(historyAfter.length, historyBefore.length, 'the refusal is not in the probe history');
});

test('probe_clean of a refused https URL: url_allowed fails with the reason, and no https points', async (t) => {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const prober = createProber(config, { resolver: async () => ['192.168.7.7'] });
  const app = await startApp({ prober });
  t.after(() => app.close());
  const res = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    headers: { 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe_clean', arguments: { url: 'https://private-now.example/mcp' } } },
  });
  const result = res.json().result.structuredContent;
  const allowed = result.checks.find((c: { id: string }) => c.id === 'url_allowed');
  assert.equal(allowed.pass, false);
  assert.match(allowed.detail, /refused by the address policy/);
  assert.equal(result.breakdown.https, 0);
});

test('republishing spends the caller\'s probe budget only when a probe is queued', async (t) => {
  const fx = await startFixtures();
  const app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '1', REPUBLISH_MIN_INTERVAL_S: '60' } });
  t.after(async () => {
    await app.close();
    await fx.close();
  });
  const a = await postJson(app, '/api/publish', { url: `${fx.base}/card` });
  const b = await postJson(app, '/api/publish', { url: `${fx.base}/card?other=1` });
  await app.jobs.idle();
  // Inside the minimum interval a republish queues nothing and spends nothing.
  for (let i = 0; i < 3; i++) assert.equal((await postJson(app, '/api/publish', { url: `${fx.base}/card` })).status, 200);
  (app.clock as ManualClock).advance(61_000);
  const first = await postJson(app, '/api/publish', { url: `${fx.base}/card` });
  assert.equal(first.status, 200);
  assert.equal(first.body.reprobe.queued, true);
  const second = await postJson(app, '/api/publish', { url: `${fx.base}/card?other=1` });
  assert.equal(second.status, 429, 'the second re-probe within the minute exceeds the budget of 1');
  assert.equal(second.body.error.code, 'rate_limited');
  assert.match(second.body.error.message, /probe/);
  assert.ok(second.headers['retry-after']);
  assert.ok(a.body.id && b.body.id);
});

test('an on-demand probe waits for a probe slot and answers 503 busy when none frees', async (t) => {
  const fx = await startFixtures();
  const app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_CONCURRENCY: '1', PROBE_SLOT_WAIT_MS: '200', PROBE_TIMEOUT_MS: '5000' } });
  t.after(async () => {
    await app.close();
    await fx.close();
  });
  await postJson(app, '/api/publish', { url: `${fx.base}/slow` }); // holds the only slot
  // The slot is held once the runner has started the job, a moment after its lease is written
  // (on PostgreSQL the lease can be seen before the claim's answer reaches the runner).
  for (let i = 0; i < 200 && app.jobs.runningByKind().probe !== 1; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(app.jobs.runningByKind().probe, 1, 'the slow probe holds the only slot');
  const res = await getJson(app, `/api/score?url=${encodeURIComponent(`${fx.base}/card`)}`);
  assert.equal(res.status, 503);
  assert.equal(res.body.error.code, 'busy');
  assert.ok(res.headers['retry-after']);
});
