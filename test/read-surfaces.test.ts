// The read surfaces of SPEC.md 4.1 (GET /api/products/opportunities, /learning, /improvement-log,
// /lifecycle, /preferences, /wtp, /discovery-pack, /founding-dogfood): each computed from stored
// data, described in /openapi.json, and changing when its data changes. list_opportunities and
// get_feedback_pricing are also tools (MCP door, official SDK client). Feedback without an owner
// token counts once per address and day, so the surfaces that count feedback are fed by the
// listing's owner (owner token: each distinct sentence counts) or from addresses of their own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { setListingState } from './helpers/state.ts';
import { fullAnswers } from './helpers/survey.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { DISCOVERY_LINKS } from '../src/registry/network-surfaces.ts';

const clock = new ManualClock('2026-11-10T09:00:00.000Z');
let app: TestApp;
let t: Tools;
/** The listing's owner (its owner token as Bearer). */
let owner: Tools;
let listing: string;

const SURFACES = ['opportunities', 'learning', 'improvement-log', 'lifecycle', 'preferences', 'wtp', 'discovery-pack', 'founding-dogfood'];
const now = () => clock.now().toISOString();
const get = async (surface: string, query = '') => {
  const r = await getJson(app, `/api/products/${surface}${query}`);
  assert.equal(r.status, 200, `${surface}: ${JSON.stringify(r.body).slice(0, 300)}`);
  assert.equal(r.body.ok, true);
  return r.body;
};

/** Waits for the query log (ard_search logs after it answers). */
async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

before(async () => {
  app = await startApp({ clock });
  t = await connect(app);
  listing = (await postJson(app, '/api/publish', { url: 'https://surfaces-target.example.org/mcp' })).body.listing_id;
  owner = await connect(app, { headers: asOwner(await ownListing(app, listing)), base: t.base });
});
after(async () => {
  await owner.close();
  await t.close();
  await app.close();
});

test(`every read surface is a route described in /openapi.json; two are tools as well (${engine})`, async () => {
  const openapi = (await getJson(app, '/openapi.json')).body;
  for (const s of SURFACES) {
    const op = openapi.paths[`/api/products/${s}`]?.get;
    assert.ok(op, s);
    assert.ok(op.summary, s);
  }
  assert.ok(openapi.paths['/api/products/feedback'].get);
  assert.ok(openapi.paths['/api/products/feedback'].post);
  const { tools } = await t.client.listTools();
  const names = tools.map((x) => x.name);
  for (const tool of ['list_opportunities', 'get_feedback_pricing']) assert.ok(names.includes(tool), tool);
  // The tools refuse arguments they do not know; REST ignores extra query parameters.
  assert.equal((await t.fail('list_opportunities', { capability: 'x' })).code, 'unknown_argument');
  assert.equal((await t.fail('get_feedback_pricing', { price: 3 })).code, 'unknown_argument');
  await get('opportunities', '?utm_source=x');
  for (const restOnly of ['list_feedback', 'product_learning', 'improvement_log', 'listing_lifecycle', 'feedback_preferences', 'discovery_pack', 'founding_dogfood', 'products_agent']) assert.equal(names.includes(restOnly), false, restOnly);
});

test(`opportunities: unmet searches, matches and composition gaps, each with a valid call (${engine})`, async () => {
  const empty = await t.ok('list_opportunities', {});
  assert.deepEqual(empty.opportunities, []);
  assert.equal(empty.next_step.tool, 'search_active');
  await t.ok(empty.next_step.tool, empty.next_step.args);

  for (let i = 0; i < 2; i++) assert.equal((await getJson(app, '/api/ard/search?q=Quantum%20invoice%20reconciliation')).status, 200);
  const logged = async () => (await app.sql.selectFrom('search_queries').select('id').where('text', 'like', '%invoice%').execute()).length >= 2;
  await until(logged, 'the search log');
  const first = await get('opportunities');
  assert.equal(first.opportunities.length, 1);
  const o = first.opportunities[0];
  assert.deepEqual([o.capability, o.asked, o.best_hits, o.asked_through, o.partner_gaps], ['quantum invoice reconciliation', 2, 0, ['ard_search'], 0]);
  assert.deepEqual(o.call, { tool: 'mesh_match', args: { capabilities: ['quantum invoice reconciliation'] }, why: o.call.why });
  assert.deepEqual(first.next_step.args, { capabilities: ['quantum invoice reconciliation'] });

  // Following the call: mesh_match finds nobody, logs the query and leaves a demand trace.
  const match = await t.ok(first.next_step.tool, first.next_step.args);
  assert.equal(match.hits.length, 0);
  // A composition the listing's owner plans that no Live partner can complete: the listing asks for a partner.
  const composed = await owner.ok('mesh_compose', { capabilities: ['quantum invoice reconciliation', 'haiku translation'], listing_id: listing });
  assert.deepEqual(composed.gaps.sort(), ['haiku translation', 'quantum invoice reconciliation']);
  const second = await t.ok('list_opportunities', { limit: 5 });
  const q = second.opportunities.find((x: any) => x.capability === 'quantum invoice reconciliation');
  assert.deepEqual([q.asked, q.asked_through, q.partner_gaps, q.listings_asking], [3, ['ard_search', 'mesh_match'], 1, [listing]]);
  assert.ok(q.demand > 0, 'mesh_match left a demand trace');
  assert.equal(q.score, Math.round((3 + 2 + q.demand) * 1000) / 1000);
  const haiku = second.opportunities.find((x: any) => x.capability === 'haiku translation');
  assert.deepEqual([haiku.asked, haiku.partner_gaps], [0, 1]);
  assert.equal(second.opportunities[0].capability, 'quantum invoice reconciliation', 'ranked by score');
  // Old demand leaves the window.
  clock.advance(15 * 86_400_000);
  assert.deepEqual((await get('opportunities')).opportunities, []);
  assert.equal((await get('opportunities', '?days=30')).opportunities.length, 2);
  assert.equal((await getJson(app, '/api/products/opportunities?days=0')).status, 400);
});

test(`learning and the improvement log follow feedback, kernels and loop ticks (${engine})`, async () => {
  clock.advance(86_400_000);
  const today = now().slice(0, 10);
  const before = await get('learning');
  assert.equal(before.days.some((d: any) => d.day === today), false);
  assert.deepEqual((await get('improvement-log')).entries, []);

  // The listing's owner is the learner: its feedback, its kernel and its tick (each distinct sentence of an owner counts).
  await owner.ok('leave_feedback', { agent_name: 'learner', rating: 2, body: 'Answers were slow and the output format broke my parser.' });
  const l1 = await get('learning');
  const d1 = l1.days.find((d: any) => d.day === today);
  assert.deepEqual([d1.feedback_items, d1.avg_rating, d1.themes, d1.kernels_built], [1, 2, { output_format: 1, latency: 1 }, 0]);
  assert.deepEqual(l1.themes.map((x: any) => [x.theme, x.count, x.callers]), [['latency', 1, 1], ['output_format', 1, 1]]);

  const goal = 'Reconcile the private ledger of Acme Widgets';
  const k = await owner.ok('improve_kernel', { agent_name: 'learner', goals: [goal] });
  clock.advance(60_000);
  await owner.ok('leave_feedback', { agent_name: 'learner', rating: 1, body: 'The answers are still slow and the JSON output is malformed.' });
  clock.advance(60_000);
  const tick = await owner.ok('run_loop_tick', { agent_name: 'learner' });
  assert.equal(tick.ticked, true);
  const l2 = await get('learning');
  const d2 = l2.days.find((d: any) => d.day === today);
  assert.deepEqual([d2.feedback_items, d2.kernels_built, d2.loop_ticks], [2, 1, 1]);
  assert.equal(l2.kernels.versions, 2);

  const log = await get('improvement-log');
  assert.deepEqual(log.entries.map((e: any) => [e.kind, e.version]), [['tick', 2], ['improve', 1]]);
  assert.equal(log.entries[1].id, k.kernel_id);
  assert.equal(log.entries[0].reason, tick.reason);
  assert.ok(log.entries[0].changed.added.length + log.entries[0].changed.reworded.length > 0);
  assert.ok(log.entries[1].themes.some((x: any) => x.theme === 'latency' && x.source === 'your_feedback'));
  assert.equal(JSON.stringify(log).includes('Acme'), false, "a caller's goals never appear");
  assert.equal(JSON.stringify(log).includes('learner'), false, "nor its name");
  assert.deepEqual((await get('improvement-log', '?kind=tick')).entries.map((e: any) => e.kind), ['tick']);
  assert.equal((await getJson(app, '/api/products/improvement-log?kind=other')).status, 400);
});

test(`lifecycle and the discovery pack follow listings through their lanes and the funnel (${engine})`, async () => {
  const l1 = await get('lifecycle', '?days=60');
  assert.deepEqual(l1.lanes.mcp, { queued: 1, probing: 0, active: 0, failed: 0, dormant: 0 });
  assert.deepEqual(l1.stages.map((s: any) => [s.stage, s.count]), [['list', 1], ['live', 0], ['demo', 0], ['feedback', 0], ['discount', 0], ['buy', 0]]);
  assert.deepEqual(l1.days.map((d: any) => [d.day, d.listed, d.went_live, d.events]), [['2026-11-10', 1, 0, { 'listing.listed': 1, 'composition.planned': 1 }]]);
  const p1 = await get('discovery-pack');
  assert.deepEqual([p1.live, p1.try_first], [{ agents: 0, mcps: 0 }, []]);

  await setListingState(app, listing, { lane: 'active', live_since: now(), checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 70, probed_at: now(), demoed: 1 }, now());
  const l2 = await get('lifecycle', '?days=60');
  assert.equal(l2.lanes.mcp.active, 1);
  assert.equal(l2.lanes.mcp.queued, 0);
  assert.deepEqual(l2.stages.slice(0, 3).map((s: any) => s.count), [1, 1, 1]);
  assert.equal(l2.days.find((d: any) => d.day === now().slice(0, 10)).went_live, 1);
  const p2 = await get('discovery-pack');
  assert.deepEqual(p2.live, { agents: 0, mcps: 1 });
  assert.deepEqual(p2.try_first.map((s: any) => [s.listing_id, s.kind, s.sku]), [[listing, 'mcp', 'mcp_mesh']]);
  // Every link the pack gives is served.
  for (const path of Object.values(DISCOVERY_LINKS)) assert.equal((await app.http.inject({ method: 'GET', url: path })).statusCode, 200, path);
  for (const s of SURFACES) assert.equal(p2.read_surfaces[s], `${app.config.publicBaseUrl}/api/products/${s}`);
});

test(`preferences and willingness to pay follow survey answers; the name-your-price clamp (${engine})`, async () => {
  const p0 = await get('preferences');
  assert.deepEqual(p0.ab.pref_prompt_winner, { a: 0, b: 0, tie: 0, n: 0, leader: null, a_share: null });
  const w0 = await t.ok('get_feedback_pricing', {});
  assert.equal(w0.wtp.n, 0);
  assert.deepEqual(w0.list_prices.map((p: any) => [p.sku, p.list_price_usd]), [['kernel', 14.99], ['loop', 19.99], ['alive', 29.99], ['mesh', 24.99], ['collab_lab', 49]]);
  assert.equal(w0.name_your_price.applies_now, false);

  const answers = [
    fullAnswers({ pref_prompt_winner: 'a', improvements: ['eval_harness_templates'], wtp_mcp_mesh_usd: 30, still_broken: 'partly' }),
    fullAnswers({ pref_prompt_winner: 'a', improvements: ['eval_harness_templates', 'mesh_a2a_handoff'], wtp_mcp_mesh_usd: 20 }),
    fullAnswers({ pref_prompt_winner: 'b', pref_promote_winner: 'tie', improvements: ['mesh_a2a_handoff'], wtp_mcp_mesh_usd: 10 }),
  ];
  // Three agents, each from an address of its own (each one's first item of the day counts).
  for (const [i, a] of answers.entries()) {
    const r = await app.http.inject({ method: 'POST', url: '/api/products/agent', remoteAddress: `192.0.2.${i + 1}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ tool: 'submit_feedback', answers: a, agent_name: `pref-${i}` }) });
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.json().counted, true);
  }
  const p1 = await get('preferences');
  assert.deepEqual(p1.ab.pref_prompt_winner, { a: 2, b: 1, tie: 0, n: 3, leader: 'a', a_share: 0.667 });
  assert.deepEqual(p1.ab.pref_promote_winner, { a: 0, b: 0, tie: 1, n: 1, leader: 'tie', a_share: 0 });
  assert.deepEqual(p1.improvements, [{ option: 'eval_harness_templates', votes: 2 }, { option: 'mesh_a2a_handoff', votes: 2 }]);
  assert.equal(p1.still_broken.partly, 1);
  assert.deepEqual(p1.choices.tried, { preview: 0, kernel: 3, recursive: 0, alive: 0, mcp_mesh: 0, network_tools: 0, multiple: 0 });
  assert.deepEqual(p1.scales.overall, { n: 3, avg: 4, high: 3, low: 0 });

  const w1 = await t.ok('get_feedback_pricing', { sku: 'mesh', named_price_usd: 5 });
  assert.equal(w1.wtp.n, 3);
  assert.equal(w1.wtp.avg_wtp_mcp_mesh_usd, 20);
  assert.equal(w1.wtp.recommendations.find((r: any) => r.about === 'mesh').action, 'keep_list_price');
  assert.deepEqual(w1.name_your_price.yours, { sku: 'mesh', list_usd: 24.99, named_usd: 5, price_usd: 12.5, clamped: true });
  const rest = await get('wtp', '?sku=kernel&named_price_usd=100');
  assert.deepEqual(rest.name_your_price.yours, { sku: 'kernel', list_usd: 14.99, named_usd: 100, price_usd: 44.97, clamped: true });
  assert.equal((await get('wtp', '?sku=alive&named_price_usd=30')).name_your_price.yours.clamped, false);
  assert.deepEqual(rest.wtp, w1.wtp);
  const bad = await t.fail('get_feedback_pricing', { sku: 'kernel' });
  assert.equal(bad.field, 'named_price_usd');
  assert.equal((await t.fail('get_feedback_pricing', { sku: 'platinum', named_price_usd: 3 })).field, 'sku');
});

test(`founding-dogfood follows Rollcall's own trail marks, feedback about it and value-tool use (${engine})`, async () => {
  const d0 = await get('founding-dogfood');
  const marks0 = d0.own_trail_marks.find((m: any) => m.channel === 'attraction')?.deposits ?? 0;
  const total0 = d0.feedback_on_rollcall.total;
  const used0 = d0.value_tools.find((v: any) => v.event_id === 'improve_kernel')?.used ?? 0;
  await owner.ok('leave_feedback', { agent_name: 'dogfooder', listing_id: listing, rating: 5, surface: 'mesh_match', body: 'The mesh match found me a partner on the first try.' });
  await t.ok('improve_kernel', { agent_name: 'dogfooder', goals: ['triage bug reports'] });
  const d1 = await get('founding-dogfood');
  assert.equal(d1.feedback_on_rollcall.total, total0 + 1);
  assert.deepEqual(d1.feedback_on_rollcall.by_surface.find((s: any) => s.surface === 'mesh_match'), { surface: 'mesh_match', count: 1, avg_rating: 5 });
  assert.deepEqual(d1.own_trail_marks.find((m: any) => m.channel === 'attraction'), { channel: 'attraction', deposits: marks0 + 1, intensity: 4 * (marks0 + 1) });
  assert.equal(d1.value_tools.find((v: any) => v.event_id === 'improve_kernel').used, used0 + 1);
  assert.equal(d1.kernel_loop.versions, d0.kernel_loop.versions + 1);
  assert.equal(d1.compositions.compositions, 1);
});
