// GET /api/products/feedback (SPEC.md 2.4): the envelope's figures against values computed by hand
// on a small fixture left through both doors (MCP leave_feedback, REST feedback and agent paths):
// public items only, summary, insights, survey, already_done, wtp, discount, paging. Feedback
// without an owner token counts once per address and day, so each anonymous item of the fixture
// comes from an address of its own; the one naming a listing is sent by its owner (owner token).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp, toolFrom } from './helpers/app.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { fullAnswers } from './helpers/survey.ts';
import { ManualClock } from '../src/platform/clock.ts';

const clock = new ManualClock('2026-11-05T08:00:00.000Z');
let app: TestApp;
let t: Tools;
const ids: string[] = [];

/** Survey answers whose texts name no theme, so themes come from the bodies alone. */
const neutral = (o: Record<string, unknown>) =>
  fullAnswers({
    ux_friction: 'I had to read the page twice before starting.',
    confusing: 'Nothing much besides the naming of things.',
    would_pay_for: 'A hosted version that I never have to babysit.',
    network_wish: 'Introduce me to partners',
    production_blocker: 'My team has not approved it',
    kernel_wish: 'Import my existing prompt',
    loop_wish: 'Run ticks on a schedule',
    product_one_ship: 'A hosted version for teams',
    improvements: ['pricing_transparency'],
    ...o,
  });

const step = () => clock.advance(60_000);


/** REST from a client address of its own. */
async function postFrom(address: string, url: string, body: unknown) {
  const res = await app.http.inject({ method: 'POST', url, remoteAddress: address, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json() };
}

before(async () => {
  app = await startApp({ clock });
  t = await connect(app);
  const listing = (await postJson(app, '/api/publish', { url: 'https://envelope-target.example.org/mcp' })).body.listing_id as string;
  // 1: MCP (the SDK client, from 127.0.0.1), ultra, agent audience.
  step();
  ids.push((await t.ok('leave_feedback', { agent_name: 'env-a', rating: 5, body: 'The kernel prompt is far too long and verbose for my runtime.', source: 'sdk', sku: 'kernel', audience: 'agent' })).feedback_id);
  // 2: REST, ultra, no name, no source.
  step();
  ids.push((await postFrom('192.0.2.2', '/api/products/feedback', { rating: 3, body: 'Docs were unclear about the goals of run_loop_tick, please explain.' })).body.feedback_id);
  // 3: MCP, structured, an e-mail address in the body.
  step();
  const s3 = neutral({ wtp_kernel_usd: 10, wtp_alive_usd: 0, pricing_fairness: 2, kernel_clarity: 4, kernel_clarity_after: 5, loop_clarity: 3, improvements: ['shorter_system_prompt', 'pricing_transparency'], pref_prompt_winner: 'a', wtp_why: 'Kernel saves me time' });
  ids.push((await toolFrom(app, '192.0.2.3', 'leave_feedback', { agent_name: 'env-b', rating: 2, body: 'My email is jane.doe@mail.org and the outputs broke my JSON parser.', source: 'sdk', audience: 'agent', mode: 'structured', answers: s3 })).feedback_id);
  // 4: the agent path (rating from answers.overall = 4), an e-mail address in a text answer.
  step();
  const s4 = neutral({ overall: 4, wtp_kernel_usd: 20, wtp_alive_usd: 30, pricing_fairness: 4, kernel_clarity: 2, kernel_clarity_after: 3, loop_clarity: 5, pref_prompt_winner: 'b', would_buy_at_founding: 'yes', extra: 'Reach me at ops@agent.dev anytime' });
  ids.push((await postFrom('192.0.2.4', '/api/products/agent', { tool: 'submit_feedback', answers: s4 })).body.feedback_id);
  // Refused junk and an uncounted repeat of item 1: neither is in any figure.
  step();
  assert.equal((await postFrom('192.0.2.5', '/api/products/feedback', { rating: 1, body: 'asdf asdf asdf asdf' })).status, 400);
  assert.equal((await t.ok('leave_feedback', { agent_name: 'env-a', rating: 1, body: 'The kernel prompt is far too long and verbose for my runtime.', source: 'sdk' })).counted, false);
  // 7: MCP, ultra with two amounts, naming the MCP listing, sent by its owner (owner token).
  step();
  const owner = await connect(app, { headers: asOwner(await ownListing(app, listing)), base: t.base });
  try {
    ids.push((await owner.ok('leave_feedback', { agent_name: 'env-c', listing_id: listing, rating: 4, body: 'Fast answers and the examples helped a lot.', answers: { wtp_kernel_usd: 0, wtp_event_improve_kernel_usd: 0.1 } })).feedback_id);
  } finally {
    await owner.close();
  }
});
after(async () => {
  await t.close();
  await app.close();
});

test(`items: public fields only, newest first, redacted text, paging (${engine})`, async () => {
  const r = await getJson(app, '/api/products/feedback');
  assert.equal(r.status, 200);
  const items = r.body.items;
  assert.deepEqual(items.map((i: any) => i.id), [...ids].reverse());
  assert.equal(r.body.next_before, null);
  for (const item of items) {
    for (const hidden of ['subject', 'counted', 'discount_code', 'access_token', 'day']) assert.equal(hidden in item, false, hidden);
    assert.ok(!JSON.stringify(item).includes('@'), 'no e-mail address shown');
  }
  const [i7, i4, i3, i2, i1] = items;
  assert.equal(i3.body, 'My email is [email] and the outputs broke my JSON parser.');
  assert.equal(i4.answers.extra, 'Reach me at [email] anytime');
  assert.equal(i3.structured, true);
  assert.equal(i3.answers.wtp_kernel_usd, 10);
  assert.equal(i3.meta.survey_version, '3.1.0');
  assert.equal(i7.structured, false);
  assert.deepEqual(i7.answers, { wtp_kernel_usd: 0, wtp_event_improve_kernel_usd: 0.1 });
  assert.equal(i2.answers, undefined);
  assert.deepEqual([i1.agent_name, i1.sku, i1.source, i1.rating, i1.audience], ['env-a', 'kernel', 'sdk', 5, 'agent']);
  assert.deepEqual(i1.themes, [{ theme: 'shorter_prompt', label: 'shorter prompt' }]);
  // Pages of 2: 7,4 | 3,2 | 1.
  const p1 = await getJson(app, '/api/products/feedback?limit=2');
  assert.deepEqual(p1.body.items.map((i: any) => i.id), [ids[4], ids[3]]);
  const p2 = await getJson(app, `/api/products/feedback?limit=2&before=${p1.body.next_before}`);
  assert.deepEqual(p2.body.items.map((i: any) => i.id), [ids[2], ids[1]]);
  const p3 = await getJson(app, `/api/products/feedback?limit=2&before=${p2.body.next_before}`);
  assert.deepEqual([p3.body.items.map((i: any) => i.id), p3.body.next_before], [[ids[0]], null]);
  for (const bad of ['limit=0', 'limit=101', 'limit=x', 'before=fb_nope']) {
    const e = await getJson(app, `/api/products/feedback?${bad}`);
    assert.equal(e.status, 400, bad);
  }
});

test(`summary and insights are the hand-computed figures (${engine})`, async () => {
  const { summary, insights } = (await getJson(app, '/api/products/feedback')).body;
  // Counted items 1, 2, 3, 4, 7: ratings 5, 3, 2, 4, 4.
  assert.equal(summary.total, 5);
  assert.equal(summary.structured, 2);
  assert.equal(summary.with_answers, 3);
  assert.equal(summary.avg_rating, 3.6);
  assert.deepEqual(summary.by_source, { sdk: 2, unspecified: 2, agent: 1 });
  assert.equal(summary.discounts_issued, 0);
  assert.equal(summary.discounts_redeemed, 0);
  const one = (theme: string, label: string) => ({ theme, label, count: 1 });
  const themes = [one('clearer_goals', 'clearer goals'), one('docs', 'docs'), one('examples', 'examples'), one('latency', 'latency'), one('output_format', 'output format'), one('shorter_prompt', 'shorter prompt')];
  assert.deepEqual(summary.recent_themes, themes);
  assert.deepEqual(insights.themes, themes);
  assert.equal(insights.real_only, true);
  assert.deepEqual(insights.by_surface, [{ surface: 'general', count: 5, avg_rating: 3.6 }]);
});

test(`survey, wtp, already_done and discount are computed from the stored answers (${engine})`, async () => {
  const b = (await getJson(app, '/api/products/feedback')).body;
  assert.equal(b.survey.version, '3.1.0');
  assert.equal(b.survey.questions.length, 48);
  const w = b.wtp;
  // Amounts: item 3 kernel 10, alive 0; item 4 kernel 20, alive 30; item 7 kernel 0, per-call improve_kernel 0.1.
  assert.equal(w.n, 3);
  assert.equal(w.avg_wtp_kernel_usd, 10);
  assert.equal(w.avg_wtp_alive_usd, 15);
  assert.equal(w.avg_wtp_event_improve_kernel_usd, 0.1);
  assert.equal(w.avg_wtp_mcp_mesh_usd, null);
  assert.equal(w.zeros, 2);
  assert.deepEqual(w.by_sku.kernel, { label: 'Kernel', question: 'wtp_kernel_usd', n: 3, avg_usd: 10, min_usd: 0, max_usd: 20, zeros: 1, list_price_usd: 14.99, name_your_price: { min_usd: 7.5, max_usd: 44.97 }, avg_to_list: 0.67 });
  assert.deepEqual(w.by_sku.alive.n, 2);
  assert.equal(w.by_sku.collab_pack.list_price_usd, null);
  assert.deepEqual(w.by_event.improve_kernel, { question: 'wtp_event_improve_kernel_usd', n: 1, avg_usd: 0.1, zeros: 0, price_usd: 0.25 });
  assert.deepEqual(w.pricing_fairness, { n: 2, avg: 3, low: 1 });
  assert.deepEqual(w.would_buy_at_founding, { yes: 1 });
  assert.deepEqual(w.samples.map((s: any) => s.feedback_id), [ids[4], ids[3], ids[2]]);
  assert.deepEqual(w.samples[2], { feedback_id: ids[2], created_at: w.samples[2].created_at, amounts_usd: { wtp_kernel_usd: 10, wtp_alive_usd: 0 }, why: 'Kernel saves me time' });
  const rec = Object.fromEntries(w.recommendations.map((r: any) => [r.about, r.action]));
  assert.deepEqual(rec, { kernel: 'keep_list_price', loop: 'collect_more_answers', alive: 'collect_more_answers', mesh: 'collect_more_answers', collab_lab: 'collect_more_answers' });

  const done = b.already_done;
  assert.deepEqual(done.clarity_now.kernel.n, 2);
  assert.equal(done.clarity_now.kernel.avg, 3);
  assert.deepEqual(done.clarity_now.kernel.after, { n: 2, avg: 4, fixed: 1, fixed_share: 0.5 });
  assert.equal(done.clarity_now.loop.avg, 4);
  assert.deepEqual(done.clarity_now.loop.after, { n: 0, avg: null, fixed: 0, fixed_share: null });
  assert.match(done.log_url, /\/api\/products\/improvement-log$/);
  assert.deepEqual(
    done.pain_points_in_progress.map((p: any) => [p.label, p.votes, p.scope, p.status]),
    [
      ['pricing transparency', 2, 'pricing', 'requested_in_survey'],
      ['clearer goals', 1, 'kernel', 'collecting_votes'],
      ['docs', 1, 'kernel', 'collecting_votes'],
      ['examples', 1, 'kernel', 'collecting_votes'],
      ['latency', 1, 'kernel', 'collecting_votes'],
      ['output format', 1, 'kernel', 'collecting_votes'],
      ['shorter prompt', 1, 'kernel', 'collecting_votes'],
      ['shorter system prompt', 1, 'kernel', 'requested_in_survey'],
    ],
  );
  assert.deepEqual(done.already_shipped, [], 'no kernel was built yet');

  // Payments gate: owner domains of claimed listings whose owner left real feedback. Item 7 is the MCP
  // listing's owner's (one domain); items 1 and 3 (audience agent) and the agent path came without an owner token: 0.
  assert.deepEqual(b.discount.payments_gate, { agent: { needed: 10, real: 0, missing: 10 }, mcp: { needed: 5, real: 1, missing: 4 } });
  assert.equal(b.discount.payments_open, false);
  assert.deepEqual([b.discount.codes_issued, b.discount.codes_redeemed, b.discount.seats_left], [0, 0, 100]);
  assert.ok(Array.isArray(b.doctrine) && b.doctrine.length > 0);
  assert.equal(typeof b.note, 'string');
  assert.equal(b.open_feedback.ultra.tool, 'leave_feedback');
});

test(`the envelope follows new feedback and the kernels it drives (${engine})`, async () => {
  step();
  // A second "shorter prompt" item: 2 votes, but item 1 (rated 5) is praise, not a request for change: still collecting.
  await toolFrom(app, '192.0.2.8', 'leave_feedback', { agent_name: 'env-d', rating: 1, body: 'Your system prompts are too long; make them shorter please.' });
  const a = (await getJson(app, '/api/products/feedback')).body;
  const asked = a.already_done.pain_points_in_progress.find((p: any) => p.label === 'shorter prompt');
  assert.deepEqual([asked.votes, asked.status], [2, 'collecting_votes']);
  // A third, critical: two requests, and the theme becomes what new kernels apply.
  await toolFrom(app, '192.0.2.9', 'leave_feedback', { agent_name: 'env-f', rating: 2, body: 'The prompt is long and wordy, please trim it.' });
  step();
  await t.ok('improve_kernel', { agent_name: 'env-e', goals: ['answer support questions'] });
  const b = (await getJson(app, '/api/products/feedback')).body;
  assert.equal(b.summary.total, 7);
  assert.equal(b.summary.avg_rating, 3);
  assert.deepEqual(b.summary.recent_themes[0], { theme: 'shorter_prompt', label: 'shorter prompt', count: 3 });
  const shorter = b.already_done.pain_points_in_progress.find((p: any) => p.label === 'shorter prompt');
  assert.deepEqual([shorter.votes, shorter.status, shorter.driven_by.callers], [3, 'applied_to_new_kernels', 3]);
  assert.match(shorter.what_changed, /rule c_brief and check e_brief/);
  assert.deepEqual(b.already_done.already_shipped.map((s: any) => [s.product, s.themes]), [['kernel', ['shorter_prompt']]]);
  assert.match(b.already_done.already_shipped[0].scope, /^1 of the latest 1 kernel versions \(from community feedback 1,/);
});
