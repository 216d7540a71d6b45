// Founding seats and codes (SPEC.md 1.4, 3.1, 8.3; DESIGN.md "Founding seats"): exactly 100 seats,
// one per listing, under 150 concurrent feedback requests across two app instances on one
// database, then one 25% code per listing; repeated and junk feedback take nothing; the payments
// gate (10 real agent and 5 real MCP items) and name-your-price; co-signs between founders.
import { test, after } from 'node:test';
import { Writable } from 'node:stream';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { DAY_MS, ManualClock } from '../src/platform/clock.ts';
import { FOUNDING_SEATS } from '../src/funnel/deal.ts';

const apps: TestApp[] = [];
after(async () => {
  for (const a of apps.reverse()) await a.close();
});

async function start(options: Parameters<typeof startApp>[0] = {}): Promise<TestApp> {
  const app = await startApp(options);
  apps.push(app);
  return app;
}

/** A tool call through the MCP door (JSON-RPC over inject): structuredContent and isError. */
async function rpc(app: TestApp, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  const result = res.json().result;
  return { isError: result.isError === true, sc: result.structuredContent };
}
const ok = async (app: TestApp, name: string, args: Record<string, unknown>) => {
  const r = await rpc(app, name, args);
  assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.sc)}`);
  return r.sc;
};
const fail = async (app: TestApp, name: string, args: Record<string, unknown>) => {
  const r = await rpc(app, name, args);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.sc)}`);
  return r.sc.error;
};

/** n Live listings (published, then set Live directly), kinds alternating mcp, agent. */
async function liveListings(app: TestApp, prefix: string, n: number, kind?: 'agent' | 'mcp'): Promise<{ id: string; kind: 'agent' | 'mcp' }[]> {
  const out: { id: string; kind: 'agent' | 'mcp' }[] = [];
  const now = app.clock.now().toISOString();
  for (let i = 0; i < n; i++) {
    const res = await postJson(app, '/api/publish', { url: `https://${prefix}-${i}.example.org/mcp` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const k = kind ?? (i % 2 === 0 ? 'mcp' : 'agent');
    await setListingState(app, res.body.listing_id, { lane: 'active', kind: k, name: `${prefix} ${i}`, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 50, probed_at: now }, now);
    out.push({ id: res.body.listing_id, kind: k });
  }
  return out;
}

/** A distinct real sentence per index (identical bodies from one caller count once). */
const sentence = (i: number) => `Listing number ${i} went Live quickly and the demo artifacts were useful to us.`;

test(`150 concurrent feedback requests on two instances: exactly ${FOUNDING_SEATS} seats and 50 codes (${engine})`, async () => {
  const one = await start();
  const two = await start({ joinStore: one.store, clock: one.clock });
  const listings = await liveListings(one, 'seat', 150);
  const responses = await Promise.all(
    listings.map((l, i) => postJson(i % 2 === 0 ? one : two, '/api/products/feedback', { listing_id: l.id, rating: 1 + (i % 5), body: sentence(i), agent_name: `agent ${i}` })),
  );
  for (const r of responses) assert.equal(r.status, 200, JSON.stringify(r.body));
  const seats = responses.filter((r) => r.body.founding.outcome === 'seat');
  const codes = responses.filter((r) => r.body.founding.outcome === 'code');
  assert.equal(seats.length, FOUNDING_SEATS);
  assert.equal(codes.length, 50);
  // Each seat: a number 1..100 once, a full token shown once (all distinct), the badge.
  assert.deepEqual(seats.map((r) => r.body.founding.seat).sort((a, b) => a - b), Array.from({ length: FOUNDING_SEATS }, (_, i) => i + 1));
  const tokens = seats.map((r) => r.body.access_token as string);
  assert.ok(tokens.every((t) => /^rc_[A-Za-z0-9_-]{43}$/.test(t)));
  assert.equal(new Set(tokens).size, FOUNDING_SEATS);
  const codeTexts = codes.map((r) => r.body.discount_code as string);
  assert.ok(codeTexts.every((c) => /^RC25-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(c)));
  assert.equal(new Set(codeTexts).size, 50);
  assert.ok(codes.every((r) => r.body.founding.percent_off === 25 && r.body.access_token === undefined));

  // The database agrees: one row per listing, no listing both seated and coded, one live token each.
  const seatRows = await one.sql.selectFrom('founding_seats').selectAll().execute();
  const codeRows = await one.sql.selectFrom('discount_codes').selectAll().execute();
  assert.equal(seatRows.length, FOUNDING_SEATS);
  assert.equal(new Set(seatRows.map((r) => r.listing_id)).size, FOUNDING_SEATS);
  assert.equal(codeRows.length, 50);
  assert.equal(new Set(codeRows.map((r) => r.listing_id)).size, 50);
  assert.ok(!codeRows.some((c) => seatRows.some((s) => s.listing_id === c.listing_id)));
  assert.ok(!codeRows.some((c) => codeTexts.includes(c.code_hash)), 'codes are stored hashed');
  const live = await one.sql.selectFrom('access_tokens').select(['listing_id', 'scope']).where('revoked_at', 'is', null).execute();
  assert.equal(live.length, FOUNDING_SEATS);
  assert.ok(live.every((t) => t.scope === 'full'));
  assert.deepEqual(new Set(live.map((t) => t.listing_id)), new Set(seatRows.map((r) => r.listing_id)));
  assert.equal(Number((await one.sql.selectFrom('founding_counter').select('taken').executeTakeFirstOrThrow()).taken), FOUNDING_SEATS);
  const verified = await one.sql.selectFrom('funnel_state').select('listing_id').where('founding_verified', '=', 1).execute();
  assert.equal(verified.length, FOUNDING_SEATS);

  // get_founding_deal agrees on both instances; 75 agent and 75 MCP items opened payments.
  for (const app of [one, two]) {
    const deal = await ok(app, 'get_founding_deal', {});
    assert.deepEqual(deal.seats, { total: FOUNDING_SEATS, taken: FOUNDING_SEATS, left: 0 });
    assert.deepEqual([deal.codes.issued, deal.codes.redeemed, deal.codes.percent_off], [50, 0, 25]);
    assert.deepEqual([deal.payments.open, deal.payments.real_feedback], [true, { agent: 75, mcp: 75 }]);
  }
  // A token from one instance opens the product on the other.
  const opened = await getJson(two, `/api/products/access?token=${encodeURIComponent(tokens[0]!)}&artifact=skills`);
  assert.equal(opened.status, 200, JSON.stringify(opened.body));
  assert.equal(opened.body.listing_id, seats[0]!.body.founding.listing_id);

  // Repeated feedback from a seated listing: no second seat, and the answer says what it holds.
  const seated = seats[0]!.body.founding;
  const noToken = await postJson(two, '/api/products/feedback', { listing_id: seated.listing_id, rating: 5, body: 'Coming back to say the kernel works well in production.' });
  assert.deepEqual([noToken.status, noToken.body.error.code], [401, 'token_required']);
  const again = await postJson(two, '/api/products/feedback', { listing_id: seated.listing_id, rating: 5, body: 'Coming back to say the kernel works well in production.' }, { authorization: `Bearer ${tokens[0]}` });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.founding.outcome, 'already_seated');
  assert.equal(again.body.founding.seat, seated.seat);
  assert.equal(again.body.access_token, undefined);
  assert.match(again.body.founding.message, /already holds founding seat/);
  // A coded listing: the same code, by its hint only.
  const coded = codes[0]!.body.founding;
  const againCode = await postJson(one, '/api/products/feedback', { listing_id: coded.listing_id, rating: 2, body: 'The second visit was slower than the first one today.' });
  assert.equal(againCode.body.founding.outcome, 'already_coded');
  assert.equal(againCode.body.founding.code_hint, coded.code_hint);
  assert.equal(againCode.body.discount_code, undefined);
  assert.equal(againCode.body.founding.redeemable, true, 'payments are open');
  assert.equal((await one.sql.selectFrom('founding_seats').select('seat').execute()).length, FOUNDING_SEATS);
  assert.equal((await one.sql.selectFrom('discount_codes').select('listing_id').execute()).length, 50);

  // Junk feedback naming a fresh Live listing: refused, no code; real feedback then takes one.
  const [fresh] = await liveListings(one, 'late', 1);
  const junk = await postJson(one, '/api/products/feedback', { listing_id: fresh!.id, rating: 5, body: 'asdf asdf asdf asdf' });
  assert.deepEqual([junk.status, junk.body.error.code], [400, 'feedback_not_real']);
  assert.equal(await one.sql.selectFrom('discount_codes').select('listing_id').where('listing_id', '=', fresh!.id).executeTakeFirst(), undefined);
  const late = await postJson(one, '/api/products/feedback', { listing_id: fresh!.id, rating: 4, body: 'Late to the party but the demo was worth it.' });
  assert.equal(late.body.founding.outcome, 'code');
  const status = (await getJson(one, `/api/listings/status?id=${fresh!.id}`)).body;
  assert.deepEqual([status.badge, status.rank_delta, status.feedbacked, status.founding_verified], ['feedbacked', 0, true, false]);
});

test(`one listing at once from two instances: demos and feedback make one token and one seat (${engine})`, async () => {
  const one = await start();
  const two = await start({ joinStore: one.store, clock: one.clock });
  const [l] = await liveListings(one, 'race', 1, 'mcp');
  const calls = [
    ...[0, 1, 2].map((i) => rpc(i % 2 ? one : two, 'take_demo', { listing_id: l!.id })),
    ...[0, 1, 2, 3, 4].map((i) => postJson(i % 2 ? one : two, '/api/products/feedback', { listing_id: l!.id, rating: 4, body: sentence(i) })),
  ];
  const results = await Promise.all(calls);
  const demos = results.slice(0, 3) as { isError: boolean; sc: any }[];
  const feedback = results.slice(3) as { status: number; body: any }[];
  assert.ok(demos.every((d) => !d.isError), JSON.stringify(demos.map((d) => d.sc)));
  assert.equal(demos.filter((d) => d.sc.first_demo).length, 1);
  // Feedback that started before the demo's token existed is answered; later ones need the token.
  const answered = feedback.filter((f) => f.status === 200);
  assert.ok(answered.length >= 1);
  assert.ok(feedback.every((f) => f.status === 200 || f.body.error.code === 'token_required'), JSON.stringify(feedback.map((f) => f.body.error ?? f.body.founding.outcome)));
  assert.equal(answered.filter((f) => f.body.founding.outcome === 'seat').length, 1);
  const live = await one.sql.selectFrom('access_tokens').select(['scope']).where('listing_id', '=', l!.id).where('revoked_at', 'is', null).execute();
  assert.deepEqual(live.map((t) => t.scope), ['full']);
  assert.equal((await one.sql.selectFrom('founding_seats').select('seat').execute()).length, 1);
  assert.equal((await one.sql.selectFrom('funnel_demos').select('listing_id').execute()).length, 1);
  const shown = [...demos.map((d) => d.sc.access_token), ...answered.map((f) => f.body.access_token)].filter((t) => typeof t === 'string');
  assert.equal(shown.length, 1, 'the token text is shown once');
});

test(`feedback naming no listing, or a listing that is not Live, takes no seat and no code (${engine})`, async () => {
  const app = await start();
  const fb = await ok(app, 'leave_feedback', { agent_name: 'wanderer', rating: 4, body: 'The registry search found three good servers for me.', audience: 'mcp' });
  assert.equal(fb.founding.outcome, 'no_listing');
  assert.equal(fb.access_token, undefined);
  assert.equal(fb.next_step.tool, 'run_loop_tick');
  const queued = await postJson(app, '/api/publish', { url: 'https://queued.example.org/mcp' });
  const notLive = await ok(app, 'leave_feedback', { agent_name: 'wanderer', listing_id: queued.body.listing_id, rating: 4, body: 'Publishing took a single request, nice and simple.' });
  assert.equal(notLive.founding.outcome, 'not_eligible');
  assert.match(notLive.founding.message, /not Live \(lane queued\)/);
  const deal = await ok(app, 'get_founding_deal', {});
  assert.deepEqual([deal.seats.taken, deal.codes.issued], [0, 0]);
  assert.deepEqual(deal.payments.real_feedback, { agent: 0, mcp: 2 }, 'both count for the gate: by audience, then by the listing\'s kind');
  assert.equal((await app.sql.selectFrom('funnel_state').selectAll().execute()).length, 0);
});

test(`payments open at 10 real agent and 5 real MCP items; codes redeem then; name-your-price is clamped (${engine})`, async () => {
  const app = await start();
  // The seats are taken (set directly here; the concurrency test takes them for real).
  await app.sql.updateTable('founding_counter').set({ taken: FOUNDING_SEATS }).execute();
  const [mcp, agent] = await liveListings(app, 'gate', 2);
  const coded = await ok(app, 'leave_feedback', { agent_name: 'gate-mcp', listing_id: mcp!.id, rating: 4, body: 'The mesh demo suggested partners that really fit.', audience: 'agent' });
  assert.equal(coded.founding.outcome, 'code');
  assert.equal(coded.founding.redeemable, false);
  // The listing's kind counts, not the audience it gave.
  assert.deepEqual(coded.founding.deal.payments.missing, { agent: 10, mcp: 4 });
  const code = coded.discount_code as string;

  const closed = await ok(app, 'get_founding_deal', { code: code.toLowerCase(), sku: 'kernel', named_price_usd: 1 });
  assert.deepEqual([closed.payments.open, closed.code.valid, closed.code.redeemable, closed.code.listing_id], [false, true, false, mcp!.id]);
  assert.deepEqual(
    [closed.quote.list_price_usd, closed.quote.price_usd, closed.quote.clamped, closed.quote.applied, closed.quote.percent_off],
    [14.99, 7.5, true, false, 25],
  );
  assert.match(closed.quote.note, /not open yet/);
  const high = await ok(app, 'get_founding_deal', { sku: 'alive', named_price_usd: 500 });
  assert.deepEqual([high.quote.list_price_usd, high.quote.price_usd, high.quote.clamped, high.quote.pay_usd], [29.99, 89.97, true, 89.97]);
  const fair = await ok(app, 'get_founding_deal', { sku: 'mcp_mesh', named_price_usd: 20 });
  assert.deepEqual([fair.quote.price_usd, fair.quote.clamped], [20, false]);
  assert.equal((await ok(app, 'get_founding_deal', { code: 'RC25-0000-0000-0000' })).code.valid, false);

  // 9 more real agent items (one is the agent listing's own): still closed; identical bodies count once.
  await ok(app, 'leave_feedback', { agent_name: 'gate-agent', listing_id: agent!.id, rating: 5, body: 'The alive demo kernel read my skills correctly.' });
  for (let i = 0; i < 8; i++) await ok(app, 'leave_feedback', { agent_name: `agent-${i}`, rating: 4, body: sentence(i), audience: 'agent' });
  const dup = await ok(app, 'leave_feedback', { agent_name: 'agent-0', rating: 4, body: sentence(0), audience: 'agent' });
  assert.equal(dup.counted, false);
  let deal = await ok(app, 'get_founding_deal', {});
  assert.deepEqual([deal.payments.open, deal.payments.missing], [false, { agent: 1, mcp: 4 }]);
  await ok(app, 'leave_feedback', { agent_name: 'agent-9', rating: 3, body: sentence(9), audience: 'agent' });
  for (let i = 0; i < 4; i++) await ok(app, 'leave_feedback', { agent_name: `mcp-${i}`, rating: 4, body: sentence(100 + i), audience: 'mcp' });
  deal = await ok(app, 'get_founding_deal', { listing_id: mcp!.id, code, sku: 'kernel', named_price_usd: 1 });
  assert.deepEqual([deal.payments.open, deal.payments.real_feedback], [true, { agent: 10, mcp: 5 }]);
  assert.deepEqual([deal.code.redeemable, deal.listing.holds.kind, deal.listing.holds.redeemable], [true, 'code', true]);
  assert.deepEqual([deal.quote.applied, deal.quote.price_usd, deal.quote.pay_usd], [true, 7.5, 5.63]);
  assert.match(deal.quote.note, /payments are open/);

  // Bad inputs.
  assert.equal((await fail(app, 'get_founding_deal', { named_price_usd: 10 })).field, 'sku');
  assert.equal((await fail(app, 'get_founding_deal', { sku: 'gold', named_price_usd: 10 })).field, 'sku');
  assert.equal((await fail(app, 'get_founding_deal', { sku: 'kernel', named_price_usd: -1 })).field, 'named_price_usd');
  assert.equal((await fail(app, 'get_founding_deal', { listing_id: 'lst_nobody' })).code, 'not_found');
});

test(`co-signs: founders only, once per ordered pair, both directions make a pair (${engine})`, async () => {
  const clock = new ManualClock('2026-11-01T12:00:00.000Z');
  const app = await start({ clock });
  const [a, b, c, d] = await liveListings(app, 'cosign', 4, 'mcp');
  const seat = async (id: string) => (await postJson(app, '/api/products/feedback', { listing_id: id, rating: 5, body: `Founder ${id} says the demo and the token flow were smooth.` })).body.access_token as string;
  const [ta, tb, td] = [await seat(a!.id), await seat(b!.id), await seat(d!.id)];
  const tc = (await ok(app, 'take_demo', { listing_id: c!.id })).access_token as string;
  const body = 'They answered every call we made and their docs are honest.';

  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: b!.id, body })).code, 'invalid_token');
  assert.equal((await fail(app, 'co_sign_founding', { access_token: `rc_${'B'.repeat(43)}`, partner_listing_id: b!.id, body })).code, 'invalid_token');
  assert.equal((await fail(app, 'co_sign_founding', { access_token: tc, partner_listing_id: a!.id, body })).code, 'not_founding_verified');
  assert.equal((await fail(app, 'co_sign_founding', { access_token: ta, partner_listing_id: c!.id, body })).code, 'partner_not_founding');
  assert.equal((await fail(app, 'co_sign_founding', { access_token: ta, partner_listing_id: a!.id, body })).field, 'partner_listing_id');
  assert.equal((await fail(app, 'co_sign_founding', { access_token: ta, partner_listing_id: 'lst_nobody', body })).code, 'not_found');
  assert.equal((await fail(app, 'co_sign_founding', { access_token: ta, listing_id: b!.id, partner_listing_id: d!.id, body })).code, 'token_mismatch');
  assert.equal((await fail(app, 'co_sign_founding', { access_token: ta, partner_listing_id: b!.id, body: 'lorem ipsum dolor sit amet' })).code, 'co_sign_not_real');

  const first = await ok(app, 'co_sign_founding', { access_token: ta, partner_listing_id: b!.id, body });
  assert.deepEqual([first.recorded, first.mutual], [true, false]);
  const field = async (key: string) => Number((await app.sql.selectFrom('trace_field').select('value').where('subject_key', '=', key).where('channel', '=', 'attraction').executeTakeFirst())?.value ?? 0);
  const pairKey = `pair:${[a!.id, b!.id].sort().join('|')}`;
  const onB = await field(`listing:${b!.id}`);
  assert.equal(await field(pairKey), 5);
  const repeat = await ok(app, 'co_sign_founding', { access_token: ta, listing_id: a!.id, partner_listing_id: b!.id, body: 'Saying it twice: they are reliable partners for us.' });
  assert.equal(repeat.recorded, false);
  assert.equal(await field(`listing:${b!.id}`), onB, 'a repeat leaves no second trace');
  assert.equal((await ok(app, 'get_co_sign_pairs', {})).count, 0, 'one direction is not a pair');

  clock.advance(60_000);
  // The other direction, with the token as a Bearer header.
  const back = await rpc(app, 'co_sign_founding', { partner_listing_id: a!.id, body: 'We co-sign back: their listing works exactly as described.' }, { authorization: `Bearer ${tb}` });
  assert.equal(back.isError, false, JSON.stringify(back.sc));
  assert.equal(back.sc.mutual, true);
  clock.advance(DAY_MS);
  await ok(app, 'co_sign_founding', { access_token: td, partner_listing_id: a!.id, body });
  await ok(app, 'co_sign_founding', { access_token: ta, partner_listing_id: d!.id, body });
  const pairs = await ok(app, 'get_co_sign_pairs', {});
  assert.equal(pairs.count, 2);
  assert.deepEqual(pairs.pairs.map((p: any) => p.listing_ids), [[a!.id, d!.id].sort(), [a!.id, b!.id].sort()], 'newest first');
  assert.equal(pairs.pairs[1].since, back.sc.co_signed_at);
  const ofB = await ok(app, 'get_co_sign_pairs', { listing_id: b!.id });
  assert.equal(ofB.count, 1);
  assert.ok([ofB.pairs[0].a.said, ofB.pairs[0].b.said].includes(body));
  assert.equal((await ok(app, ofB.next_step.tool, ofB.next_step.args)).id, ofB.pairs[0].a.listing_id);
  assert.equal((await ok(app, 'get_co_sign_pairs', { listing_id: c!.id })).count, 0);
  assert.equal((await fail(app, 'get_co_sign_pairs', { limit: 0 })).field, 'limit');
});

test(`the token a demo and a seat hand out never reaches the logs (${engine})`, async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const app = await start({ env: { LOG_LEVEL: 'info' }, logStream: sink });
  const [l] = await liveListings(app, 'logs', 1, 'mcp');
  const token = (await ok(app, 'take_demo', { listing_id: l!.id })).access_token as string;
  assert.match(token, /^rc_/);
  assert.equal((await getJson(app, `/api/products/access?token=${encodeURIComponent(token)}&artifact=mesh`)).status, 200);
  assert.equal((await postJson(app, '/api/products/feedback', { listing_id: l!.id, rating: 4, body: sentence(7) }, { authorization: `Bearer ${token}` })).body.founding.outcome, 'seat');
  assert.equal((await getJson(app, `/api/products/export?access_token=${encodeURIComponent(token)}`)).status, 200);
  assert.equal((await rpc(app, 'install_product', { access_token: token })).isError, false);
  const text = lines.join('');
  assert.ok(text.includes('/api/products/access?token=[redacted]'), 'the requests were logged');
  assert.ok(!text.includes(token.slice(3)), 'the token is not in any log line');
});
