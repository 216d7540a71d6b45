// Automatic trace deposits from real probes: a probe that makes a listing Live leaves a
// little attraction (once a day), a failing one a danger mark (once a day), in the probe's own
// transaction; match_capability then reports the trail strength.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, postJson, startApp, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { freePort } from './peers/mcp-servers.ts';
import { ManualClock, HOUR_MS, DAY_MS } from '../src/platform/clock.ts';
import { AUTO } from '../src/traces/system.ts';
import { HALF_LIFE_H } from '../src/traces/channels.ts';

const clock = new ManualClock('2026-11-20T08:00:00.000Z');
let app: TestApp;
let agent: AgentPeer;

before(async () => {
  agent = await startA2aAgent();
  app = await startApp({ probing: true, clock, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0', PROBE_INTERVAL_H: '6', PROBE_TIMEOUT_MS: '2000' } });
});
after(async () => {
  await app.close();
  await agent.close();
});

async function tool(name: string, args: Record<string, unknown>) {
  const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  const result = res.json().result;
  assert.ok(!result.isError, JSON.stringify(result.structuredContent));
  return result.structuredContent as Record<string, any>;
}
const field = async (listingId: string) => {
  const sensed = await tool('sense_traces', { listing_id: listingId });
  return { byChannel: Object.fromEntries(sensed.traces.map((t: { channel: string }) => [t.channel, t])) as Record<string, { value: number; deposits: number }>, notes: sensed.notes as { channel: string; body: string }[] };
};
/** Moves the clock, runs one tick and waits for the probes it started. */
async function at(ms: number) {
  clock.advance(ms);
  await app.jobs.tick();
  await app.jobs.idle();
}

test(`a probe that makes a listing Live leaves attraction; a failing one a danger mark; once a day each (${engine})`, async () => {
  const { body } = await postJson(app, '/api/publish', { url: agent.cardUrl });
  const id = body.listing_id as string;
  await waitForLane(app, id, ['active']);
  await app.jobs.idle();
  let f = await field(id);
  assert.equal(f.byChannel.attraction!.value, AUTO.probeLive);
  assert.equal(f.byChannel.joined!.value, AUTO.joined);
  assert.equal(f.byChannel.danger, undefined);
  assert.ok(f.notes.some((n) => n.channel === 'attraction' && n.body === 'probe succeeded'));
  // The attraction's share of the rank is written with the probe's result, beside the probe score.
  const listing = await app.sql.selectFrom('listings').select(['rank', 'rank_parts']).where('id', '=', id).executeTakeFirstOrThrow();
  const parts = JSON.parse(listing.rank_parts) as Record<string, number>;
  assert.equal(parts.trail, AUTO.probeLive);
  assert.ok(parts.probe! > 0);
  assert.equal(Number(listing.rank), Math.round(Object.values(parts).reduce((a, b) => a + b, 0)));

  // match_capability reports the listing's trail strength (its decayed attraction).
  await app.services.search.poll();
  const matched = await tool('match_capability', { capabilities: ['translate text'] });
  const hit = matched.hits.find((h: { listing_id: string }) => h.listing_id === id);
  assert.ok(hit, JSON.stringify(matched));
  assert.equal(hit.trail_strength, AUTO.probeLive);

  // The re-probe six hours later is the same day: no second attraction.
  await at(6 * HOUR_MS);
  f = await field(id);
  assert.equal(f.byChannel.attraction!.deposits, 1);
  // Failing re-probes: one danger mark for the day, however many fail.
  agent.setHealthy(false);
  await at(6 * HOUR_MS);
  await at(HOUR_MS);
  f = await field(id);
  assert.equal(f.byChannel.danger!.deposits, 1);
  // Deposited by the first failure, an hour before this read.
  assert.ok(Math.abs(f.byChannel.danger!.value - AUTO.probeFailed * 2 ** (-1 / HALF_LIFE_H.danger)) < 1e-6, String(f.byChannel.danger!.value));
  assert.ok(f.notes.some((n) => n.channel === 'danger' && /^probe failed: /.test(n.body)));
  // Healthy again the next day: attraction again.
  agent.setHealthy(true);
  await at(DAY_MS);
  f = await field(id);
  assert.equal(f.byChannel.attraction!.deposits, 2);
});

test(`a listing whose first probe fails gets a danger mark with the reason (${engine})`, async () => {
  const port = await freePort(); // nothing listens there
  const { body } = await postJson(app, '/api/publish', { url: `http://127.0.0.1:${port}/mcp` });
  const id = body.listing_id as string;
  const status = await waitForLane(app, id, ['failed']);
  await app.jobs.idle();
  const f = await field(id);
  assert.equal(f.byChannel.danger!.value, AUTO.probeFailed);
  assert.equal(f.byChannel.attraction, undefined);
  assert.ok(f.notes.some((n) => n.body === `probe failed: ${status.lane_reason}`), JSON.stringify(f.notes));
});
