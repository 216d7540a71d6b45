// Search through the real doors: the catalog synced from a loopback upstream and the Live
// listings in one index per instance, kept fresh by the change feed; ard_search, search_active,
// match_capability and the ARD registry API (search, explore, identifiers); clear errors; every query logged without its caller.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, engine, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { setListingState } from './helpers/state.ts';
import { startUpstreamRegistry, type UpstreamRegistry } from './peers/upstream-registry.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { syncCatalog } from '../src/catalog/sync.ts';
import { createCatalogClient } from '../src/catalog/client.ts';
import { recentQueries } from '../src/search/store.ts';
import { LEGACY_AIR_UNTIL } from '../src/registry/air.ts';
import type { ManualClock } from '../src/platform/clock.ts';
import { startModernMcp } from './peers/mcp-servers.ts';
import { ardErrorProblems, ardSearchResponseProblems, serverCardProblems } from './helpers/ard-schemas.ts';

const ENV = { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0' };
let app: TestApp;
let upstream: UpstreamRegistry;
let agent: AgentPeer;

before(async () => {
  [upstream, agent] = await Promise.all([startUpstreamRegistry({ pageSize: 100 }), startA2aAgent()]);
  app = await startApp({ probing: true, env: ENV });
  const client = createCatalogClient(app.config);
  await syncCatalog({ db: app.services.db.kysely, clock: app.clock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300 });
  await client.destroy();
  await app.services.search.poll();
});
after(async () => {
  await app.close();
  await Promise.all([upstream.close(), agent.close()]);
});

const ard = (q: string, extra = '') => getJson(app, `/api/ard/search?q=${encodeURIComponent(q)}${extra}`);
const tool = async (name: string, args: Record<string, unknown>) => {
  const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json' }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  return res.json().result;
};

test('the synced catalog is searchable in the user\'s words, with urn:air identifiers and reasons', async () => {
  const res = await ard('kubernetes');
  assert.equal(res.status, 200);
  assert.ok(res.body.count > 0);
  const top = res.body.hits[0];
  assert.match(top.identifier, /^urn:air:[^:]+:mcp:/);
  assert.equal(top.source, 'catalog');
  assert.match(`${top.server} ${top.description}`, /kubernetes|k8s/i);
  assert.ok(top.why.length > 0, 'says why it matched');
  assert.ok(top.score > 0 && top.score <= 100);
  const misspelled = await ard('kubernetse');
  assert.ok(misspelled.body.hits.slice(0, 10).some((h: { server: string }) => /kubernetes/i.test(h.server)), 'a transposition still finds kubernetes');
  const described = await ard('keep my notes and pages in my workspace wiki');
  assert.ok(described.body.hits.slice(0, 10).some((h: { server: string }) => /notion/i.test(h.server)), 'a need in other words finds notion');
  const post = await postJson(app, '/api/ard/search', { q: 'kubernetes', limit: 3 });
  assert.equal(post.status, 200);
  assert.equal(post.body.hits.length, 3);
  assert.deepEqual(post.body.hits.map((h: { identifier: string }) => h.identifier), res.body.hits.slice(0, 3).map((h: { identifier: string }) => h.identifier));
});

test('a listing that goes Live is found on the next poll, with its id and demo; one that leaves is not', async () => {
  const { body } = await postJson(app, '/api/publish', { url: agent.cardUrl });
  await waitForLane(app, body.id, ['active']);
  await app.services.search.poll();
  const found = await ard('translate short texts into french');
  const hit = found.body.hits.find((h: { listing_id?: string }) => h.listing_id === body.id);
  assert.ok(hit, 'the Live agent is a hit');
  assert.equal(hit.source, 'listing');
  assert.equal(hit.kind, 'agent');
  assert.equal(hit.identifier, `urn:air:${new URL(app.config.publicBaseUrl).hostname}:agent:${body.id}`, 'a listing is Rollcall\'s: its host publishes it');
  assert.equal(hit.status_url, `${app.config.publicBaseUrl}/api/listings/status?id=${body.id}`);
  assert.deepEqual([hit.next_step.tool, hit.next_step.args], ['take_demo', { listing_id: body.id }]);
  assert.equal(hit.take_demo, undefined, 'the demo request is in the status answer, not in every hit');
  assert.equal(typeof hit.trust.rank, 'number', 'trust signals are reported beside relevance');
  await setListingState(app, body.id, { lane: 'dormant', lane_reason: 'talk_absent' }, app.clock.now().toISOString());
  await app.services.search.poll();
  assert.ok(!(await ard('translate short texts into french')).body.hits.some((h: { listing_id?: string }) => h.listing_id === body.id), 'a dormant listing leaves the index');
  await setListingState(app, body.id, { lane: 'active', lane_reason: null }, app.clock.now().toISOString());
  await app.services.search.poll();
});

test('another instance on the same database sees the change after its own poll', async () => {
  const other = await startApp({ joinStore: app.store, env: ENV });
  try {
    const { body } = await postJson(app, '/api/publish', { url: `${agent.baseUrl}/team/weather/agent-card.json` });
    await waitForLane(app, body.id, ['active']);
    await other.services.search.poll();
    const res = await getJson(other, `/api/ard/search?q=${encodeURIComponent('translate text')}&kind=agent`);
    assert.ok(res.body.hits.some((h: { listing_id?: string }) => h.listing_id === body.id), `seen by the other instance (${engine})`);
  } finally {
    await other.close();
  }
});

test('search_active and match_capability use the same engine', async () => {
  const active = await tool('search_active', { q: 'translate', kind: 'agent' });
  assert.ok(active.structuredContent.hits.length > 0);
  assert.ok(active.structuredContent.hits.every((h: { source: string; kind: string }) => h.source === 'listing' && h.kind === 'agent'));
  // The translator's probe filed it by its words (translate, translation): communication.
  const byRank = await tool('search_active', { category_id: 'communication' });
  assert.ok(byRank.structuredContent.hits.length > 0, 'without q: the Live listings of the category by rank');
  assert.equal((await tool('search_active', { category_id: 'other' })).structuredContent.count, 0, 'no Live listing is left unfiled here');
  const none = await tool('search_active', { q: 'translate', category_id: 'finance' });
  assert.equal(none.structuredContent.count, 0);
  const matched = await tool('match_capability', { capabilities: ['translate text'] });
  assert.ok(matched.structuredContent.count > 0);
  const first = matched.structuredContent.hits[0];
  assert.deepEqual(first.matched, ['translate text']);
  assert.match(first.capability_hash, /^[0-9a-f]{64}$/);
  assert.equal(first.trail_strength, 1, 'the probe that made it Live left a little attraction (traces/system.ts AUTO.probeLive)');
});

/** A POST to the ARD API's search. */
const ardPost = (body: unknown) => postJson(app, '/search', body);
const REGISTRY = () => `${app.config.publicBaseUrl}/`;

test('POST /search answers the ARD API: catalog entries with media types, URIs and projected identifiers, paged by pageToken', async () => {
  const page1 = await ardPost({ query: { text: 'github issues' }, pageSize: 5 });
  assert.equal(page1.status, 200);
  assert.deepEqual(ardSearchResponseProblems(page1.body), [], 'ard-spec 5fa2f5a ard.openapi.yaml SearchResponse');
  assert.equal(page1.body.results.length, 5);
  assert.equal(page1.body.ok, undefined);
  assert.equal(page1.body.nextPageToken, undefined);
  for (const r of page1.body.results) {
    assert.equal(r.source, REGISTRY(), 'source: the URL of the registry that indexed it');
    assert.equal(r.type, 'application/mcp-server-card+json');
    assert.doesNotMatch(r.identifier, /%/);
    // A catalog server's identifier is its reverse-DNS name projected: io.github.user/name -> urn:air:user.github.io:mcp:name.
    assert.equal(r.metadata.origin, 'catalog');
    const [namespace, name] = r.metadata.server.split('/');
    assert.equal(r.identifier, `urn:air:${namespace.split('.').reverse().join('.')}:mcp:${name}`);
    assert.deepEqual(serverCardProblems(r.data), [], 'an MCP Server Card inline, valid against SEP-2127');
    assert.equal(r.data.name, r.metadata.server);
  }
  const page2 = await ardPost({ query: { text: 'github issues' }, pageSize: 5, pageToken: page1.body.pageToken });
  assert.equal(page2.status, 200);
  const ids1 = new Set(page1.body.results.map((r: { identifier: string }) => r.identifier));
  assert.ok(page2.body.results.length > 0 && page2.body.results.every((r: { identifier: string }) => !ids1.has(r.identifier)), 'pages do not repeat');
  const referrals = await ardPost({ query: { text: 'github issues' }, federation: 'referrals', pageSize: 1 });
  assert.deepEqual(referrals.body.referrals, [], 'no upstream registry to refer to');
  assert.deepEqual(ardSearchResponseProblems(referrals.body), []);
});

test('POST /search filters by type, publisher and identifier; an MCP listing comes with a server card to connect by', async () => {
  const mcp = await startModernMcp({ host: '127.0.0.7', info: { name: 'weather-now', title: 'Weather now' } });
  try {
    const { body } = await postJson(app, '/api/publish', { url: mcp.url });
    await waitForLane(app, body.id, ['active']);
    await app.services.search.poll();
    const agents = await ardPost({ query: { text: 'translate text', filter: { type: ['application/a2a-agent-card+json'] } } });
    assert.equal(agents.status, 200);
    assert.deepEqual(ardSearchResponseProblems(agents.body), []);
    assert.ok(agents.body.results.length > 0 && agents.body.results.every((r: { type: string }) => r.type === 'application/a2a-agent-card+json'));
    const translator = agents.body.results.find((r: { url: string }) => r.url === agent.cardUrl);
    assert.ok(translator, 'an agent entry points at its card');
    const host = new URL(app.config.publicBaseUrl).hostname;
    assert.equal(translator.identifier, `urn:air:${host}:agent:${translator.metadata.listingId}`);
    // Rollcall publishes its listings: its host's filter keeps them and no catalog server.
    const weather = await ardPost({ query: { text: 'current weather for a city', filter: { type: 'application/mcp-server-card+json', publisher: host } } });
    assert.equal(weather.status, 200);
    assert.deepEqual(weather.body.results.map((r: { identifier: string }) => r.identifier), [`urn:air:${host}:mcp:${body.id}`]);
    const card = weather.body.results[0].data;
    assert.deepEqual(serverCardProblems(card), []);
    assert.equal(card.name, `${host.split('.').reverse().join('.')}/${body.id}`, 'the name its identifier projects from');
    assert.equal(card.version, '2.0.1', 'the version its serverInfo gave the probe');
    assert.equal(weather.body.results[0].version, '2.0.1');
    assert.deepEqual(card.remotes, [{ type: 'streamable-http', url: mcp.url }], 'the card says where to connect');
    assert.equal((await ardPost({ query: { text: 'translate text', filter: { type: 'application/x-skill' } } })).body.results.length, 0, 'a media type Rollcall does not list');
    const one = await ardPost({ query: { text: 'translate text', filter: { identifier: translator.identifier } } });
    assert.deepEqual(one.body.results.map((r: { identifier: string }) => r.identifier), [translator.identifier]);
  } finally {
    await mcp.close();
  }
});

test('ARD errors are {errorCode, message}; POST /explore is 501; old identifiers resolve for 90 days with a Sunset', async () => {
  const bad: [unknown, string][] = [
    [{ query: { text: 'github', filter: { kind: 'mcp' } } }, 'query.filter.kind'],
    [{ query: {} }, 'query.text'],
    [{ query: { text: 'the and of' } }, 'query.text'],
    [{ query: { text: 'github' }, pageToken: 'x' }, 'pageToken'],
    [{ query: { text: 'github' }, pageSize: 0 }, 'pageSize'],
    [{ query: { text: 'github' }, federation: 'everywhere' }, 'federation'],
    [{ query: { text: 'github' }, mystery: 1 }, 'mystery'],
    [[1], '(root)'],
  ];
  for (const [body, field] of bad) {
    const res = await ardPost(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.deepEqual(ardErrorProblems(res.body), [], JSON.stringify(body));
    assert.equal(res.body.errorCode, 'INVALID_ARGUMENT');
    assert.equal(res.body.field, field, JSON.stringify(body));
    assert.ok(res.body.message.includes(field), res.body.message);
  }
  for (const body of [{ resultType: { facets: [{ field: 'type' }] } }, {}]) {
    const explore = await postJson(app, '/explore', body);
    assert.equal(explore.status, 501, 'Explore is not implemented, whatever is asked');
    assert.deepEqual(ardErrorProblems(explore.body), []);
    assert.equal(explore.body.errorCode, 'UNIMPLEMENTED');
  }

  const [hit] = (await ardPost({ query: { text: 'kubernetes' }, pageSize: 1 })).body.results;
  const resolve = (id: string) => app.http.inject({ method: 'GET', url: `/api/ard/resolve?identifier=${encodeURIComponent(id)}` });
  const current = await resolve(hit.identifier);
  assert.equal(current.statusCode, 200);
  assert.deepEqual(current.json().entry, (({ score: _s, source: _src, ...entry }) => entry)(hit));
  assert.equal(current.headers.sunset, undefined);
  const host = new URL(app.config.publicBaseUrl).hostname;
  const old = `urn:air:${host}:mcp:${encodeURIComponent(hit.metadata.server)}`;
  const replaced = await resolve(old);
  assert.equal(replaced.statusCode, 200);
  assert.equal(replaced.json().entry.identifier, hit.identifier);
  assert.deepEqual(replaced.json().replaced, { identifier: old, by: hit.identifier, resolves_until: LEGACY_AIR_UNTIL });
  assert.equal(replaced.headers.sunset, new Date(LEGACY_AIR_UNTIL).toUTCString());
  assert.equal((await resolve(`urn:air:${host}:mcp:no-such-server`)).statusCode, 404);
  // The earlier form in a search filter finds the entry under its current identifier.
  assert.deepEqual((await ardPost({ query: { text: 'kubernetes', filter: { identifier: [old] } } })).body.results.map((r: { identifier: string }) => r.identifier), [hit.identifier]);
  const clock = app.clock as ManualClock;
  const now = clock.now();
  clock.set(new Date(Date.parse(LEGACY_AIR_UNTIL) + 1000));
  try {
    assert.equal((await resolve(old)).statusCode, 404, 'past 90 days the earlier form names nothing');
    assert.equal((await resolve(hit.identifier)).statusCode, 200);
  } finally {
    clock.set(now);
  }
});

test('empty, junk and out-of-range requests are clear 400s; a need nothing serves finds little', async () => {
  for (const q of ['', '   ', '!!!???', 'the and of']) {
    const res = await ard(q);
    assert.equal(res.status, 400, JSON.stringify(q));
    assert.ok(['invalid_query', 'invalid_input'].includes(res.body.error.code), q);
  }
  for (const extra of ['&limit=0', '&limit=101', '&limit=x', '&kind=robot']) {
    const res = await ard('kubernetes', extra);
    assert.equal(res.status, 400, extra);
  }
  const noQ = await getJson(app, '/api/ard/search');
  assert.equal(noQ.status, 400);
  const nothing = await ard('underwater basket weaving lessons for goldfish');
  assert.ok(nothing.body.count <= 2, `a need nothing serves: ${nothing.body.count} hits`);
  const viaTool = await tool('ard_search', { q: '' });
  assert.equal(viaTool.isError, true);
});

test('every query is logged with its hit count and no caller identity', async () => {
  await ard('kubernetes clusters');
  // The log is written after the answer: wait for it.
  let entry: Awaited<ReturnType<typeof recentQueries>>[number] | undefined;
  for (let i = 0; i < 100 && !entry; i++) {
    entry = (await recentQueries(app.services.db.kysely, 50)).find((q) => q.text === 'kubernetes clusters');
    if (!entry) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(entry, 'logged');
  assert.equal(typeof entry.hits, 'number');
  assert.equal(entry.tool, 'ard_search');
  assert.deepEqual(Object.keys(entry).sort(), ['at', 'hits', 'text', 'tool']);
});

test('with the poll on its timer, a renamed Live listing is found by its new name on another instance', async () => {
  const other = await startApp({ joinStore: app.store, env: { ...ENV, SEARCH_POLL_MS: '50' } });
  try {
    const { body } = await postJson(app, '/api/publish', { url: `${agent.baseUrl}/team/rename/agent-card.json` });
    await waitForLane(app, body.id, ['active']);
    await setListingState(app, body.id, { name: 'Quillwort Glossary Keeper', description: 'Keeps a glossary of quillwort terms.' }, app.clock.now().toISOString());
    let hits: { listing_id?: string; name: string }[] = [];
    for (let i = 0; i < 200 && !hits.some((h) => h.listing_id === body.id); i++) {
      await new Promise((r) => setTimeout(r, 25));
      hits = (await getJson(other, `/api/ard/search?q=${encodeURIComponent('quillwort glossary')}`)).body.hits;
    }
    const hit = hits.find((h) => h.listing_id === body.id);
    assert.ok(hit, 'found by the new name without anyone calling poll()');
    assert.equal(hit.name, 'Quillwort Glossary Keeper');
  } finally {
    await other.close();
  }
});
