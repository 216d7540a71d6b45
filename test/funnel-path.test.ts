// The funnel end to end (SPEC.md 1.4, 2.1, 3.1, 5.2) through the real doors: a live MCP
// server (server-everything) and a live A2A agent are published and probed; their owners (owner
// token as Authorization: Bearer) take their demos over MCP with the official SDK client (real
// artifacts, a product access token scoped to them, shown once), leave ultra feedback naming their
// listings (a founding seat widens the same token), then open the product with the token
// (/api/products/access, /api/products/export, install_product). A stranger's demo is its own and
// its feedback takes no seat. Badges and rank move with each step and show in the active list's
// order; bad tokens get one 401.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { setListingState } from './helpers/state.ts';
import { waitForLane } from './helpers/wait.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { newClaimSpots } from './peers/claim-spots.ts';
import { revokeListingToken } from '../src/access/store.ts';
import { findComposition } from '../src/mesh/store.ts';
import { addressHash } from '../src/metering/caller.ts';

let app: TestApp;
/** A caller without an owner token (a stranger to every listing). */
let t: Tools;
/** The owners of the live MCP server and the live agent, each with its owner token. */
let mcpOwner: Tools;
let agentOwner: Tools;
const ownerTokens = {} as Record<'mcp' | 'agent', string>;
const agentProofs = newClaimSpots();
let everything: Peer;
let agent: AgentPeer;
const ids = {} as Record<'mcp' | 'agent' | 'twin' | 'queued' | 'r1' | 'r2' | 'r3', string>;

/** Publishes a URL and then sets the listing's state directly (Live with the given tools, or another lane). */
async function seed(url: string, patch: Parameters<typeof setListingState>[2]): Promise<string> {
  const res = await postJson(app, '/api/publish', { url });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  // The app probes what is published (tests resolve no public names): let that probe fail first.
  await waitForLane(app, res.body.listing_id, ['failed']);
  const now = app.clock.now().toISOString();
  await setListingState(app, res.body.listing_id, { live_since: patch.lane === 'active' ? now : null, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probed_at: now, ...patch }, now);
  return res.body.listing_id;
}

const tools = (items: { name: string; description: string; params?: { name: string; required: boolean }[] }[]) =>
  JSON.stringify({ names: items.map((i) => i.name), items: items.map((i) => ({ params: [], ...i })) });

before(async () => {
  // The agent listens on a loopback address of its own: another owner domain than the MCP server's 127.0.0.1.
  [everything, agent] = await Promise.all([startEverything(), startA2aAgent({ shape: '1.0', host: '127.0.0.2', claims: agentProofs })]);
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0' } });
  t = await connect(app);
  await t.client.listTools(); // the SDK client then checks every result against the tool's outputSchema
  // The server as localhost, a name its owner's DNS record can prove (the agent proves by its file).
  const mcp = await postJson(app, '/api/publish', { url: everything.url.replace('127.0.0.1', 'localhost') });
  const ag = await postJson(app, '/api/publish', { url: agent.cardUrl });
  ids.mcp = mcp.body.listing_id;
  ids.agent = ag.body.listing_id;
  for (const id of [ids.mcp, ids.agent]) {
    const s = await waitForLane(app, id, ['active', 'failed']);
    assert.equal(s.lane, 'active', `${s.lane_reason}: ${JSON.stringify(s.probe)}`);
  }
  ids.twin = await seed('https://echo-twin.example.org/mcp', { lane: 'active', kind: 'mcp', name: 'Echo Twin', description: 'Echoes and adds numbers', probe_score: 40, capabilities: tools([{ name: 'echo', description: 'Echo back the message', params: [{ name: 'message', required: true }] }, { name: 'add', description: 'Add two numbers' }]) });
  ids.queued = await seed('https://not-live.example.org/mcp', { lane: 'queued', lane_reason: null, kind: 'mcp', name: 'Not Live Yet', capabilities: tools([{ name: 'echo', description: 'Echo' }]) });
  // Three owner domains of their own (rank-1.example.org and rank-2.example.org would be one, example.org).
  for (const n of [1, 2, 3] as const) {
    ids[`r${n}`] = await seed(`https://rank${n}-example.org/mcp`, { lane: 'active', kind: 'mcp', name: `Rank Probe ${n}`, probe_score: 30, capabilities: tools([{ name: `weather_${n}`, description: 'Weather forecast for a city' }]) });
  }
  await app.services.search.poll();
  ownerTokens.mcp = await ownListing(app, ids.mcp);
  ownerTokens.agent = await ownListing(app, ids.agent, { file: agentProofs });
  mcpOwner = await connect(app, { headers: asOwner(ownerTokens.mcp), base: t.base });
  agentOwner = await connect(app, { headers: asOwner(ownerTokens.agent), base: t.base });
});
after(async () => {
  await Promise.all([mcpOwner.close(), agentOwner.close()]);
  await t.close();
  await app.close();
  await Promise.all([everything.close(), agent.close()]);
});

const access = (query: string, headers: Record<string, string> = {}) => getJson(app, `/api/products/access?${query}`, headers);
const q = encodeURIComponent;

test(`the funnel tools are listed with schemas (${engine})`, async () => {
  const { tools: listed } = await t.client.listTools();
  for (const name of ['take_demo', 'leave_feedback', 'complete_founding_path', 'get_founding_deal', 'co_sign_founding', 'get_co_sign_pairs', 'install_product', 'export_skills']) {
    const tool = listed.find((x) => x.name === name);
    assert.ok(tool, name);
    assert.ok((tool.description ?? '').length > 80, name);
    assert.ok(tool.outputSchema, name);
  }
  assert.ok(!listed.some((x) => x.name === 'take_demo_get' || x.name === 'product_access'), 'REST-only operations are not tools');
});

test(`a live MCP: demo -> ultra feedback -> founding seat -> access, export, install (${engine})`, async () => {
  const before = (await getJson(app, `/api/listings/status?id=${ids.mcp}`)).body;
  assert.deepEqual([before.badge, before.rank_delta, before.demoed], ['never_demoed', -15, false]);

  // The owner's demo over MCP: the server's tools with ready calls, partner matches for them and a stored composition.
  const demo = await mcpOwner.ok('take_demo', { listing_id: ids.mcp });
  assert.equal(demo.sku, 'mcp_mesh');
  assert.equal(demo.first_demo, true);
  assert.match(demo.access_token, /^rc_[A-Za-z0-9_-]{43}$/);
  const demoToken = demo.access_token as string;
  assert.deepEqual([demo.access.scope, demo.access.opens], ['demo', ['mesh']]);
  assert.deepEqual(demo.artifacts.tools.find((x: any) => x.call.name === 'echo').call, { name: 'echo', arguments: { message: 'Hello from Rollcall' } });
  const twin = demo.artifacts.matches.hits.find((h: any) => h.listing_id === ids.twin);
  assert.ok(twin, 'the twin serving echo is a partner match');
  assert.deepEqual(twin.via, [{ capability: 'echo', tool: 'echo', relevance: 100 }]);
  // The composition covers what the network offers that the server lacks (the mesh complement).
  assert.equal(demo.artifacts.composition.rule, 'supply');
  assert.ok(demo.artifacts.composition.capabilities.includes('add'));
  assert.ok(demo.artifacts.composition.steps.some((s: any) => s.listing_id === ids.twin && s.covers.includes('add')));
  assert.ok(!demo.artifacts.matches.hits.some((h: any) => h.listing_id === ids.mcp), 'never its own partner');
  const stored = await findComposition(app.services.db.kysely, demo.artifacts.composition.composition_id);
  assert.equal(stored?.owner, `listing:${ids.mcp}`, 'the owner\'s demo is stored as the listing\'s own');
  assert.equal(stored?.listing_id, ids.mcp);
  // The next steps name what only the caller adds: its rating, its sentence and the owner token.
  assert.deepEqual(demo.next_steps.map((s: any) => s.tool), ['leave_feedback', 'complete_founding_path']);
  for (const step of demo.next_steps) {
    assert.deepEqual(step.needs, ['rating', 'body', 'owner_token']);
    assert.ok(!('access_token' in step.args) && !('rating' in step.args) && !('body' in step.args), JSON.stringify(step.args));
  }
  assert.deepEqual([demo.badge, demo.rank_delta], ['demoed_no_feedback', -5]);
  // Stored hashed, held by the owner; marked demoed; traced; a public event without personal data.
  const row = await app.sql.selectFrom('access_tokens').selectAll().where('listing_id', '=', ids.mcp).executeTakeFirstOrThrow();
  assert.deepEqual([row.scope, row.holder], ['demo', `listing:${ids.mcp}`]);
  assert.notEqual(row.hash, demoToken);
  assert.ok(!JSON.stringify(await app.sql.selectFrom('access_tokens').selectAll().execute()).includes(demoToken));
  const mid = (await getJson(app, `/api/listings/status?id=${ids.mcp}`)).body;
  assert.deepEqual([mid.badge, mid.rank_delta, mid.demoed, mid.activation.stage], ['demoed_no_feedback', -5, true, 'demo']);
  // The owner's demo leaves its attraction (2) on the listing, beside the probe's own (1 for going Live), and it moves the field.
  const attraction = await app.sql.selectFrom('trace_deposits').select(['intensity', 'moves']).where('subject_key', '=', `listing:${ids.mcp}`).where('channel', '=', 'attraction').where('depositor', '=', 'system').execute();
  assert.ok(attraction.some((d) => Number(d.intensity) === 2 && Number(d.moves) === 1), JSON.stringify(attraction));

  // The demo token opens the demo's artifact only.
  const mesh = await access(`token=${q(demoToken)}&artifact=mesh`);
  assert.equal(mesh.status, 200, JSON.stringify(mesh.body));
  assert.equal(mesh.body.content.compositions[0].composition_id, demo.artifacts.composition.composition_id);
  for (const artifact of ['kernel', 'skills']) {
    const locked = await access(`token=${q(demoToken)}&artifact=${artifact}`);
    assert.equal(locked.status, 403);
    assert.equal(locked.body.error.code, 'scope_insufficient');
  }
  assert.equal((await getJson(app, `/api/products/export?token=${q(demoToken)}`)).status, 403);

  // The owner's repeat demo (REST, the listing's own ready-made body) serves the artifacts without the token.
  const activeRow = (await getJson(app, '/api/listings/active')).body.mcps.find((m: { id: string }) => m.id === ids.mcp);
  const again = await postJson(app, '/api/products/demo', activeRow.take_demo.body, asOwner(ownerTokens.mcp));
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.first_demo, false);
  assert.equal(again.body.access_token, null);
  assert.match(again.body.access.note, /shown once/);
  assert.equal(again.body.artifacts.composition.composition_id, demo.artifacts.composition.composition_id);
  // A stranger's demo is its own: its first one issues it a demo token of its own (and stores its own composition), a repeat shows none.
  const strangers = await getJson(app, `/api/products/demo?listing_id=${ids.mcp}`);
  assert.equal(strangers.status, 200, JSON.stringify(strangers.body));
  assert.equal(strangers.body.first_demo, true);
  assert.match(strangers.body.access_token, /^rc_/);
  assert.notEqual(strangers.body.access_token, demoToken);
  assert.notEqual(strangers.body.artifacts.composition.composition_id, demo.artifacts.composition.composition_id);
  const viaGet = await getJson(app, `/api/products/demo?listing_id=${ids.mcp}`);
  assert.equal(viaGet.status, 200);
  assert.equal(viaGet.body.first_demo, false);
  assert.equal(viaGet.body.access_token, null);
  const holders = await app.sql.selectFrom('access_tokens').select(['holder', 'scope']).where('listing_id', '=', ids.mcp).orderBy('holder').execute();
  assert.deepEqual(holders.map((h) => [h.holder, h.scope]), [[`addr:${addressHash('127.0.0.1')}`, 'demo'], [`listing:${ids.mcp}`, 'demo']]);

  // A stranger's feedback naming the listing is recorded and takes no seat; the owner's takes one, with
  // its proof read for the grant, and a new full token shown once (its demo token stops).
  const stranger = await t.ok('leave_feedback', { agent_name: 'Everything', listing_id: ids.mcp, rating: 4, body: 'The mesh demo found a real partner for my echo tool.' });
  assert.equal(stranger.founding.outcome, 'unclaimed');
  // Its next step is the claim (the seat goes to the owner), not the deal.
  assert.deepEqual([stranger.next_step.tool, stranger.next_step.args], ['claim_listing', { listing_id: ids.mcp }]);
  assert.equal(stranger.access_token, undefined);
  assert.equal((await getJson(app, `/api/listings/status?id=${ids.mcp}`)).body.founding_verified, false);
  const fb = await mcpOwner.ok('leave_feedback', { agent_name: 'Everything', listing_id: ids.mcp, rating: 4, body: 'The mesh demo found a real partner for my echo tool.', surface: 'demo' });
  assert.equal(fb.founding.outcome, 'seat');
  assert.equal(fb.founding.seat, 1);
  assert.deepEqual([fb.founding.proof.method, fb.founding.proof.where, fb.founding.proof.found], ['dns_txt', '_rollcall.localhost', true]);
  const token = fb.access_token as string;
  assert.match(token, /^rc_[A-Za-z0-9_-]{43}$/);
  assert.notEqual(token, demoToken);
  assert.equal(fb.founding.access_token, token);
  assert.deepEqual([fb.founding.deal.seats.taken, fb.founding.deal.seats.left], [1, 99]);
  assert.deepEqual([fb.next_step.tool, fb.next_step.args], ['install_product', { access_token: token }]);
  const deal = await t.ok('get_founding_deal', { listing_id: ids.mcp });
  assert.equal(deal.listing.holds.seat, 1);
  const scopes = await app.sql.selectFrom('access_tokens').select(['holder', 'scope']).where('listing_id', '=', ids.mcp).where('revoked_at', 'is', null).orderBy('holder').execute();
  assert.deepEqual(scopes.map((h) => h.scope), ['demo', 'full'], 'the owner holds a new full token, the stranger its own demo token');
  assert.equal((await access(`token=${q(demoToken)}&artifact=mesh`)).status, 401, 'the owner\'s demo token stopped with the grant');
  const after = (await getJson(app, `/api/listings/status?id=${ids.mcp}`)).body;
  assert.deepEqual([after.badge, after.rank_delta, after.founding_verified, after.feedbacked], ['founding_verified', 120, true, true]);
  // A seat is the whole discount: nothing is left to buy, and the status says so.
  assert.deepEqual([after.activation.stage, after.activation.next], ['discount', null]);
  // After the seat the status points forward, to the value tools, not back at itself.
  assert.deepEqual([after.next_step.tool, after.next_step.args, after.next_step.needs], ['improve_kernel', { listing_id: ids.mcp, agent_name: after.name }, ['goals']]);
  assert.match(after.next, /^improve_kernel /);

  // The full token opens everything, as the token query; sent as a Bearer it opens nothing (the 401 of a missing token).
  const kernel = await access(`token=${q(token)}&artifact=kernel`);
  assert.equal(kernel.status, 200, JSON.stringify(kernel.body));
  assert.equal(kernel.body.content.source, 'card');
  assert.ok(kernel.body.content.system_prompt_short.length <= 600);
  assert.match(JSON.stringify(kernel.body.content.artifact.role), /Everything Reference Server/);
  const bearer = await access('artifact=loop', { authorization: `Bearer ${token}` });
  assert.deepEqual([bearer.status, bearer.body.error.code, bearer.body.error.field], [401, 'invalid_token', 'access_token']);
  const loop = await access(`artifact=loop&token=${q(token)}`);
  assert.equal(loop.status, 200);
  assert.equal(loop.body.content.request.params.arguments.listing_id, ids.mcp);
  const skills = await access(`artifact=skills&token=${q(token)}`);
  assert.match(skills.body.content.skill_md, /^---\nname: rollcall-everything-reference-server\ndescription: "/);
  assert.match(skills.body.content.skill_md, /"name": "echo"/);

  const md = await getJson(app, `/api/products/export?token=${q(token)}&format=skills`);
  assert.equal(md.status, 200);
  assert.equal(md.body.filename, 'SKILL.md');
  assert.equal(md.body.skill_md, skills.body.content.skill_md);
  const json = await getJson(app, `/api/products/export?token=${q(token)}&format=json`);
  assert.ok(json.body.skills.skills.some((s: any) => s.name === 'echo' && s.params.some((p: any) => p.name === 'message')));
  const exported = await t.ok('export_skills', { access_token: token });
  assert.equal(exported.skill_md, md.body.skill_md);

  const mismatch = await t.fail('install_product', { access_token: token, listing_id: ids.twin });
  assert.deepEqual([mismatch.code, mismatch.field], ['token_mismatch', 'listing_id']);
  const bundle = await t.ok('install_product', { access_token: token, listing_id: ids.mcp });
  assert.deepEqual([bundle.scope, bundle.opens, bundle.locked], ['full', ['kernel', 'loop', 'mesh', 'skills'], []]);
  assert.equal(bundle.products.mesh.count, 1);
  assert.equal(bundle.mcp_config.mcpServers.rollcall.url, `${app.config.publicBaseUrl}/api/mcp`);
  assert.ok(!JSON.stringify(bundle.mcp_config).includes(token), 'the config refers to the token, never contains it');
  // The loop acts for the listing: its next step needs the owner token, and the owner runs it.
  assert.deepEqual([bundle.next_step.tool, bundle.next_step.args, bundle.next_step.needs], ['run_loop_tick', { listing_id: ids.mcp }, ['owner_token']]);
  const tick = await mcpOwner.ok(bundle.next_step.tool, bundle.next_step.args);
  assert.equal(tick.ticked, false, 'no stored kernel yet for an MCP: the tick says how to make one');

  // The public feed: the first demo and the counted feedback, with the rating only.
  const feed = (await getJson(app, '/api/feed')).body.items.filter((i: any) => i.listing.id === ids.mcp);
  assert.deepEqual(feed.slice(0, 3).map((i: any) => i.event), ['feedback.left', 'feedback.left', 'demo.taken']);
  assert.equal(feed.filter((i: any) => i.event === 'demo.taken').length, 1, 'demo.taken only for the first demo by anyone');
  assert.equal(feed[0].rating, 4);
  assert.ok(!JSON.stringify(feed).includes('echo tool'), 'no feedback text in the feed');
});

test(`an agent's alive demo and its feedback in one call: complete_founding_path (${engine})`, async () => {
  // A stranger's path is its own: its demo (a kernel kept under its agent name) and its feedback, no seat.
  const strangers = await t.ok('complete_founding_path', { listing_id: ids.agent, agent_name: 'Polyglot', rating: 5, body: 'The kernel built from my card named my translation skill exactly.' });
  assert.equal(strangers.demo.taken_now, true);
  assert.equal(strangers.founding.outcome, 'unclaimed');
  assert.match(strangers.access_token, /^rc_/, 'the stranger gets its own demo token');
  assert.equal(strangers.founding.access_token, undefined);
  assert.deepEqual([strangers.badge, strangers.rank_delta], ['demoed_no_feedback', -5]);
  assert.equal((await app.sql.selectFrom('kernel_versions').select('version').where('subject', '=', `listing:${ids.agent}`).execute()).length, 0, 'nothing is stored as the listing\'s own');

  // The owner's path: its own demo, its feedback and the seat, in one call.
  const path = await agentOwner.ok('complete_founding_path', { listing_id: ids.agent, agent_name: 'Polyglot', rating: 5, body: 'The kernel built from my card named my translation skill exactly.' });
  assert.equal(path.demo.taken_now, true);
  const { kernel, loop_tick, network } = path.demo.artifacts;
  assert.equal(kernel.version, 1);
  assert.ok(kernel.artifact.objectives.some((o: any) => /Translate text/.test(o.goal)), 'goals come from the card\'s skills');
  assert.ok(kernel.artifact.system_prompt_short.length <= 600);
  assert.equal(loop_tick.version, 2);
  assert.equal(loop_tick.previous_version, 1);
  assert.ok(loop_tick.diff);
  assert.ok(Array.isArray(network.strongest.attraction));
  assert.equal(path.founding.outcome, 'seat');
  assert.match(path.access_token, /^rc_/);
  assert.notEqual(path.access_token, strangers.access_token);
  assert.equal(path.founding.access_token, path.access_token);
  assert.deepEqual([path.badge, path.rank_delta], ['founding_verified', 120]);
  const versions = await app.sql.selectFrom('kernel_versions').select(['version', 'kind']).where('subject', '=', `listing:${ids.agent}`).orderBy('version').execute();
  assert.deepEqual(versions.map((v) => [Number(v.version), v.kind]), [[1, 'improve'], [2, 'tick']]);

  // The token opens the stored kernel (the demo's tick) and the loop history.
  const k = await access(`token=${q(path.access_token)}&artifact=kernel`);
  assert.deepEqual([k.body.content.source, k.body.content.version], ['stored', 2]);
  assert.equal(path.next_step.tool, 'install_product');
  const bundle = await t.ok(path.next_step.tool, path.next_step.args);
  assert.equal(bundle.products.loop.kernel_version, 2);
  // A loop tick with the owner token works on the listing's kernel.
  const tick = await agentOwner.ok('run_loop_tick', { listing_id: ids.agent });
  assert.equal(tick.ticked, true);
  assert.equal(tick.previous_version, 2);

  // Again: no second demo, no second seat; without the owner token it is still only the stranger's own.
  const strangerAgain = await t.ok('complete_founding_path', { listing_id: ids.agent, agent_name: 'Polyglot', rating: 4, body: 'Second thoughts: the loop tick reason was very clear.' });
  assert.deepEqual([strangerAgain.demo.taken_now, strangerAgain.founding.outcome, strangerAgain.access_token], [false, 'unclaimed', undefined]);
  const again = await agentOwner.ok('complete_founding_path', { listing_id: ids.agent, agent_name: 'Polyglot', rating: 4, body: 'Second thoughts: the loop tick reason was very clear.' });
  assert.equal(again.demo.taken_now, false);
  assert.equal(again.founding.outcome, 'already_seated');
  assert.equal(again.access_token, undefined);
  assert.match(again.founding.message, /already holds founding seat/);
});

test(`next_steps of a first demo are valid calls once the caller adds what they need (${engine})`, async () => {
  const demo = await t.ok('take_demo', { name: 'Echo Twin', kind: 'mcp', sku: 'mcp_mesh' });
  assert.equal(demo.listing_id, ids.twin);
  const [feedback, path] = demo.next_steps;
  const written = { rating: 5, body: 'The partner matches listed exactly the tools my twin lacks.' };
  for (const step of [feedback, path]) assert.deepEqual(step.needs, ['rating', 'body', 'owner_token']);
  // Without the owner token the calls run and are recorded, but take no seat.
  assert.equal((await t.ok(feedback.tool, { ...feedback.args, ...written })).founding.outcome, 'unclaimed');
  // The owner adds its token: the seat, then the path finds it held.
  const owner = await connect(app, { headers: asOwner(await ownListing(app, ids.twin)), base: t.base });
  try {
    const fb = await owner.ok(feedback.tool, { ...feedback.args, ...written });
    assert.equal(fb.founding.outcome, 'seat');
    const done = await owner.ok(path.tool, { ...path.args, ...written });
    assert.equal(done.founding.outcome, 'already_seated');
  } finally {
    await owner.close();
  }
});

test(`demo errors: not Live, unknown, ambiguous or mismatched requests (${engine})`, async () => {
  const notLive = await t.fail('take_demo', { listing_id: ids.queued });
  assert.equal(notLive.code, 'not_live');
  assert.match(notLive.message, /not Live \(lane queued/);
  const rest = await getJson(app, `/api/products/demo?listing_id=${ids.queued}`);
  assert.equal(rest.status, 409);
  assert.equal(rest.body.error.code, 'not_live');
  assert.equal((await postJson(app, '/api/products/demo', { listing_id: ids.queued })).status, 409);
  assert.equal((await t.fail('complete_founding_path', { listing_id: ids.queued, agent_name: 'x', rating: 4, body: 'I could not take the demo of a listing still queued.' })).code, 'not_live');
  const cases: [Record<string, unknown>, number, string, string][] = [
    [{}, 400, 'invalid_input', 'listing_id'],
    [{ listing_id: 'lst_nobody' }, 404, 'not_found', 'listing_id'],
    [{ name: 'Echo Twin' }, 400, 'invalid_input', 'kind'],
    [{ name: 'Nobody Here', kind: 'mcp' }, 404, 'not_found', 'name'],
    [{ listing_id: ids.twin, kind: 'agent' }, 400, 'invalid_input', 'kind'],
    [{ listing_id: ids.twin, sku: 'alive' }, 400, 'invalid_input', 'sku'],
    [{ listing_id: ids.twin, sku: 'premium' }, 400, 'invalid_input', 'sku'],
    [{ mcp_url: 'https://unknown.example.org/mcp' }, 404, 'not_found', 'mcp_url'],
  ];
  for (const [body, status, code, field] of cases) {
    const res = await postJson(app, '/api/products/demo', body);
    assert.deepEqual([res.status, res.body.error.code, res.body.error.field], [status, code, field], JSON.stringify(body));
  }
  const noId = await getJson(app, '/api/products/demo');
  assert.deepEqual([noId.status, noId.body.error.field], [400, 'listing_id']);
  // By URL, as the listing's take_demo body gives it.
  const byUrl = await postJson(app, '/api/products/demo', { mcp_url: 'https://ECHO-TWIN.example.org/mcp' });
  assert.equal(byUrl.status, 200);
  assert.equal(byUrl.body.listing_id, ids.twin);
});

test(`bad tokens: one 401 for unknown, malformed, revoked and missing, at every door (${engine})`, async () => {
  const demo = await t.ok('take_demo', { listing_id: ids.r3 });
  const revoked = demo.access_token as string;
  assert.equal(await revokeListingToken(app.services.db.kysely, ids.r3, app.clock.now().toISOString()), true);
  const unknown = `rc_${'A'.repeat(43)}`;
  const bad = [unknown, 'rc_short', 'not a token', '', revoked, `${revoked}x`];
  const strip = (b: any) => ({ ...b, request_id: undefined });
  const first = await access(`token=${q(unknown)}&artifact=mesh`);
  assert.equal(first.status, 401);
  assert.equal(first.body.error.code, 'invalid_token');
  const missing = await access('artifact=mesh');
  assert.deepEqual([missing.status, missing.body.error.code, missing.body.error.message], [401, 'invalid_token', first.body.error.message]);
  for (const token of bad) {
    for (const res of [await access(`token=${q(token)}&artifact=mesh`), await getJson(app, `/api/products/export?token=${q(token)}`)]) {
      assert.equal(res.status, 401, token);
      assert.deepEqual(strip(res.body), strip(first.body), token);
    }
    // A product token never travels as a Bearer: sent so, it opens nothing (the 401 of a missing token).
    if (token !== '') assert.deepEqual(strip((await access('artifact=mesh', { authorization: `Bearer ${token}` })).body), strip(missing.body), token);
    const tool = await t.fail('install_product', { access_token: token });
    assert.deepEqual([tool.code, tool.message], [first.body.error.code, first.body.error.message]);
  }
  // A revoked token's demo is served again without a token and says so; no new token is made.
  const again = await t.ok('take_demo', { listing_id: ids.r3 });
  assert.equal(again.access_token, null);
  assert.equal(again.access.scope, null);
});

test(`badges and rank move with each step and order the active list (${engine})`, async () => {
  const order = async () => {
    const res = await getJson(app, '/api/listings/active?limit=1000');
    return res.body.mcps.map((m: any) => m.id).filter((id: string) => id === ids.r1 || id === ids.r2);
  };
  // Same probe score, both never demoed: id order.
  const start = await order();
  assert.deepEqual(start, [ids.r1, ids.r2].sort());
  const [other, last] = start as [string, string];
  const lastOwner = asOwner(await ownListing(app, last));
  const otherOwner = asOwner(await ownListing(app, other));
  // The second one's owner takes the demo: -5 beats -15.
  const demo = await postJson(app, '/api/products/demo', { listing_id: last }, lastOwner);
  assert.equal(demo.status, 200, JSON.stringify(demo.body));
  assert.deepEqual(await order(), [last, other]);
  // Real feedback on the first one without its owner token is recorded and moves nothing.
  const body = 'Listing went Live fast and the status page was clear.';
  const anonymous = await postJson(app, '/api/products/feedback', { listing_id: other, rating: 3, body });
  assert.equal(anonymous.status, 200, JSON.stringify(anonymous.body));
  assert.equal(anonymous.body.founding.outcome, 'unclaimed');
  assert.deepEqual(await order(), [last, other]);
  // Its owner's feedback without a demo (it is Live): a seat, +120.
  const fb = await postJson(app, '/api/products/feedback', { listing_id: other, rating: 3, body }, otherOwner);
  assert.equal(fb.status, 200, JSON.stringify(fb.body));
  assert.equal(fb.body.founding.outcome, 'seat');
  assert.match(fb.body.access_token, /^rc_/);
  assert.deepEqual(await order(), [other, last]);
  const view = (await getJson(app, '/api/listings/active?limit=1000')).body.mcps.find((m: any) => m.id === other);
  assert.deepEqual([view.badge, view.rank_delta, view.demoed], ['founding_verified', 120, false]);
  // The demoed one's owner feedback is a seat too: a new full token replaces the owner's demo token.
  const fb2 = await postJson(app, '/api/products/feedback', { listing_id: last, rating: 5, body: 'The partner matches listed exactly the tools I lacked.' }, lastOwner);
  assert.equal(fb2.body.founding.outcome, 'seat');
  assert.match(fb2.body.access_token, /^rc_/);
  assert.equal((await access(`token=${q(fb2.body.access_token)}&artifact=kernel`)).status, 200);
  assert.equal((await access(`token=${q(demo.body.access_token)}&artifact=kernel`)).status, 401);
});

test(`an unclaimed Live listing's next step is the claim, over MCP and REST, and the claim runs as suggested (${engine})`, async () => {
  const id = await seed('https://claim-first.example.org/mcp', { lane: 'active', kind: 'mcp', name: 'Claim First', probe_score: 50, capabilities: tools([{ name: 'echo', description: 'Echo back the message' }]) });
  const status = await t.ok('check_status', { id });
  assert.equal(status.claimed, false);
  assert.deepEqual([status.next_step.tool, status.next_step.args], ['claim_listing', { listing_id: id }]);
  const rest = (await getJson(app, `/api/listings/status?id=${id}`)).body;
  assert.deepEqual(rest.next_step, status.next_step);
  const claim = await t.ok(status.next_step.tool, status.next_step.args);
  assert.equal(claim.listing_id, id);
  assert.ok(claim.methods.length >= 2, JSON.stringify(claim.methods));
  assert.equal(claim.next_step.tool, 'verify_claim');
});
