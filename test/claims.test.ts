// Proof of control through the real doors, against real peers on loopback addresses of their own:
// an MCP server (the v2 SDK) and an @a2a-js/sdk agent that serve /.well-known/rollcall-claim.txt
// and carry the proof in their card or initialize `_meta`, and a DNS server answering TXT records.
// Expired, wrong, missing and oversized proofs, a redirect off the origin, and what the owner
// token then opens (and what it does not).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { connect } from './helpers/value-tools.ts';
import { asOwner } from './helpers/owners.ts';
import { freePort, startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { startDnsServer, type DnsPeer } from './peers/dns-server.ts';
import { newClaimSpots, type ClaimSpots } from './peers/claim-spots.ts';
import { loadConfig } from '../src/config.ts';
import { Prober } from '../src/probe/prober.ts';
import { GuardedClient, tableResolver } from '../src/platform/net/guarded-client.ts';
import { HOUR_MS, ManualClock } from '../src/platform/clock.ts';
import ipaddr from 'ipaddr.js';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
let dns: DnsPeer;
const dials: string[] = [];
const peers: { close(): Promise<void> }[] = [];

before(async () => {
  dns = await startDnsServer();
  const env = { PROBE_ALLOW_PRIVATE: '1', CLAIM_DNS_SERVERS: dns.server, PROBE_TIMEOUT_MS: '3000' };
  // The guarded client the production prober uses, with loopback allowed and every other private
  // range refused (as production refuses them all), and a spy on every address it dials.
  const loopbackOnly = { allowAddress: (ip: string) => ipaddr.isValid(ip) && ipaddr.parse(ip).range() === 'loopback', allowPort: () => true };
  const client = new GuardedClient({ policy: loopbackOnly, userAgent: 'Rollcall-Probe/test', resolver: tableResolver({ localhost: ['127.0.0.1'] }), totalTimeoutMs: 3000, onDial: (a) => dials.push(a) });
  app = await startApp({ env, clock, prober: new Prober(client, loadConfig(env).probeAllowPrivate) });
});
after(async () => {
  for (const p of peers.reverse()) await p.close();
  await app.close();
  await dns.close();
});

async function mcpPeer(host: string): Promise<{ peer: Peer; spots: ClaimSpots }> {
  const spots = newClaimSpots();
  const peer = await startModernMcp({ host, claims: spots });
  peers.push(peer);
  return { peer, spots };
}

const claim = (body: Record<string, unknown>) => postJson(app, '/api/listings/claim', body);
const verify = (body: Record<string, unknown>) => postJson(app, '/api/listings/claim/verify', body);

test(`a well-known file claims an MCP server not listed yet: it is listed, and its owner token acts for it (${engine})`, async () => {
  const { peer, spots } = await mcpPeer('127.0.0.2');
  const asked = await claim({ url: peer.url });
  assert.equal(asked.status, 200, JSON.stringify(asked.body));
  const c = asked.body;
  assert.equal(c.listing_id, null);
  assert.match(c.claim_id, /^clm_[A-Za-z0-9_-]{32}$/);
  assert.match(c.proof, /^rollcall-claim=[A-Za-z0-9_-]{43}$/);
  assert.ok(Date.parse(c.expires_at) - clock.now().getTime() === 24 * HOUR_MS);
  assert.deepEqual(
    c.methods.map((m: any) => m.method),
    ['well_known', 'card'],
    'an address has no DNS name: no dns_txt',
  );
  assert.equal(c.methods[0].where, `${new URL(peer.url).origin}/.well-known/rollcall-claim.txt`);
  assert.deepEqual(c.next_step, { tool: 'verify_claim', args: { claim_id: c.claim_id }, why: c.next_step.why });

  // Not in place yet: 422 with what was fetched and what was missing; nothing is listed.
  const early = await verify({ claim_id: c.claim_id });
  assert.equal(early.status, 422, JSON.stringify(early.body));
  assert.equal(early.body.error.code, 'proof_not_found');
  const looked = early.body.error.details.looked;
  assert.deepEqual(looked.map((l: any) => [l.method, l.found]), [['well_known', false], ['card', false]]);
  assert.equal(looked[0].status, 404);
  assert.equal((await getJson(app, `/api/listings/active`)).body.mcps.length, 0);

  // In place, among other lines (several listings of one origin share the file). A place read for a
  // claim serves every claim for 30 seconds: within them the read above answers again, unchanged.
  spots.file = `# proofs for this origin\nrollcall-claim=someone-elses-proof\n${c.proof}\n`;
  const within = await verify({ claim_id: c.claim_id });
  assert.deepEqual([within.status, within.body.error.details.looked[0].shared, within.body.error.details.fresh_read_in_s], [422, true, 30]);
  assert.equal(within.headers['retry-after'], '30');
  clock.advance(30_000);
  const done = await verify({ claim_id: c.claim_id });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(done.body.method, 'well_known');
  assert.equal(done.body.listed_now, true);
  assert.equal(done.body.founding_seat, true);
  assert.match(done.body.owner_token, /^rco_[A-Za-z0-9_-]{43}$/);
  const id = done.body.listing_id as string;
  const token = done.body.owner_token as string;
  // Stored hashed: the token text is nowhere in the database.
  const row = await app.sql.selectFrom('listing_owners').selectAll().where('listing_id', '=', id).executeTakeFirstOrThrow();
  assert.notEqual(row.token_hash, token);
  assert.equal(row.owner_domain, '127.0.0.2');
  assert.equal((await getJson(app, `/api/listings/status?id=${id}`)).body.claimed, true);

  // A claim is used once.
  const again = await verify({ claim_id: c.claim_id });
  assert.deepEqual([again.status, again.body.error.code], [410, 'expired']);

  // The owner token acts for the listing; a wrong one is one answer whatever the cause.
  const renamed = await app.http.inject({ method: 'PATCH', url: `/api/listings/${id}`, headers: { 'content-type': 'application/json', ...asOwner(token) }, payload: { name: 'Weather Now (official)' } });
  assert.equal(renamed.statusCode, 200, renamed.body);
  assert.equal(renamed.json().name, 'Weather Now (official)');
  for (const bad of [`rco_${'x'.repeat(43)}`, 'rco_short', 'rc_notanownertoken']) {
    const r = await app.http.inject({ method: 'PATCH', url: `/api/listings/${id}`, headers: { 'content-type': 'application/json', authorization: `Bearer ${bad}` }, payload: { name: 'Hijacked' } });
    assert.deepEqual([r.statusCode, r.json().error.code], [401, 'invalid_owner_token'], bad);
  }
  const none = await app.http.inject({ method: 'PATCH', url: `/api/listings/${id}`, headers: { 'content-type': 'application/json' }, payload: { name: 'Hijacked' } });
  assert.deepEqual([none.statusCode, none.json().error.code], [401, 'owner_token_required']);

  // Claiming again with a fresh proof rotates the token: the old one stops at once, the inbox says so.
  const second = (await claim({ listing_id: id })).body;
  spots.file = `${second.proof}\n`;
  clock.advance(30_000);
  const rotated = await verify({ claim_id: second.claim_id, method: 'well_known' });
  assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
  assert.equal(rotated.body.rotated, true);
  const old = await app.http.inject({ method: 'PATCH', url: `/api/listings/${id}`, headers: { 'content-type': 'application/json', ...asOwner(token) }, payload: { name: 'Old owner' } });
  assert.equal(old.statusCode, 401);
  const talk = await app.http.inject({ method: 'POST', url: '/api/talk', headers: { 'content-type': 'application/json', ...asOwner(rotated.body.owner_token) }, payload: { listing_id: id } });
  assert.equal(talk.statusCode, 200, talk.body);
  assert.ok(talk.json().inbox.some((m: any) => m.type === 'owner' && m.data.topic === 'owner_token_rotated'));
});

test(`a display name another claimed listing shows is refused however it is spelled, over REST and MCP; its own owner may respell it (${engine})`, async () => {
  const owned = async (host: string) => {
    const { peer, spots } = await mcpPeer(host);
    const asked = (await claim({ url: peer.url })).body;
    spots.file = `${asked.proof}\n`;
    const done = await verify({ claim_id: asked.claim_id });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    return { id: done.body.listing_id as string, token: done.body.owner_token as string };
  };
  const rename = (l: { id: string; token: string }, name: string) =>
    app.http.inject({ method: 'PATCH', url: `/api/listings/${l.id}`, headers: { 'content-type': 'application/json', ...asOwner(l.token) }, payload: { name } });
  const first = await owned('127.0.0.9');
  const second = await owned('127.0.0.10');
  assert.equal((await rename(first, 'Tide Tables')).statusCode, 200);
  // Case, spacing, compatibility forms and a Cyrillic look-alike ("е" for "e") are the same name.
  for (const spelling of ['Tide Tables', 'tide  TABLES', 'Ｔｉｄｅ Tables', 'Tid\u0435 Tables']) {
    const r = await rename(second, spelling);
    assert.deepEqual([r.statusCode, r.json().error.code, r.json().error.field], [409, 'name_taken', 'name'], spelling);
    assert.match(r.json().error.message, new RegExp(first.id));
  }
  // Over MCP the same refusal is the tool's error, with the same code.
  const mcp = await connect(app, { headers: asOwner(second.token) });
  try {
    assert.equal((await mcp.fail('update_listing', { listing_id: second.id, name: 'TIDE TABLES' })).code, 'name_taken');
  } finally {
    await mcp.close();
  }
  const stored = await app.sql.selectFrom('listings').select('owner_name').where('id', '=', second.id).executeTakeFirstOrThrow();
  assert.equal(stored.owner_name, null, 'no refused spelling was applied');
  assert.equal((await rename(first, 'tide tables')).statusCode, 200, 'an owner may respell its own name');
  assert.equal((await rename(second, 'Tide Tables East')).statusCode, 200);
});

test(`an agent proves control with its card over MCP (the SDK client), and the token travels on the transport (${engine})`, async () => {
  const spots = newClaimSpots();
  const agent: AgentPeer = await startA2aAgent({ host: '127.0.0.3', claims: spots });
  peers.push(agent);
  const listed = await postJson(app, '/api/publish', { agent_card_url: agent.cardUrl });
  const id = listed.body.listing_id as string;
  const tools = await connect(app);
  const c = await tools.ok('claim_listing', { listing_id: id });
  assert.equal(c.listing_id, id);
  const card = c.methods.find((m: any) => m.method === 'card');
  assert.match(card.put, /capabilities\.extensions/);
  assert.equal(card.founding_seat, false);
  spots.card = c.proof;
  const done = await tools.ok('verify_claim', { claim_id: c.claim_id, method: 'card' });
  assert.equal(done.method, 'card');
  assert.equal(done.founding_seat, false);
  await tools.close();
  // The owner token as the transport's Bearer: the owner's talk inbox is readable over REST too.
  const owner = await connect(app, { headers: asOwner(done.owner_token), base: tools.base });
  const bound = await owner.ok('bind_identity', { listing_id: id });
  assert.equal(bound.step, 'challenge');
  await owner.close();
  // A stranger's client gets the owner-only answer as a tool error, never an HTTP 401.
  const stranger = await connect(app, { base: tools.base });
  const refused = await stranger.fail('bind_identity', { listing_id: id });
  assert.equal(refused.code, 'owner_token_required');
  const wrong = await connect(app, { headers: { authorization: `Bearer rco_${'A'.repeat(43)}` }, base: tools.base });
  assert.equal((await wrong.fail('bind_identity', { listing_id: id })).code, 'invalid_owner_token');
  await stranger.close();
  await wrong.close();
});

test(`an MCP server carries the proof in its initialize _meta (${engine})`, async () => {
  const { peer, spots } = await mcpPeer('127.0.0.4');
  const c = (await claim({ url: peer.url })).body;
  spots.card = c.proof;
  const done = await verify({ claim_id: c.claim_id });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(done.body.method, 'card');
  assert.equal(done.body.listed_now, true);
});

test(`a DNS TXT record at _rollcall.<host>, read through the configured resolver (${engine})`, async () => {
  // localhost: a name (so it can hold a record) that the test resolver maps to 127.0.0.1.
  const { peer } = await mcpPeer('127.0.0.1');
  const url = peer.url.replace('127.0.0.1', 'localhost');
  const c = (await claim({ url })).body;
  assert.deepEqual(
    c.methods.map((m: any) => [m.method, m.where]),
    [
      ['well_known', `${new URL(url).origin}/.well-known/rollcall-claim.txt`],
      ['dns_txt', '_rollcall.localhost'],
      ['card', url],
    ],
  );
  const missing = await verify({ claim_id: c.claim_id, method: 'dns_txt' });
  assert.deepEqual([missing.status, missing.body.error.code], [422, 'proof_not_found']);
  assert.match(missing.body.error.details.looked[0].detail, /no TXT record/);
  dns.txt.set('_rollcall.localhost', ['v=spf1 -all', c.proof]);
  clock.advance(30_000);
  const done = await verify({ claim_id: c.claim_id, method: 'dns_txt' });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(done.body.method, 'dns_txt');
  assert.ok(dns.asked.includes('_rollcall.localhost'));
});

test(`expired, unknown, wrong, missing and oversized proofs each say what went wrong (${engine})`, async () => {
  const { peer, spots } = await mcpPeer('127.0.0.5');
  assert.deepEqual([(await verify({ claim_id: 'clm_nope' })).status, (await verify({ claim_id: 'clm_nope' })).body.error.code], [404, 'claim_unknown']);
  const unknown = await verify({ claim_id: `clm_${'a'.repeat(32)}` });
  assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'claim_unknown']);
  const neither = await claim({});
  assert.deepEqual([neither.status, neither.body.error.code], [400, 'invalid_input']);

  const wrong = (await claim({ url: peer.url })).body;
  spots.file = 'rollcall-claim=not-the-proof-you-were-given\n';
  const notFound = await verify({ claim_id: wrong.claim_id, method: 'well_known' });
  assert.deepEqual([notFound.status, notFound.body.error.code], [422, 'proof_not_found']);
  assert.match(notFound.body.error.details.looked[0].detail, /no line of it is the proof/);

  // Larger than 64 KiB: refused unread past the cap, as a fetch that failed.
  spots.file = `${wrong.proof}\n${'#'.repeat(70 * 1024)}\n`;
  clock.advance(30_000);
  const big = await verify({ claim_id: wrong.claim_id, method: 'well_known' });
  assert.deepEqual([big.status, big.body.error.code], [502, 'fetch_failed']);
  assert.match(big.body.error.details.looked[0].detail, /larger than 65536 bytes/);

  // After 24 hours the claim is gone, proof or not.
  spots.file = `${wrong.proof}\n`;
  clock.advance(24 * HOUR_MS + 1);
  const late = await verify({ claim_id: wrong.claim_id });
  assert.deepEqual([late.status, late.body.error.code], [410, 'expired']);
  assert.equal(await app.sql.selectFrom('listings').select('id').where('url', '=', peer.url).executeTakeFirst(), undefined);
});

test(`a proof fetch follows no redirect off the listing's origin: nothing is dialed there (${engine})`, async () => {
  let elsewhere = 0;
  const other = http.createServer((_req, res) => {
    elsewhere++;
    res.end('anything');
  });
  other.on('connection', () => elsewhere++);
  await new Promise<void>((r) => other.listen(0, '127.0.0.7', r));
  peers.push({ close: () => new Promise<void>((r) => other.close(() => r())) });
  const otherUrl = `http://127.0.0.7:${(other.address() as AddressInfo).port}/.well-known/rollcall-claim.txt`;
  const targets = [otherUrl, 'http://10.20.30.40/.well-known/rollcall-claim.txt'];
  for (const target of targets) {
    const redirecting = http.createServer((_req, res) => res.writeHead(302, { location: target }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.6', r));
    peers.push({ close: () => new Promise<void>((r) => redirecting.close(() => r())) });
    const url = `http://127.0.0.6:${(redirecting.address() as AddressInfo).port}/mcp`;
    const c = (await claim({ url })).body;
    dials.length = 0;
    const r = await verify({ claim_id: c.claim_id, method: 'well_known' });
    assert.deepEqual([r.status, r.body.error.code], [502, 'fetch_failed'], JSON.stringify(r.body));
    assert.match(r.body.error.details.looked[0].detail, /redirect to another origin|is not a public address/);
    assert.deepEqual(dials, ['127.0.0.6'], 'only the listing\'s own origin was dialed');
  }
  assert.equal(elsewhere, 0);
});

test(`a claim of examples/claimable-mcp-server.mjs through its claim file lists it, and its owner token edits it and checks in (${engine})`, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-claim-'));
  const claimFile = path.join(dir, 'rollcall-claim.txt');
  const port = await freePort();
  const child = spawn(process.execPath, ['examples/claimable-mcp-server.mjs'], { env: { ...process.env, PORT: String(port), ROLLCALL_CLAIM_FILE: claimFile }, stdio: ['ignore', 'pipe', 'inherit'] });
  peers.push({ close: async () => void child.kill('SIGTERM') });
  await new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => String(c).includes('claimable MCP server') && resolve()));
  // 1. ask for a claim; 2. the proof into the file; 3. verify; 4. act as the owner.
  const url = `http://localhost:${port}/mcp`;
  const c = (await claim({ url })).body;
  assert.equal(c.methods[0].where, `http://localhost:${port}/.well-known/rollcall-claim.txt`);
  fs.writeFileSync(claimFile, `${c.proof}\n`);
  const done = await verify({ claim_id: c.claim_id });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.deepEqual([done.body.method, done.body.listed_now], ['well_known', true]);
  const owner = asOwner(done.body.owner_token);
  const id = done.body.listing_id as string;
  const patched = await app.http.inject({ method: 'PATCH', url: `/api/listings/${id}`, headers: { 'content-type': 'application/json', ...owner }, payload: { name: 'My word counter', contact_email: 'you@example.org' } });
  assert.deepEqual([patched.statusCode, patched.json().name, patched.json().claimed], [200, 'My word counter', true]);
  assert.equal(patched.json().contact_email, undefined, 'the contact e-mail is never shown');
  const checkIn = await postJson(app, '/api/talk', { listing_id: id }, owner);
  assert.deepEqual([checkIn.status, checkIn.body.talk.mode], [200, 'present']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test(`a claim stays true while its proof does: re-checked weekly, then daily once missing; gone 7 days, it lapses (${engine})`, async () => {
  const { peer, spots } = await mcpPeer('127.0.0.8');
  const c = (await claim({ url: peer.url })).body;
  spots.file = `${c.proof}\n`;
  const done = (await verify({ claim_id: c.claim_id })).body;
  const id = done.listing_id as string;
  const owner = asOwner(done.owner_token);
  /** Moves the clock, runs the sweep (which makes the re-check due) and the re-check itself. */
  const later = async (ms: number) => {
    clock.advance(ms);
    await app.jobs.tick();
    await app.jobs.idle();
    await app.jobs.tick();
    await app.jobs.idle();
  };
  const row = () => app.sql.selectFrom('listing_owners').selectAll().where('listing_id', '=', id).executeTakeFirstOrThrow();
  const hits = spots.fileHits;
  await later(6 * 24 * HOUR_MS);
  assert.equal(spots.fileHits, hits, 'not due before a week');
  await later(24 * HOUR_MS + 1000);
  assert.equal(spots.fileHits, hits + 1, 'looked for again after a week');
  assert.equal((await row()).missing_since, null);

  spots.file = 'gone\n';
  await later(7 * 24 * HOUR_MS + 1000);
  const missing = await row();
  assert.ok(missing.missing_since !== null && missing.lapsed_at === null);
  for (let day = 0; day < 6; day++) await later(24 * HOUR_MS);
  assert.equal((await row()).lapsed_at, null, 'not yet 7 days missing');
  assert.equal((await getJson(app, `/api/listings/status?id=${id}`)).body.claimed, true);
  await later(24 * HOUR_MS + 1000);
  assert.ok((await row()).lapsed_at !== null, 'lapsed after 7 days missing');
  // The listing stays; its owner's powers wait for a new claim.
  const status = (await getJson(app, `/api/listings/status?id=${id}`)).body;
  assert.deepEqual([status.id, status.claimed, status.talk.required], [id, false, false]);
  const talk = await postJson(app, '/api/talk', { listing_id: id }, owner);
  assert.deepEqual([talk.status, talk.body.error.code], [401, 'invalid_owner_token']);
  const again = (await claim({ listing_id: id })).body;
  spots.file = `${again.proof}\n`;
  const renewed = await verify({ claim_id: again.claim_id });
  assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
  assert.equal((await getJson(app, `/api/listings/status?id=${id}`)).body.claimed, true);
});
