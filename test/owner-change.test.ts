// An owner change ends every power the previous owner had, replayed through the real doors against
// real MCP servers on loopback (serving their claim files and `_meta` proofs) and the tests' DNS
// server: product tokens go with the claim they were issued under, grants are new tokens shown
// once and read the proof at the moment of the grant, a weaker proof does not oust a stronger owner
// until that owner's proof was absent twice a day apart, a card owner may not delete, a deleted
// listing comes back whole for its domain's proven owner, a refused batch never loses what ran,
// and three owner changes on two instances leave every earlier credential refused.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, testDns, type TestApp } from './helpers/app.ts';
import { asOwner } from './helpers/owners.ts';
import { setListingState } from './helpers/state.ts';
import { startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { newClaimSpots, type ClaimSpots } from './peers/claim-spots.ts';
import type { DnsPeer } from './peers/dns-server.ts';
import { DAY_MS, HOUR_MS, ManualClock } from '../src/platform/clock.ts';
import { PLACE_WINDOW_MS } from '../src/owners/rules.ts';

const clock = new ManualClock('2026-11-02T09:00:00.000Z');
const ENV = { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '3000' };
let app: TestApp;
let dns: DnsPeer;
const closing: { close(): Promise<void> }[] = [];

/** Names of sites of their own (owner domains apart), each resolved to the loopback server behind it. */
const SITES = Array.from({ length: 8 }, (_, i) => `site-${i + 1}.test`);
const HOSTS = Object.fromEntries(SITES.map((s) => [s, ['127.0.0.1']]));
before(async () => {
  dns = await testDns();
  app = await startApp({ clock, env: ENV, hosts: HOSTS });
  closing.push(app);
});
after(async () => {
  for (const c of closing.reverse()) await c.close();
});

type Method = 'well_known' | 'dns_txt' | 'card';

interface Site {
  url: string;
  spots: ClaimSpots;
  /** Where its DNS proofs go. */
  txt: string;
}

let sites = 0;
/** A real MCP server on 127.0.0.1 that shows proofs where the test puts them, reached by a name of its own (one a TXT record can prove). */
async function server(): Promise<Site> {
  const spots = newClaimSpots();
  const peer: Peer = await startModernMcp({ claims: spots });
  closing.push(peer);
  const name = SITES[sites++]!;
  return { url: peer.url.replace('127.0.0.1', name), spots, txt: `_rollcall.${name}` };
}

/** Puts a proof where `method` reads it, as the one in control of the site (or of its DNS, or of its endpoint) would. */
function put(site: Site, method: Method, proof: string): void {
  if (method === 'well_known') site.spots.file = `${site.spots.file ?? ''}${proof}\n`;
  else if (method === 'card') site.spots.card = proof;
  else dns.txt.set(site.txt, [...(dns.txt.get(site.txt) ?? []), proof]);
}

/** claim_listing, the proof put in place, then verify_claim by `method` (a fresh read: the places' window has passed). */
async function claimBy(on: TestApp, target: { listing_id?: string; url?: string }, site: Site, method: Method) {
  const asked = await postJson(on, '/api/listings/claim', target);
  assert.equal(asked.status, 200, JSON.stringify(asked.body));
  put(site, method, asked.body.proof);
  clock.advance(PLACE_WINDOW_MS);
  return { proof: asked.body.proof as string, verified: await postJson(on, '/api/listings/claim/verify', { claim_id: asked.body.claim_id, method }) };
}

/** A claim that must succeed: the owner token and the listing. */
async function own(on: TestApp, target: { listing_id?: string; url?: string }, site: Site, method: Method): Promise<{ id: string; token: string; proof: string }> {
  const { proof, verified } = await claimBy(on, target, site, method);
  assert.equal(verified.status, 200, JSON.stringify(verified.body));
  return { id: verified.body.listing_id, token: verified.body.owner_token, proof };
}

/** Makes a listing Live as its probe would (its peer answers for real; the lane is what the test needs). */
async function makeLive(id: string): Promise<void> {
  const now = clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 70, probed_at: now }, now);
}

let rpcId = 0;
/** A tools/call through the MCP door: structuredContent and isError. */
async function tool(on: TestApp, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await on.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } } });
  const result = res.json().result;
  return { isError: result.isError === true, sc: result.structuredContent };
}

const feedback = (on: TestApp, id: string, token: string, body = 'The demo matched two real partners for our weather tools.') =>
  postJson(on, '/api/products/feedback', { listing_id: id, rating: 4, body }, asOwner(token));
const opens = async (on: TestApp, token: string) => (await getJson(on, `/api/products/access?token=${encodeURIComponent(token)}&artifact=mesh`)).status;
const acts = async (on: TestApp, id: string, token: string) => (await postJson(on, '/api/talk', { listing_id: id }, asOwner(token))).status;

test(`a new owner's claim revokes the previous owner's product token; the seat is a new token for the new owner, shown once (${engine})`, async () => {
  const site = await server();
  const { url } = site;
  const a = await own(app, { url }, site, 'well_known');
  await makeLive(a.id);
  const demo = await tool(app, 'take_demo', { listing_id: a.id }, asOwner(a.token));
  assert.equal(demo.isError, false, JSON.stringify(demo.sc));
  const aProduct = demo.sc.access_token as string;
  assert.equal(await opens(app, aProduct), 200);
  // B proves control too (a DNS record of the same strength): the listing turns over.
  const b = await own(app, { listing_id: a.id }, site, 'dns_txt');
  assert.equal(b.id, a.id);
  assert.deepEqual([await acts(app, a.id, a.token), await opens(app, aProduct)], [401, 401], 'A keeps nothing: neither its owner token nor its product token');
  // B's founding feedback: a seat whose token is new, B's alone, shown once; the proof read for it is named.
  const seat = await feedback(app, b.id, b.token);
  assert.equal(seat.status, 200, JSON.stringify(seat.body));
  assert.equal(seat.body.founding.outcome, 'seat');
  assert.match(seat.body.access_token, /^rc_/);
  assert.notEqual(seat.body.access_token, aProduct);
  assert.equal(seat.body.founding.token_widened, undefined);
  assert.deepEqual([seat.body.founding.proof.method, seat.body.founding.proof.where, seat.body.founding.proof.found], ['dns_txt', site.txt, true]);
  assert.equal(await opens(app, aProduct), 401, 'the seat widened nothing A holds');
  const full = await getJson(app, `/api/products/access?token=${encodeURIComponent(seat.body.access_token)}&artifact=skills`);
  assert.equal(full.status, 200);
  const owners = await app.sql.selectFrom('access_tokens').select(['claim_id', 'scope', 'revoked_at']).where('holder', '=', `listing:${a.id}`).orderBy('created_at').execute();
  const claims = await app.sql.selectFrom('listing_owners').select('token_id').where('listing_id', '=', a.id).executeTakeFirstOrThrow();
  assert.equal(owners.at(-1)?.claim_id, claims.token_id, 'a token records the claim it was issued under');
  assert.ok(owners.slice(0, -1).every((t) => t.revoked_at !== null));
  // B's first demo is a first demo, though A took one before the change.
  const bDemo = await tool(app, 'take_demo', { listing_id: b.id }, asOwner(b.token));
  assert.equal(bDemo.sc.first_demo, true);
  // B lost its product token: get_product_token reads the proof again and issues a new one; the old one stops.
  const again = await tool(app, 'get_product_token', { listing_id: b.id }, asOwner(b.token));
  assert.equal(again.isError, false, JSON.stringify(again.sc));
  assert.deepEqual([again.sc.scope, again.sc.proof.method, again.sc.proof.found, again.sc.next_step.tool], ['full', 'dns_txt', true, 'install_product']);
  assert.deepEqual([await opens(app, seat.body.access_token), await opens(app, again.sc.access_token)], [401, 200]);
  // Nobody else may ask for it.
  assert.equal((await tool(app, 'get_product_token', { listing_id: b.id })).sc.error.code, 'owner_token_required');
  assert.equal((await tool(app, 'get_product_token', { listing_id: b.id }, asOwner(a.token))).sc.error.code, 'invalid_owner_token');
});

test(`a brief DNS takeover gets no seat and no token: every grant reads the proof again at that moment (${engine})`, async () => {
  const site = await server();
  const { url } = site;
  const listed = await own(app, { url }, site, 'well_known');
  await makeLive(listed.id);
  // The attacker holds the domain's DNS for a moment: its record proves control, and it verifies.
  const attacker = await own(app, { listing_id: listed.id }, site, 'dns_txt');
  // DNS is restored; 31 ms later the attacker sends its founding feedback, and asks for a token.
  dns.txt.set(site.txt, []);
  clock.advance(31);
  const grab = await feedback(app, attacker.id, attacker.token);
  assert.equal(grab.status, 200, JSON.stringify(grab.body));
  assert.equal(grab.body.founding.outcome, 'proof_needed');
  assert.deepEqual([grab.body.founding.proof.method, grab.body.founding.proof.found], ['dns_txt', false]);
  assert.equal(grab.body.access_token, undefined);
  assert.equal((await app.sql.selectFrom('founding_seats').select('seat').where('listing_id', '=', listed.id).execute()).length, 0);
  await tool(app, 'take_demo', { listing_id: listed.id }, asOwner(attacker.token));
  const token = await tool(app, 'get_product_token', { listing_id: listed.id }, asOwner(attacker.token));
  assert.deepEqual([token.isError, token.sc.error.code, token.sc.error.details.proof.found], [true, 'proof_not_found', false]);
});

test(`a card proof does not oust an owner proven by its site until that proof was absent twice a day apart; a card owner may unlist, not delete (${engine})`, async () => {
  const site = await server();
  const { url, spots } = site;
  const held = await own(app, { url }, site, 'well_known');
  // A card claim while the site's proof is in place: refused, and the site owner keeps everything.
  const early = await claimBy(app, { listing_id: held.id }, site, 'card');
  assert.deepEqual([early.verified.status, early.verified.body.error.code], [409, 'owner_stronger']);
  assert.equal(early.verified.body.error.details.owner_proof.outcome, 'found');
  assert.equal(await acts(app, held.id, held.token), 200);
  // The site's file fails to answer (an outage): a failed read never counts as absent.
  spots.file = undefined;
  const outage = await claimBy(app, { listing_id: held.id }, site, 'card');
  assert.equal(outage.verified.status, 409);
  assert.equal((await app.sql.selectFrom('listing_owners').select('absent_since').where('listing_id', '=', held.id).executeTakeFirstOrThrow()).absent_since, null);
  // The file answers without the proof: the first absent read, and not yet enough.
  spots.file = 'rollcall-claim=somebody-elses-proof-entirely\n';
  const firstAbsent = await claimBy(app, { listing_id: held.id }, site, 'card');
  assert.equal(firstAbsent.verified.status, 409);
  const since = firstAbsent.verified.body.error.details.absent_since as string;
  assert.equal(firstAbsent.verified.body.error.details.can_take_after, new Date(Date.parse(since) + DAY_MS).toISOString());
  // A day later Rollcall's own schedule reads it again, still absent; then the card claim takes it.
  clock.advance(DAY_MS + HOUR_MS);
  for (let i = 0; i < 2; i++) {
    await app.jobs.tick();
    await app.jobs.idle();
  }
  const card = await own(app, { listing_id: held.id }, site, 'card');
  assert.equal(await acts(app, held.id, held.token), 401);
  const status = (await getJson(app, `/api/listings/status?id=${held.id}`)).body;
  assert.deepEqual(status.owner_changed, { at: clock.now().toISOString(), method: 'card' });
  const page = await app.http.inject({ method: 'GET', url: `/l/${held.id}` });
  assert.match(page.body, /Owner changed at .* by card/);
  // The card owner may unlist the listing, never delete it.
  const deleted = await app.http.inject({ method: 'DELETE', url: `/api/listings/${held.id}`, headers: asOwner(card.token) });
  assert.deepEqual([deleted.statusCode, deleted.json().error.code], [403, 'proof_too_weak']);
  const unlisted = await app.http.inject({ method: 'PATCH', url: `/api/listings/${held.id}`, headers: { 'content-type': 'application/json', ...asOwner(card.token) }, payload: { unlisted: true } });
  assert.equal(unlisted.statusCode, 200, unlisted.body);
  // The site's owner puts its proof back: a stronger claim takes the listing at once.
  const back = await own(app, { listing_id: held.id }, site, 'well_known');
  assert.equal(await acts(app, held.id, card.token), 401);
  assert.equal(await acts(app, held.id, back.token), 200);
  // Thirty days on, the change is no longer shown.
  clock.advance(31 * DAY_MS);
  assert.equal((await getJson(app, `/api/listings/status?id=${held.id}`)).body.owner_changed, undefined);
});

test(`a deleted listing comes back whole for its domain's proven owner within 30 days: id, seat, badge and trails (${engine})`, async () => {
  const site = await server();
  const { url } = site;
  const first = await own(app, { url }, site, 'well_known');
  await makeLive(first.id);
  const seat = await feedback(app, first.id, first.token);
  assert.equal(seat.body.founding.outcome, 'seat');
  const before = (await getJson(app, `/api/listings/status?id=${first.id}`)).body;
  const gone = await app.http.inject({ method: 'DELETE', url: `/api/listings/${first.id}`, headers: asOwner(first.token) });
  assert.equal(gone.statusCode, 200, gone.body);
  assert.equal((await postJson(app, '/api/publish', { url })).status, 409, 'only a claim lists it again');
  const back = await own(app, { url }, site, 'dns_txt');
  assert.equal(back.id, first.id);
  const after = (await getJson(app, `/api/listings/status?id=${back.id}`)).body;
  assert.deepEqual([after.badge, after.founding_verified], [before.badge, true]);
  assert.equal((await app.sql.selectFrom('founding_seats').select('seat').where('listing_id', '=', back.id).executeTakeFirstOrThrow()).seat, seat.body.founding.seat);
  assert.equal(await acts(app, back.id, first.token), 401);
  // Its new owner asks for the seat's product: a new full token.
  const product = await tool(app, 'get_product_token', { listing_id: back.id }, asOwner(back.token));
  assert.deepEqual([product.isError, product.sc.scope], [false, 'full']);
});

test(`a refused batch never throws away what ran: past MCP_BATCH_MAX_BYTES the rest do not run, and a verify's owner token is delivered (${engine})`, async () => {
  const small = await startApp({ clock, env: { ...ENV, MCP_BATCH_MAX_BYTES: '1024' }, hosts: HOSTS });
  closing.push(small);
  const site = await server();
  const { url } = site;
  const batch = async (messages: unknown[], headers: Record<string, string> = {}) => {
    const res = await small.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, payload: messages });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as any[];
  };
  const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
  const asked = (await postJson(small, '/api/listings/claim', { url })).body;
  put(site, 'well_known', asked.proof);
  // tools/list's answer alone passes 1,024 bytes: the verify after it does not run, and says so.
  const [listed, refused] = await batch([list(1), call(2, 'verify_claim', { claim_id: asked.claim_id })]);
  assert.ok(listed.result.tools.length > 0);
  assert.deepEqual([refused.error.code, refused.error.data.ran], [-32028, false]);
  const unused = await small.sql.selectFrom('listing_claims').select('consumed_at').where('url', '=', url).executeTakeFirstOrThrow();
  assert.equal(unused.consumed_at, null, 'the claim was not consumed');
  // The verify first: it runs, and its owner token is delivered even though the answers pass the limit.
  const [verified, after] = await batch([call(1, 'verify_claim', { claim_id: asked.claim_id }), list(2)]);
  assert.match(verified.result.structuredContent.owner_token, /^rco_/);
  assert.equal(after.error.code, -32028);
  const token = verified.result.structuredContent.owner_token as string;
  const id = verified.result.structuredContent.listing_id as string;
  const now = clock.now().toISOString();
  await setListingState(small, id, { lane: 'active', live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 70, probed_at: now }, now);
  // A seat behind a tools/list that filled the answer: not granted, so no token is lost.
  const [, skipped] = await batch([list(1), call(2, 'leave_feedback', { listing_id: id, agent_name: 'batcher', rating: 5, body: 'The demo answered every call we made to it today.' })], asOwner(token));
  assert.equal(skipped.error.code, -32028);
  assert.equal((await small.sql.selectFrom('founding_seats').select('seat').where('listing_id', '=', id).execute()).length, 0);
});

test(`owners change three times on two instances (card, well_known, dns_txt; then delete and restore): every earlier credential is refused (${engine})`, async () => {
  const one = app;
  const two = await startApp({ clock, env: ENV, joinStore: app.store, hosts: HOSTS });
  closing.push(two);
  const site = await server();
  const { url } = site;
  const earlier: { owner: string[]; product: string[] } = { owner: [], product: [] };
  /** Every earlier credential refused on both instances; the current owner's works on both. */
  const check = async (id: string, current: { token: string; product?: string }) => {
    for (const on of [one, two]) {
      for (const t of earlier.owner) assert.equal(await acts(on, id, t), 401, 'an earlier owner token');
      for (const p of earlier.product) assert.equal(await opens(on, p), 401, 'an earlier product token');
      assert.equal(await acts(on, id, current.token), 200, 'the current owner token');
      if (current.product) assert.equal(await opens(on, current.product), 200, 'the current product token');
    }
  };
  /** The owner's demo token (its first demo) or, after one, a new one from get_product_token. */
  const product = async (on: TestApp, id: string, token: string) => {
    const demo = await tool(on, 'take_demo', { listing_id: id }, asOwner(token));
    assert.equal(demo.isError, false, JSON.stringify(demo.sc));
    if (demo.sc.access_token) return demo.sc.access_token as string;
    const fresh = await tool(on, 'get_product_token', { listing_id: id }, asOwner(token));
    assert.equal(fresh.isError, false, JSON.stringify(fresh.sc));
    return fresh.sc.access_token as string;
  };
  const card = await own(one, { url }, site, 'card');
  await makeLive(card.id);
  const cardProduct = await product(two, card.id, card.token);
  await check(card.id, { token: card.token, product: cardProduct });
  earlier.owner.push(card.token);
  earlier.product.push(cardProduct);

  const proven = await own(two, { listing_id: card.id }, site, 'well_known');
  const siteProduct = await product(one, proven.id, proven.token);
  await check(proven.id, { token: proven.token, product: siteProduct });
  earlier.owner.push(proven.token);
  earlier.product.push(siteProduct);

  const domain = await own(one, { listing_id: proven.id }, site, 'dns_txt');
  const domainProduct = await product(two, domain.id, domain.token);
  await check(domain.id, { token: domain.token, product: domainProduct });
  earlier.owner.push(domain.token);
  earlier.product.push(domainProduct);

  const deleted = await two.http.inject({ method: 'DELETE', url: `/api/listings/${domain.id}`, headers: asOwner(domain.token) });
  assert.equal(deleted.statusCode, 200, deleted.body);
  const restored = await own(one, { url }, site, 'dns_txt');
  assert.equal(restored.id, card.id, 'the same listing, restored');
  await makeLive(restored.id);
  const restoredProduct = await product(two, restored.id, restored.token);
  await check(restored.id, { token: restored.token, product: restoredProduct });
});
