// Each way a stranger could take what belongs to a listing's owner, replayed as an attacker would
// through the real doors (REST, MCP JSON-RPC batches, the SDK client) and shown refused, with
// nothing granted and nothing of the owner's changed: founding seats by batch, another's demo
// token, endorsement sock puppets, other listings' allowances, the talk inbox, agent names as
// allowances, identity keys, another's kernel, seating a listing in a session, danger marks.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { FOUNDING_SEATS } from '../src/funnel/deal.ts';
import { generateEd25519 } from '../src/identity/keys.ts';

const clock = new ManualClock('2026-11-03T09:00:00.000Z');
let app: TestApp;
let stranger: Tools;

before(async () => {
  app = await startApp({ clock, env: { PROBE_ALLOW_PRIVATE: '1' } });
  stranger = await connect(app);
});
after(async () => {
  await stranger.close();
  await app.close();
});

let n = 0;
/** A Live listing of its own domain (or of `domain`), with capabilities the mesh can match. */
async function live(kind: 'agent' | 'mcp' = 'mcp', domain?: string, path = '/mcp'): Promise<{ id: string; url: string }> {
  const url = `https://${domain ?? `victim-${++n}-example.org`}${path}`;
  const res = await postJson(app, '/api/publish', { url });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const now = clock.now().toISOString();
  const capabilities = JSON.stringify({ names: ['summarize_text'], items: [{ name: 'summarize_text', description: 'Summarize a text into three sentences', params: [] }] });
  await setListingState(app, res.body.listing_id, { lane: 'active', kind, name: `Listing ${n}`, capabilities, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 60, probed_at: now }, now);
  return { id: res.body.listing_id, url };
}

/** JSON-RPC batches of tools/call through /api/mcp, 20 messages a POST; every result's structuredContent. */
async function batch(calls: { name: string; args: Record<string, unknown> }[], headers: Record<string, string> = {}): Promise<any[]> {
  const out: any[] = [];
  for (let i = 0; i < calls.length; i += 20) {
    const res = await app.http.inject({
      method: 'POST',
      url: '/api/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      payload: calls.slice(i, i + 20).map((c, j) => ({ jsonrpc: '2.0', id: i + j + 1, method: 'tools/call', params: { name: c.name, arguments: c.args } })),
    });
    assert.equal(res.statusCode, 200, res.body);
    out.push(...res.json().map((r: any) => r.result.structuredContent));
  }
  return out;
}

const count = async (table: 'founding_seats' | 'discount_codes' | 'identity_bindings') => (await app.sql.selectFrom(table).selectAll().execute()).length;
const sentence = (i: number) => `Listing number ${i} answered every call and the demo was useful to us.`;

test(`a batch of complete_founding_path calls over 110 paths of one server takes no seat, no code, and opens no gate (${engine})`, async () => {
  const paths = [];
  for (let i = 0; i < 110; i++) paths.push(await live(i % 2 ? 'agent' : 'mcp', 'one-server-example.org', `/p${i}/mcp`));
  const answers = await batch(paths.map((p, i) => ({ name: 'complete_founding_path', args: { listing_id: p.id, agent_name: `bot ${i}`, rating: 5, body: sentence(i) } })));
  assert.ok(answers.every((a) => a.ok && a.founding.outcome === 'unclaimed'), JSON.stringify(answers.map((a) => a.founding?.outcome ?? a.error)));
  assert.ok(answers.every((a) => a.access_token === undefined || a.founding.outcome !== 'seat'));
  assert.deepEqual([await count('founding_seats'), await count('discount_codes')], [0, 0]);
  const deal = (await stranger.ok('get_founding_deal', {})).payments;
  assert.deepEqual([deal.open, deal.real_feedback], [false, { agent: 0, mcp: 0 }]);

  // The server's real owner, who controls all 110 paths, claims 20 of them: one seat for the domain.
  const tokens = await Promise.all(paths.slice(0, 20).map((p) => ownListing(app, p.id)));
  const owned = await batch([]);
  assert.deepEqual(owned, []);
  const results = await Promise.all(paths.slice(0, 20).map((p, i) => postJson(app, '/api/products/feedback', { listing_id: p.id, rating: 5, body: sentence(1000 + i) }, asOwner(tokens[i]!))));
  const outcomes = results.map((r) => r.body.founding.outcome);
  assert.deepEqual([outcomes.filter((o) => o === 'seat').length, outcomes.filter((o) => o === 'domain_held').length], [1, 19]);
  assert.equal(await count('founding_seats'), 1);
  assert.ok((await stranger.ok('get_founding_deal', {})).seats.left === FOUNDING_SEATS - 1);
});

test(`a stranger's demo of someone's listing is the stranger's: the owner's demo, token and seat stay the owner's (${engine})`, async () => {
  const l = await live('agent');
  const token = await ownListing(app, l.id);
  const theirs = await stranger.ok('take_demo', { listing_id: l.id });
  assert.equal(theirs.first_demo, true);
  assert.match(theirs.access_token, /^rc_/);
  const held = await app.sql.selectFrom('access_tokens').select(['holder', 'scope']).where('listing_id', '=', l.id).execute();
  assert.ok(held.every((t) => t.holder !== `listing:${l.id}`), 'the stranger\'s token is not the listing\'s');
  // The owner's own demo: a first demo with its own token (never null because someone came first).
  const owner = await connect(app, { headers: asOwner(token), base: stranger.base });
  const mine = await owner.ok('take_demo', { listing_id: l.id });
  assert.equal(mine.first_demo, true);
  assert.match(mine.access_token, /^rc_/);
  assert.notEqual(mine.access_token, theirs.access_token);
  // The stranger's token acts for nothing: as a Bearer it is not an owner token.
  const asBearer = await postJson(app, '/api/products/feedback', { listing_id: l.id, rating: 5, body: sentence(1) }, { authorization: `Bearer ${theirs.access_token}` });
  assert.deepEqual([asBearer.status, asBearer.body.error.code], [401, 'invalid_owner_token']);
  const seat = await owner.ok('leave_feedback', { agent_name: 'owner', listing_id: l.id, rating: 5, body: sentence(2) });
  assert.equal(seat.founding.outcome, 'seat');
  await owner.close();
});

test(`12 sock-puppet endorsements: unclaimed ones are refused, one domain moves a rank once a day, and a listing gains at most 3 rank-moving marks a day (${engine})`, async () => {
  const target = await live();
  const rank = async () => (await getJson(app, `/api/listings/status?id=${target.id}`)).body.rank as number;
  const before = await rank();
  const puppets = [];
  for (let i = 0; i < 12; i++) puppets.push(await live('mcp', 'puppets-example.org', `/puppet-${i}/mcp`));
  const anonymous = await batch(puppets.map((p) => ({ name: 'endorse', args: { listing_id: p.id, partner_listing_id: target.id, body: 'They are great partners to work with.' } })));
  assert.ok(anonymous.every((a) => a.error?.code === 'owner_token_required'), JSON.stringify(anonymous[0]));
  assert.equal(await rank(), before);

  // Claimed, but all on one owner domain: one moves the rank, the other eleven are recorded only.
  const tokens = await Promise.all(puppets.map((p) => ownListing(app, p.id)));
  const oneDomain = await Promise.all(
    puppets.map(async (p, i) => (await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json', ...asOwner(tokens[i]!) }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'endorse', arguments: { listing_id: p.id, partner_listing_id: target.id, body: 'They are great partners to work with.' } } } })).json().result.structuredContent),
  );
  assert.ok(oneDomain.every((a) => a.ok && a.counted), JSON.stringify(oneDomain[0]));
  assert.equal(oneDomain.filter((a) => a.moves_rank).length, 1);
  assert.ok(oneDomain.filter((a) => !a.moves_rank).every((a) => /already moved/.test(a.why)));
  const afterOne = await rank();
  assert.ok(afterOne > before);

  // Twelve distinct domains: three more move it, nine are recorded only.
  const distinct = [];
  for (let i = 0; i < 12; i++) distinct.push(await live());
  const moved = [];
  for (const d of distinct) {
    const t = await ownListing(app, d.id);
    const r = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json', ...asOwner(t) }, payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'endorse', arguments: { listing_id: d.id, partner_listing_id: target.id } } } });
    moved.push(r.json().result.structuredContent.moves_rank);
  }
  assert.deepEqual([moved.filter(Boolean).length, moved.filter((m) => !m).length], [2, 10], 'the cap of 3 a day counts the one-domain endorsement too');
  const attraction = app.sql.selectFrom('trace_deposits').select('id').where('subject_key', '=', `listing:${target.id}`).where('channel', '=', 'attraction');
  assert.equal((await attraction.where('moves', '=', 1).execute()).length, 3);
  assert.equal((await attraction.execute()).length, 24, 'every endorsement is recorded');
});

test(`naming other listings spends none of their allowances: 50 victims in batches stay untouched (${engine})`, async () => {
  const victims = [];
  for (let i = 0; i < 50; i++) victims.push(await live());
  const plan = await stranger.ok('mesh_compose', { capabilities: ['summarize text'], agent_name: 'attacker' });
  const calls = victims.map((v) => ({ name: 'execute_compose', args: { composition_id: plan.composition_id, input: 'hello', listing_id: v.id } }));
  const answers = await batch(calls);
  assert.equal(answers.length, 50);
  const allowances = victims.map((v) => `domain:${new URL(v.url).hostname}`);
  assert.deepEqual(await app.sql.selectFrom('meter_usage').select('subject').where('subject', 'in', allowances).execute(), [], 'no victim\'s allowance was touched');
  const spent = await app.sql.selectFrom('meter_usage').select('subject').where('event_id', '=', 'mesh_compose').where('used', '>', 0).execute();
  assert.equal(spent.length, 1, 'one allowance was spent: the caller\'s own');
  assert.match(spent[0]!.subject, /^addr:/);
  assert.ok(answers.filter((a) => a.ok === false).every((a) => a.error.code === 'quota_exhausted'));
});

test(`talk: a stranger's GET writes nothing and shows no inbox; only the owner checks in and reads it (${engine})`, async () => {
  const l = await live();
  const token = await ownListing(app, l.id);
  const endorser = await live();
  const endorserToken = await ownListing(app, endorser.id);
  const endorsed = await postJson(app, '/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'endorse', arguments: { listing_id: endorser.id, partner_listing_id: l.id } } }, { accept: 'application/json', ...asOwner(endorserToken) });
  assert.equal(endorsed.body.result.structuredContent.moves_rank, true, JSON.stringify(endorsed.body));
  const changes = async () => Number((await app.sql.selectFrom('changes').select((eb) => eb.fn.max('seq').as('m')).executeTakeFirstOrThrow()).m);
  const seen = await changes();
  const etag = (await app.http.inject({ method: 'GET', url: '/api/listings/active' })).headers.etag;
  for (let i = 0; i < 30; i++) {
    const r = await getJson(app, `/api/talk?listing_id=${l.id}`);
    assert.equal(r.status, 200);
    assert.ok(r.body.inbox.every((m: any) => m.source === 'status'), 'no message is shown to a stranger');
  }
  assert.equal(await changes(), seen);
  assert.equal((await app.http.inject({ method: 'GET', url: '/api/listings/active' })).headers.etag, etag);
  assert.equal(await app.sql.selectFrom('talk_presence').select('listing_id').where('listing_id', '=', l.id).executeTakeFirst(), undefined);
  const unread = await app.sql.selectFrom('inbox_messages').select('id').where('listing_id', '=', l.id).where('read_at', 'is', null).execute();
  assert.equal(unread.length, 1);
  const noToken = await postJson(app, '/api/talk', { listing_id: l.id });
  assert.deepEqual([noToken.status, noToken.body.error.code], [401, 'owner_token_required']);
  const otherToken = await postJson(app, '/api/talk', { listing_id: l.id }, asOwner(endorserToken));
  assert.deepEqual([otherToken.status, otherToken.body.error.code], [403, 'token_mismatch']);
  const checkIn = await postJson(app, '/api/talk', { listing_id: l.id }, asOwner(token));
  assert.equal(checkIn.status, 200, JSON.stringify(checkIn.body));
  assert.ok(checkIn.body.inbox.some((m: any) => m.type === 'endorsement' && m.new));
  assert.equal(checkIn.body.marked_read, 1);
});

test(`agent names are labels in one address's allowance: a second name does not refill an exhausted one (${engine})`, async () => {
  clock.advance(24 * 3600_000); // a fresh UTC day for this caller's allowance
  for (let i = 0; i < 5; i++) await stranger.ok('mesh_match', { capabilities: ['summarize text'], agent_name: 'newcomer-bot' });
  assert.equal((await stranger.fail('mesh_match', { capabilities: ['summarize text'], agent_name: 'newcomer-bot' })).code, 'quota_exhausted');
  assert.equal((await stranger.fail('mesh_match', { capabilities: ['summarize text'], agent_name: 'newcomer-bot-2' })).code, 'quota_exhausted');
  assert.equal((await stranger.fail('mesh_match', { capabilities: ['summarize text'] })).code, 'quota_exhausted');
});

test(`bind_identity needs the owner: a stranger binds no key to a founding listing or any other (${engine})`, async () => {
  const founding = await live();
  const token = await ownListing(app, founding.id);
  assert.equal((await postJson(app, '/api/products/feedback', { listing_id: founding.id, rating: 5, body: sentence(3) }, asOwner(token))).body.founding.outcome, 'seat');
  const other = await live();
  const bindings = await count('identity_bindings');
  for (const id of [founding.id, other.id]) {
    assert.equal((await stranger.fail('bind_identity', { listing_id: id })).code, 'owner_token_required');
    const { publicJwk } = generateEd25519();
    const step2 = await stranger.fail('bind_identity', { listing_id: id, challenge_id: 'chl_forged', public_jwk: publicJwk, signature: 'a.b.c' });
    assert.equal(step2.code, 'owner_token_required');
  }
  assert.equal(await count('identity_bindings'), bindings);
  const attested = await stranger.ok('attest', { listing_id: founding.id });
  assert.equal(attested.claims.bound_key ?? null, null);
});

test(`a stranger's demo never replaces the kernel the owner ships (${engine})`, async () => {
  const l = await live('agent');
  const token = await ownListing(app, l.id);
  const owner = await connect(app, { headers: asOwner(token), base: stranger.base });
  await owner.ok('improve_kernel', { agent_name: 'owner agent', listing_id: l.id, goals: ['answer billing questions precisely', 'escalate refunds to a human'] });
  const v2 = await owner.ok('improve_kernel', { agent_name: 'owner agent', listing_id: l.id, goals: ['answer billing questions precisely', 'escalate refunds to a human', 'never quote prices'] });
  const seat = await owner.ok('leave_feedback', { agent_name: 'owner', listing_id: l.id, rating: 5, body: sentence(4) });
  const full = seat.access_token as string;
  assert.match(full, /^rc_/);
  await stranger.ok('take_demo', { listing_id: l.id });
  const head = await app.sql.selectFrom('kernel_versions').select(['version', 'system_prompt_short']).where('subject', '=', `listing:${l.id}`).orderBy('version', 'desc').executeTakeFirstOrThrow();
  assert.deepEqual([head.version, head.system_prompt_short], [v2.version, v2.system_prompt_short]);
  const shipped = await stranger.ok('install_product', { access_token: full });
  assert.equal(shipped.products.kernel.system_prompt_short, v2.system_prompt_short);
  await owner.close();
});

test(`a session's lead cannot seat someone's listing as joined; an anonymous danger mark moves nothing (${engine})`, async () => {
  const lead = await live();
  const leadToken = await ownListing(app, lead.id);
  const someone = await live();
  await ownListing(app, someone.id);
  const leadClient = await connect(app, { headers: asOwner(leadToken), base: stranger.base });
  const opened = await leadClient.ok('collab_session_open', { goal: 'Summarize support tickets into a weekly digest', listing_id: lead.id, agent_name: 'lead' });
  const sessionId = opened.session.session_id ?? opened.session_id;
  const byo = await leadClient.ok('register_collab_byo', { session_id: sessionId, url: someone.url, listing_id: lead.id });
  assert.equal(byo.listing_id, someone.id);
  assert.equal(byo.status, 'invited');
  const seated = await app.sql.selectFrom('collab_participants').select('status').where('session_id', '=', sessionId).where('listing_id', '=', someone.id).executeTakeFirstOrThrow();
  assert.equal(seated.status, 'invited');
  const invitation = await app.sql.selectFrom('inbox_messages').select('kind').where('listing_id', '=', someone.id).where('kind', '=', 'collab_invitation').executeTakeFirst();
  assert.ok(invitation);
  await leadClient.close();

  const danger = await stranger.ok('deposit_outcome', { listing_id: someone.id, ok: false, quality: 0.1, body: 'It failed every single request we sent to it.' });
  assert.deepEqual([danger.deposited.channel, danger.deposited.moves_rank], ['danger', false]);
  const field = await app.sql.selectFrom('trace_field').select('value').where('subject_key', '=', `listing:${someone.id}`).where('channel', '=', 'danger').executeTakeFirst();
  assert.equal(field, undefined, 'no danger on the listing\'s field');
  assert.equal((await app.sql.selectFrom('trace_outcomes').select('id').where('listing_id', '=', someone.id).execute()).length, 1, 'the outcome is recorded');
});

test(`feedback cannot start a workflow led by someone's listing, nor invite its partner, without the owner token (${engine})`, async () => {
  const lead = await live();
  const leadToken = await ownListing(app, lead.id);
  const partner = await live();
  const inbox = () => app.sql.selectFrom('inbox_messages').select('id').where('listing_id', '=', partner.id).execute();
  const workflows = () => app.sql.selectFrom('collab_workflows').select('id').where('owner_listing_id', '=', lead.id).execute();
  for (const args of [{ partner_listing_id: partner.id }, { complete_collab: true }]) {
    const refused = await stranger.fail('leave_feedback', { agent_name: 'impostor', listing_id: lead.id, rating: 5, body: sentence(900), ...args });
    assert.equal(refused.code, 'owner_token_required');
  }
  assert.deepEqual([(await workflows()).length, (await inbox()).length], [0, 0]);
  const owner = await connect(app, { headers: asOwner(leadToken), base: stranger.base });
  const made = await owner.ok('leave_feedback', { agent_name: 'lead', listing_id: lead.id, rating: 5, body: sentence(901), partner_listing_id: partner.id });
  assert.ok(made.workflow);
  assert.deepEqual([(await workflows()).length, (await inbox()).length], [1, 1]);
  await owner.close();
});
