// A listing's description is what the card or the server says it is; an MCP server's
// `instructions` (text written for a model, often addressed to it) are kept apart: shown on the
// listing's page under their own heading, never the description, never searched. server-everything
// has no description and long instructions ("Audience: These instructions are written for an LLM").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';

let app: TestApp;
let everything: Peer;
before(async () => {
  everything = await startEverything();
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', SEARCH_POLL_MS: '0' } });
});
after(async () => {
  await app.close();
  await everything.close();
});

test(`an MCP server's instructions are not its description: kept apart, shown under their own heading, not searched (${engine})`, async () => {
  const id = (await postJson(app, '/api/publish', { url: everything.url })).body.listing_id as string;
  const live = await waitForLane(app, id, ['active']);
  assert.equal(live.description, '', 'no description of its own');
  assert.doesNotMatch(JSON.stringify(live), /Audience: These instructions/);
  const page = await app.http.inject({ method: 'GET', url: `/l/${id}` });
  assert.match(page.body, /<h2 id="instr-h">Instructions to models<\/h2>/);
  assert.match(page.body, /Audience: These instructions are written for an LLM/);
  await app.services.search.poll();
  const found = (await getJson(app, '/api/ard/search?q=audience+instructions+written+for+an+LLM')).body;
  assert.ok(!found.hits.some((h: { listing_id?: string }) => h.listing_id === id), 'the instructions are not indexed');
  const active = (await getJson(app, '/api/listings/active')).body;
  assert.doesNotMatch(JSON.stringify(active), /Audience: These instructions/);
});
