// Founding seats and codes (SPEC.md 1.4, 3.1, 8.3; DESIGN.md "Founding seats"): they belong to
// claimed listings, one per owner domain. 150 listings on 150 loopback hosts, claimed through the
// real claim flow (each host serves its proof), send feedback with their owner tokens at once
// across two instances on one database: exactly 100 seats and 50 codes; more listings of a seated
// domain get neither. Strangers' feedback is recorded and takes nothing; a card claim, or a proof
// gone since, takes nothing; the payments gate counts owner domains; co-signs between founders.
import { test, after } from 'node:test';
import { Writable } from 'node:stream';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { PLACE_WINDOW_MS } from '../src/owners/rules.ts';
import { newClaimSpots, serveClaimFile, type ClaimSpots } from './peers/claim-spots.ts';
import { DAY_MS, ManualClock } from '../src/platform/clock.ts';
import { FOUNDING_SEATS } from '../src/funnel/deal.ts';

// One test address verifies 150 claims in a row: no caller's hourly allowance of fetches here.
const ENV = { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '10000', CALLER_FETCHES_PER_HOUR: '0' };
const apps: TestApp[] = [];
const servers: http.Server[] = [];
after(async () => {
  for (const a of apps.reverse()) await a.close();
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
});

async function start(options: Parameters<typeof startApp>[0] = {}): Promise<TestApp> {
  const app = await startApp({ ...options, env: { ...ENV, ...options.env } });
  apps.push(app);
  return app;
}

/** A tool call through the MCP door (JSON-RPC over inject): structuredContent and isError. */
async function rpc(app: TestApp, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  const result = res.json().result;
  return { isError: result.isError === true, sc: result.structuredContent };
}
const ok = async (app: TestApp, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const r = await rpc(app, name, args, headers);
  assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.sc)}`);
  return r.sc;
};
const fail = async (app: TestApp, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const r = await rpc(app, name, args, headers);
  assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r.sc)}`);
  return r.sc.error;
};

/** Hosts that serve one shared claim file (each listing's proof on a line of it): one HTTP server per loopback address. */
async function claimHosts(first: number, n: number, spots: ClaimSpots): Promise<string[]> {
  const origins: string[] = [];
  for (let i = 0; i < n; i++) {
    const host = `127.0.${Math.floor((first + i) / 250)}.${2 + ((first + i) % 250)}`;
    const server = http.createServer((req, res) => {
      if (!serveClaimFile(spots, req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, host, r));
    servers.push(server);
    origins.push(`http://${host}:${(server.address() as AddressInfo).port}`);
  }
  return origins;
}

interface Owned {
  id: string;
  token: string;
  kind: 'agent' | 'mcp';
}

/** Claims `url` through the doors (claim_listing, the proof put in the host's file, verify_claim), then sets the listing Live. */
async function claimLive(app: TestApp, url: string, spots: ClaimSpots, kind: 'agent' | 'mcp', name: string): Promise<Owned> {
  const asked = await postJson(app, '/api/listings/claim', { url });
  assert.equal(asked.status, 200, JSON.stringify(asked.body));
  spots.file = `${spots.file ?? ''}${asked.body.proof}\n`;
  // Each place is read for claims at most once in 30 seconds: several listings of one origin share its file.
  (app.clock as ManualClock).advance(PLACE_WINDOW_MS);
  const verified = await postJson(app, '/api/listings/claim/verify', { claim_id: asked.body.claim_id, method: 'well_known' });
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  const id = verified.body.listing_id as string;
  const now = app.clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', kind, name, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 50, probed_at: now }, now);
  return { id, token: verified.body.owner_token as string, kind };
}

/** n Live listings on distinct registrable domains (not claimed), kinds alternating mcp, agent. */
async function liveListings(app: TestApp, prefix: string, n: number, kind?: 'agent' | 'mcp'): Promise<{ id: string; kind: 'agent' | 'mcp' }[]> {
  const out: { id: string; kind: 'agent' | 'mcp' }[] = [];
  const now = app.clock.now().toISOString();
  for (let i = 0; i < n; i++) {
    const res = await postJson(app, '/api/publish', { url: `https://${prefix}-${i}-example.org/mcp` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const k = kind ?? (i % 2 === 0 ? 'mcp' : 'agent');
    await setListingState(app, res.body.listing_id, { lane: 'active', kind: k, name: `${prefix} ${i}`, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 50, probed_at: now }, now);
    out.push({ id: res.body.listing_id, kind: k });
  }
  return out;
}

/** n Live listings, each on a domain of its own and claimed by the helper (owner tokens). */
async function ownedListings(app: TestApp, prefix: string, n: number, kind?: 'agent' | 'mcp'): Promise<Owned[]> {
  return Promise.all((await liveListings(app, prefix, n, kind)).map(async (l) => ({ ...l, token: await ownListing(app, l.id) })));
}

/** A distinct real sentence per index (identical bodies from one caller count once). */
const sentence = (i: number) => `Listing number ${i} went Live quickly and the demo artifacts were useful to us.`;

test(`150 claimed listings on 150 hosts, feedback at once on two instances: exactly ${FOUNDING_SEATS} seats and 50 codes, one per domain (${engine})`, async () => {
  const one = await start();
  const two = await start({ joinStore: one.store, clock: one.clock });
  const spots = newClaimSpots();
  const origins = await claimHosts(0, 150, spots);
  const listings: Owned[] = [];
  for (const [i, origin] of origins.entries()) listings.push(await claimLive(i % 2 ? two : one, `${origin}/mcp`, spots, i % 2 === 0 ? 'mcp' : 'agent', `seat ${i}`));
  assert.equal(new Set(listings.map((l) => l.token)).size, 150);

  const responses = await Promise.all(
    listings.map((l, i) => postJson(i % 2 === 0 ? one : two, '/api/products/feedback', { listing_id: l.id, rating: 1 + (i % 5), body: sentence(i), agent_name: `agent ${i}` }, asOwner(l.token))),
  );
  for (const r of responses) assert.equal(r.status, 200, JSON.stringify(r.body));
  const seats = responses.filter((r) => r.body.founding.outcome === 'seat');
  const codes = responses.filter((r) => r.body.founding.outcome === 'code');
  const others = responses.filter((r) => !['seat', 'code'].includes(r.body.founding.outcome)).map((r) => r.body.founding);
  assert.deepEqual([seats.length, codes.length], [FOUNDING_SEATS, 50], JSON.stringify(others.slice(0, 3)));
  // Each seat: a number 1..100 once, a full product token shown once (all distinct), the badge.
  assert.deepEqual(seats.map((r) => r.body.founding.seat).sort((a, b) => a - b), Array.from({ length: FOUNDING_SEATS }, (_, i) => i + 1));
  const tokens = seats.map((r) => r.body.access_token as string);
  assert.ok(tokens.every((t) => /^rc_[A-Za-z0-9_-]{43}$/.test(t)));
  assert.equal(new Set(tokens).size, FOUNDING_SEATS);
  const codeTexts = codes.map((r) => r.body.discount_code as string);
  assert.ok(codeTexts.every((c) => /^RC25-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(c)));
  assert.equal(new Set(codeTexts).size, 50);
  assert.ok(codes.every((r) => r.body.founding.percent_off === 25 && r.body.access_token === undefined));

  // The database agrees: one row per listing and per owner domain, no listing both seated and coded.
  const seatRows = await one.sql.selectFrom('founding_seats').selectAll().execute();
  const codeRows = await one.sql.selectFrom('discount_codes').selectAll().execute();
  assert.equal(seatRows.length, FOUNDING_SEATS);
  assert.equal(new Set(seatRows.map((r) => r.owner_domain)).size, FOUNDING_SEATS);
  assert.equal(codeRows.length, 50);
  assert.equal(new Set([...seatRows, ...codeRows].map((r) => r.owner_domain)).size, 150);
  assert.ok(!codeRows.some((c) => seatRows.some((s) => s.listing_id === c.listing_id)));
  assert.ok(!codeRows.some((c) => codeTexts.includes(c.code_hash)), 'codes are stored hashed');
  const live = await one.sql.selectFrom('access_tokens').select(['listing_id', 'holder', 'scope']).where('revoked_at', 'is', null).execute();
  assert.equal(live.length, FOUNDING_SEATS);
  assert.ok(live.every((t) => t.scope === 'full' && t.holder === `listing:${t.listing_id}`), 'each seat\'s token is its owner\'s');
  assert.equal(Number((await one.sql.selectFrom('founding_counter').select('taken').executeTakeFirstOrThrow()).taken), FOUNDING_SEATS);
  assert.equal((await one.sql.selectFrom('funnel_state').select('listing_id').where('founding_verified', '=', 1).execute()).length, FOUNDING_SEATS);

  // get_founding_deal agrees on both instances; 75 agent and 75 MCP owner domains opened payments.
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

  // 20 more listings of a seated domain (paths of its host), claimed by the same file: neither seat nor code.
  const seatedId = seats[0]!.body.founding.listing_id as string;
  const seatedOrigin = origins[listings.findIndex((l) => l.id === seatedId)]!;
  const more: Owned[] = [];
  for (let i = 0; i < 20; i++) more.push(await claimLive(one, `${seatedOrigin}/more-${i}/mcp`, spots, 'mcp', `more ${i}`));
  const extra = await Promise.all(more.map((l, i) => postJson(i % 2 ? one : two, '/api/products/feedback', { listing_id: l.id, rating: 5, body: sentence(500 + i) }, asOwner(l.token))));
  assert.ok(extra.every((r) => r.status === 200 && r.body.founding.outcome === 'domain_held'), JSON.stringify(extra.map((r) => r.body.founding?.outcome ?? r.body)));
  assert.match(extra[0]!.body.founding.message, /one seat or code per owner domain/);
  assert.equal((await one.sql.selectFrom('founding_seats').select('seat').execute()).length, FOUNDING_SEATS);
  assert.equal((await one.sql.selectFrom('discount_codes').select('listing_id').execute()).length, 50);

  // The owner again: what it holds; a stranger naming the listing: recorded, nothing taken.
  const seated = seats[0]!.body.founding;
  const seatedToken = listings.find((l) => l.id === seatedId)!.token;
  const again = await postJson(two, '/api/products/feedback', { listing_id: seatedId, rating: 5, body: 'Coming back to say the kernel works well in production.' }, asOwner(seatedToken));
  assert.deepEqual([again.body.founding.outcome, again.body.founding.seat, again.body.access_token], ['already_seated', seated.seat, undefined]);
  const stranger = await postJson(two, '/api/products/feedback', { listing_id: seatedId, rating: 5, body: 'A passer-by who liked what this listing does a lot.' });
  assert.deepEqual([stranger.status, stranger.body.founding.outcome], [200, 'unclaimed']);
  const coded = codes[0]!.body.founding;
  const codedToken = listings.find((l) => l.id === coded.listing_id)!.token;
  const againCode = await postJson(one, '/api/products/feedback', { listing_id: coded.listing_id, rating: 2, body: 'The second visit was slower than the first one today.' }, asOwner(codedToken));
  assert.deepEqual([againCode.body.founding.outcome, againCode.body.founding.code_hint, againCode.body.discount_code, againCode.body.founding.redeemable], ['already_coded', coded.code_hint, undefined, true]);
});

test(`one listing at once from two instances: the owner's demos and feedback make one token and one seat; strangers' demos are their own (${engine})`, async () => {
  const one = await start();
  const two = await start({ joinStore: one.store, clock: one.clock });
  const [l] = await ownedListings(one, 'race', 1, 'mcp');
  const owner = asOwner(l!.token);
  const calls = [
    ...[0, 1, 2].map((i) => rpc(i % 2 ? one : two, 'take_demo', { listing_id: l!.id }, owner)),
    ...[0, 1, 2, 3, 4].map((i) => postJson(i % 2 ? one : two, '/api/products/feedback', { listing_id: l!.id, rating: 4, body: sentence(i) }, owner)),
  ];
  const results = await Promise.all(calls);
  const demos = results.slice(0, 3) as { isError: boolean; sc: any }[];
  const feedback = results.slice(3) as { status: number; body: any }[];
  assert.ok(demos.every((d) => !d.isError), JSON.stringify(demos.map((d) => d.sc)));
  assert.equal(demos.filter((d) => d.sc.first_demo).length, 1);
  assert.ok(feedback.every((f) => f.status === 200), JSON.stringify(feedback.map((f) => f.body)));
  assert.equal(feedback.filter((f) => f.body.founding.outcome === 'seat').length, 1);
  const live = await one.sql.selectFrom('access_tokens').select(['scope', 'holder']).where('listing_id', '=', l!.id).where('revoked_at', 'is', null).execute();
  assert.deepEqual(live, [{ scope: 'full', holder: `listing:${l!.id}` }]);
  assert.equal((await one.sql.selectFrom('founding_seats').select('seat').execute()).length, 1);
  // The demo token and the seat's full token, each shown once; only the seat's is live.
  const shown = [...demos.map((d) => d.sc.access_token), ...feedback.map((f) => f.body.access_token)].filter((t) => typeof t === 'string');
  assert.equal(shown.length, 2, 'the owner\'s demo token and its seat\'s token, each shown once');
  assert.equal(new Set(shown).size, 2);

  // A stranger's demo gets a token of its own (scope demo) and never touches the owner's.
  const theirs = await ok(one, 'take_demo', { listing_id: l!.id });
  assert.deepEqual([theirs.first_demo, theirs.access.scope], [true, 'demo']);
  assert.match(theirs.access_token, /^rc_/);
  const tokens = await one.sql.selectFrom('access_tokens').select(['scope', 'holder']).where('listing_id', '=', l!.id).where('revoked_at', 'is', null).orderBy('scope').execute();
  assert.deepEqual(tokens.map((t) => t.scope), ['demo', 'full']);
  assert.equal((await one.sql.selectFrom('funnel_demos').select('holder').where('listing_id', '=', l!.id).execute()).length, 2);
});

test(`feedback naming no listing, a listing that is not Live, or sent without the owner token takes no seat and no code (${engine})`, async () => {
  const app = await start();
  const fb = await ok(app, 'leave_feedback', { agent_name: 'wanderer', rating: 4, body: 'The registry search found three good servers for me.', audience: 'mcp' });
  assert.equal(fb.founding.outcome, 'no_listing');
  assert.equal(fb.access_token, undefined);
  assert.equal(fb.next_step.tool, 'run_loop_tick');
  const queued = await postJson(app, '/api/publish', { url: 'https://queued-example.org/mcp' });
  const queuedToken = await ownListing(app, queued.body.listing_id);
  const notLive = await ok(app, 'leave_feedback', { agent_name: 'wanderer', listing_id: queued.body.listing_id, rating: 4, body: 'Publishing took a single request, nice and simple.' }, asOwner(queuedToken));
  assert.equal(notLive.founding.outcome, 'not_eligible');
  assert.match(notLive.founding.message, /not Live \(lane queued\)/);
  const [live] = await liveListings(app, 'anon', 1, 'mcp');
  const anonymous = await ok(app, 'leave_feedback', { agent_name: 'stranger', listing_id: live!.id, rating: 5, body: 'A stranger enjoyed the demo of this server today.' });
  assert.equal(anonymous.founding.outcome, 'unclaimed');
  assert.match(anonymous.founding.message, /owner token/);
  const deal = await ok(app, 'get_founding_deal', {});
  assert.deepEqual([deal.seats.taken, deal.codes.issued], [0, 0]);
  assert.deepEqual(deal.payments.real_feedback, { agent: 0, mcp: 1 }, 'only the claimed listing\'s owner domain counts for the gate');
  assert.equal((await app.sql.selectFrom('funnel_state').select('listing_id').where('founding_verified', '=', 1).execute()).length, 0);
});

test(`a card claim, or a proof gone since the claim, takes no seat; put back, it does (${engine})`, async () => {
  const clock = new ManualClock('2026-11-01T12:00:00.000Z');
  const app = await start({ clock });
  const [byCard] = await liveListings(app, 'card', 1, 'mcp');
  const cardToken = await ownListing(app, byCard!.id, { method: 'card' });
  const viaCard = await postJson(app, '/api/products/feedback', { listing_id: byCard!.id, rating: 5, body: sentence(1) }, asOwner(cardToken));
  assert.equal(viaCard.body.founding.outcome, 'proof_needed');
  assert.match(viaCard.body.founding.message, /well_known .* or dns_txt/);

  const spots = newClaimSpots();
  const [origin] = await claimHosts(200, 1, spots);
  const owned = await claimLive(app, `${origin}/mcp`, spots, 'agent', 'proof keeper');
  const kept = spots.file;
  spots.file = 'nothing here any more\n';
  clock.advance(5 * 60_000); // past the minute in which the claim itself counts as a fresh look
  const hits = spots.fileHits;
  const gone = await postJson(app, '/api/products/feedback', { listing_id: owned.id, rating: 5, body: sentence(2) }, asOwner(owned.token));
  assert.equal(gone.body.founding.outcome, 'proof_needed');
  assert.match(gone.body.founding.message, /not found at .*rollcall-claim\.txt just now/);
  assert.equal(spots.fileHits, hits + 1, 'the proof was looked for before the seat');
  spots.file = kept;
  clock.advance(5 * 60_000);
  const back = await postJson(app, '/api/products/feedback', { listing_id: owned.id, rating: 5, body: sentence(3) }, asOwner(owned.token));
  assert.equal(back.body.founding.outcome, 'seat');
});

test(`payments open at 10 real agent and 5 real MCP owner domains; codes redeem then; name-your-price is clamped (${engine})`, async () => {
  const app = await start();
  // The seats are taken (set directly here; the concurrency test takes them for real).
  await app.sql.updateTable('founding_counter').set({ taken: FOUNDING_SEATS }).execute();
  const [mcp, agent] = await ownedListings(app, 'gate', 2);
  const coded = await ok(app, 'leave_feedback', { agent_name: 'gate-mcp', listing_id: mcp!.id, rating: 4, body: 'The mesh demo suggested partners that really fit.', audience: 'agent' }, asOwner(mcp!.token));
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

  // Anonymous feedback does not count; one domain counts once however often it writes.
  for (let i = 0; i < 8; i++) await ok(app, 'leave_feedback', { agent_name: `agent-${i}`, rating: 4, body: sentence(i), audience: 'agent' });
  await ok(app, 'leave_feedback', { agent_name: 'gate-agent', listing_id: agent!.id, rating: 5, body: 'The alive demo kernel read my skills correctly.' }, asOwner(agent!.token));
  await ok(app, 'leave_feedback', { agent_name: 'gate-agent', listing_id: agent!.id, rating: 4, body: 'And a second sentence from the same owner today.' }, asOwner(agent!.token));
  let deal = await ok(app, 'get_founding_deal', {});
  assert.deepEqual([deal.payments.open, deal.payments.missing], [false, { agent: 9, mcp: 4 }]);
  const agents = await ownedListings(app, 'gate-agents', 9, 'agent');
  for (const [i, l] of agents.entries()) await ok(app, 'leave_feedback', { agent_name: `owner-${i}`, listing_id: l.id, rating: 4, body: sentence(200 + i) }, asOwner(l.token));
  const mcps = await ownedListings(app, 'gate-mcps', 4, 'mcp');
  for (const [i, l] of mcps.entries()) await ok(app, 'leave_feedback', { agent_name: `server-${i}`, listing_id: l.id, rating: 4, body: sentence(300 + i) }, asOwner(l.token));
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

test(`co-signs: founders only, with their owner tokens, once per ordered pair, both directions make a pair (${engine})`, async () => {
  const clock = new ManualClock('2026-11-01T12:00:00.000Z');
  const app = await start({ clock });
  const [a, b, c, d] = await ownedListings(app, 'cosign', 4, 'mcp');
  for (const l of [a!, b!, d!]) {
    const r = await postJson(app, '/api/products/feedback', { listing_id: l.id, rating: 5, body: `Founder ${l.id} says the demo and the token flow were smooth.` }, asOwner(l.token));
    assert.equal(r.body.founding.outcome, 'seat');
  }
  const [ta, tb, tc, td] = [a!, b!, c!, d!].map((l) => asOwner(l.token));
  const body = 'They answered every call we made and their docs are honest.';

  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: b!.id, body })).code, 'owner_token_required');
  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: b!.id, body }, { authorization: `Bearer rco_${'B'.repeat(43)}` })).code, 'invalid_owner_token');
  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: a!.id, body }, tc)).code, 'not_founding_verified');
  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: c!.id, body }, ta)).code, 'partner_not_founding');
  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: a!.id, body }, ta)).field, 'partner_listing_id');
  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: 'lst_nobody', body }, ta)).code, 'not_found');
  assert.equal((await fail(app, 'co_sign_founding', { listing_id: b!.id, partner_listing_id: d!.id, body }, ta)).code, 'token_mismatch');
  assert.equal((await fail(app, 'co_sign_founding', { partner_listing_id: b!.id, body: 'lorem ipsum dolor sit amet' }, ta)).code, 'co_sign_not_real');

  const first = await ok(app, 'co_sign_founding', { partner_listing_id: b!.id, body }, ta);
  assert.deepEqual([first.recorded, first.mutual], [true, false]);
  const field = async (key: string) => Number((await app.sql.selectFrom('trace_field').select('value').where('subject_key', '=', key).where('channel', '=', 'attraction').executeTakeFirst())?.value ?? 0);
  const pairKey = `pair:${[a!.id, b!.id].sort().join('|')}`;
  const onB = await field(`listing:${b!.id}`);
  assert.equal(await field(pairKey), 5);
  const repeat = await ok(app, 'co_sign_founding', { listing_id: a!.id, partner_listing_id: b!.id, body: 'Saying it twice: they are reliable partners for us.' }, ta);
  assert.equal(repeat.recorded, false);
  assert.equal(await field(`listing:${b!.id}`), onB, 'a repeat leaves no second trace');
  assert.equal((await ok(app, 'get_co_sign_pairs', {})).count, 0, 'one direction is not a pair');

  clock.advance(60_000);
  const back = await rpc(app, 'co_sign_founding', { partner_listing_id: a!.id, body: 'We co-sign back: their listing works exactly as described.' }, tb);
  assert.equal(back.isError, false, JSON.stringify(back.sc));
  assert.equal(back.sc.mutual, true);
  clock.advance(DAY_MS);
  await ok(app, 'co_sign_founding', { partner_listing_id: a!.id, body }, td);
  await ok(app, 'co_sign_founding', { partner_listing_id: d!.id, body }, ta);
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

test(`the tokens a demo, a seat and a claim hand out never reach the logs (${engine})`, async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  const app = await start({ env: { LOG_LEVEL: 'info' }, logStream: sink });
  const spots = newClaimSpots();
  const [origin] = await claimHosts(210, 1, spots);
  const owned = await claimLive(app, `${origin}/mcp`, spots, 'mcp', 'logs');
  const demoToken = (await ok(app, 'take_demo', { listing_id: owned.id }, asOwner(owned.token))).access_token as string;
  assert.match(demoToken, /^rc_/);
  assert.equal((await getJson(app, `/api/products/access?token=${encodeURIComponent(demoToken)}&artifact=mesh`)).status, 200);
  const seat = (await postJson(app, '/api/products/feedback', { listing_id: owned.id, rating: 4, body: sentence(7) }, asOwner(owned.token))).body;
  assert.equal(seat.founding.outcome, 'seat');
  const token = seat.access_token as string;
  assert.equal((await getJson(app, `/api/products/export?access_token=${encodeURIComponent(token)}`)).status, 200);
  assert.equal((await rpc(app, 'install_product', { access_token: token })).isError, false);
  const text = lines.join('');
  assert.ok(text.includes('/api/products/access?token=[redacted]'), 'the requests were logged');
  assert.ok(!text.includes(token.slice(3)) && !text.includes(demoToken.slice(3)), 'no product token is in any log line');
  assert.ok(!text.includes(owned.token.slice(4)), 'the owner token is not in any log line');
});
