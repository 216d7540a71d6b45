// Fresh search: a listing that turned Live is in every search asked after it, on the instance that
// probed it and on another, with no poll to wait for (SEARCH_POLL_MS is an hour here, so only the
// search's own catch-up with the change feed can find it). Tested by order, not by time.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, toolFrom, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

const apps: TestApp[] = [];
const peers: AgentPeer[] = [];
after(async () => {
  for (const a of apps.reverse()) await a.close();
  for (const p of peers) await p.close();
});

test(`a listing just Live is found by ard_search on its instance and by mesh_match on another (${engine})`, async () => {
  const env = { PROBE_ALLOW_PRIVATE: '1', SEARCH_POLL_MS: '3600000' };
  const one = await startApp({ probing: true, env });
  const two = await startApp({ env, joinStore: one.store });
  apps.push(one, two);
  const agent = await startA2aAgent({ host: '127.0.0.9' });
  peers.push(agent);
  const id = (await postJson(one, '/api/publish', { url: agent.cardUrl })).body.listing_id as string;
  await waitForLane(one, id, ['active']);
  const here = (await getJson(one, '/api/ard/search?q=translate+short+texts+into+french')).body;
  assert.ok(here.hits.some((h: { listing_id?: string }) => h.listing_id === id), 'found on the instance that probed it');
  const matched = await toolFrom(two, '127.0.0.1', 'mesh_match', { capabilities: ['translate text'] });
  assert.ok(matched.hits.some((h: { listing_id: string }) => h.listing_id === id), `found by mesh_match on the other instance: ${JSON.stringify(matched.hits.map((h: { listing_id: string }) => h.listing_id))}`);
});
