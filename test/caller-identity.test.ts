// Caller identity through the doors (DESIGN.md "Caller identity"): who a call is and whose
// allowance it spends. An owner token (Authorization: Bearer rco_...) acts for its listing from any
// address, on the one allowance its owner domain shares; a listing_id without that token is the
// caller's own call; an agent_name is only a label inside its address's allowance (bounded per
// address), an IPv6 caller is counted by its /64; a Bearer that acts for nothing gets one identical
// 401, another listing's owner token a 403; product tokens (rc_) never identify anyone; tokens
// never reach the logs. Metered calls go through a test-only metered tool installed in both doors
// (helpers/metered-tool.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { installTestTool, TEST_ROUTE, TEST_TOOL } from './helpers/metered-tool.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { issueToken } from '../src/access/store.ts';
import { metered } from '../src/metering/run.ts';
import { NAMES_PER_ADDRESS_PER_DAY } from '../src/metering/caller.ts';

installTestTool();

const NOW = '2026-11-01T12:00:00.000Z';
const lines: string[] = [];
let app: TestApp;
before(async () => {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  app = await startApp({ env: { LOG_LEVEL: 'debug' }, logStream: sink });
});
after(() => app.close());

type Result = { isError?: boolean; structuredContent: Record<string, any> };
let rpcId = 0;
let addr = 0;
const newAddress = () => `100.64.0.${++addr}`;
const tokensSeen: string[] = [];

async function call(name: string, args: Record<string, unknown>, address: string, headers: Record<string, string> = {}): Promise<Result> {
  const res = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    remoteAddress: address,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().result as Result;
}
async function rest(address: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'POST', url: TEST_ROUTE, remoteAddress: address, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, body: res.json() };
}
const ok = (r: Result) => {
  assert.ok(!r.isError, JSON.stringify(r.structuredContent));
  return r.structuredContent;
};
const failure = (r: Result) => {
  assert.equal(r.isError, true, JSON.stringify(r.structuredContent));
  return r.structuredContent.error as { code: string; message: string; field?: string };
};
const usedOf = (pricing: Record<string, any>, event = 'mesh_match') => pricing.events.find((e: any) => e.event_id === event).usage.used as number;

// Each test gets owner domains of its own (identity-<n>.org), so allowances never cross tests.
let domains = 0;
const newDomain = () => `identity-${++domains}.org`;
async function listing(name: string, host: string): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: `https://${host}/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  await setListingState(app, id, { lane: 'active', live_since: NOW, name }, NOW);
  return id;
}
async function owned(id: string): Promise<string> {
  const token = await ownListing(app, id);
  tokensSeen.push(token);
  return token;
}
async function productToken(id: string, holder: string): Promise<string> {
  const { token } = await inTransaction(app.services.db.kysely, (trx) => issueToken(trx, id, holder, 'full', NOW, null));
  assert.ok(token);
  tokensSeen.push(token);
  return token;
}

test('an owner token as Bearer acts for its listing from any address, in both doors, on the one allowance its owner domain shares', async () => {
  const domain = newDomain();
  const id = await listing('Token Holder', `a.${domain}`);
  const sibling = await listing('Token Sibling', `b.${domain}`);
  const elsewhere = await listing('Other Owner', `a.${newDomain()}`);
  const token = await owned(id);
  const siblingToken = await owned(sibling);
  const otherToken = await owned(elsewhere);
  const bearer = asOwner(token);
  const one = ok(await call(TEST_TOOL, {}, newAddress(), bearer));
  assert.deepEqual([one.meter.subject.kind, one.meter.subject.label, one.meter.used_today], ['listing', id, 1]);
  const two = ok(await call(TEST_TOOL, { listing_id: id }, newAddress(), bearer));
  assert.deepEqual([two.meter.subject.label, two.meter.used_today], [id, 2]);
  const three = await rest(newAddress(), {}, bearer);
  assert.equal(three.status, 200, JSON.stringify(three.body));
  assert.equal(three.body.meter.used_today, 3);
  // Another listing of the same owner domain (a.<domain>, b.<domain>) acts as itself, on the same allowance.
  const four = ok(await call(TEST_TOOL, {}, newAddress(), asOwner(siblingToken)));
  assert.deepEqual([four.meter.subject.kind, four.meter.subject.label, four.meter.used_today], ['listing', sibling, 4]);
  // metered() itself, with the Bearer a door read from the header.
  const direct = await metered({ ...app.services, caller: { address: newAddress(), bearer: token }, requestId: 'direct' }, {}, 'mesh_match', async () => 'ran');
  assert.equal(direct.meter.used_today, 5);
  assert.deepEqual([direct.subject.listing_id, direct.subject.owner_domain], [id, domain]);
  // list_event_pricing shows the domain's day to the owner of either listing.
  for (const [t, l] of [
    [token, id],
    [siblingToken, sibling],
  ] as const) {
    const p = ok(await call('list_event_pricing', {}, newAddress(), asOwner(t)));
    assert.deepEqual([p.caller.kind, p.caller.listing_id], ['listing', l]);
    assert.equal(usedOf(p), 5);
  }
  // The allowance is the domain's: used up whatever the address, for both of its listings.
  assert.equal(failure(await call(TEST_TOOL, {}, newAddress(), bearer)).code, 'quota_exhausted');
  assert.equal(failure(await call(TEST_TOOL, {}, newAddress(), asOwner(siblingToken))).code, 'quota_exhausted');
  // Another owner domain has its own.
  const other = ok(await call(TEST_TOOL, {}, newAddress(), asOwner(otherToken)));
  assert.deepEqual([other.meter.subject.label, other.meter.used_today], [elsewhere, 1]);
});

test('a listing_id without that listing\'s owner token is the caller\'s own call: nobody spends a listing by naming it', async () => {
  const id = await listing('Guarded Agent', newDomain());
  const token = await owned(id);
  const address = newAddress();
  const stranger = new RegExp(`did not carry the owner token of ${id}`);
  const byId = ok(await call(TEST_TOOL, { listing_id: id }, address));
  assert.deepEqual([byId.meter.subject.kind, byId.meter.used_today], ['address', 1]);
  assert.match(byId.meter.subject.note, stranger);
  const restById = await rest(address, { listing_id: id });
  assert.equal(restById.status, 200, JSON.stringify(restById.body));
  assert.deepEqual([restById.body.meter.subject.kind, restById.body.meter.used_today], ['address', 2]);
  const pricing = ok(await call('list_event_pricing', { listing_id: id }, address));
  assert.deepEqual([pricing.caller.kind, pricing.caller.listing_id, usedOf(pricing)], ['address', undefined, 2]);
  assert.match(pricing.caller.note, stranger);
  // Its name is only a label here, inside this address's allowance.
  const byName = ok(await call(TEST_TOOL, { agent_name: 'Guarded Agent' }, address));
  assert.deepEqual([byName.meter.subject.kind, byName.meter.subject.label, byName.meter.used_today], ['name', 'guarded agent', 3]);
  const owner = ok(await call('list_event_pricing', { listing_id: id }, newAddress(), asOwner(token)));
  assert.deepEqual([owner.caller.kind, usedOf(owner)], ['listing', 0], 'nothing was taken from the listing');
  // With the owner token the listing_id is the listing.
  const withToken = ok(await call(TEST_TOOL, { listing_id: id }, address, asOwner(token)));
  assert.deepEqual([withToken.meter.subject.kind, withToken.meter.subject.label, withToken.meter.used_today], ['listing', id, 1]);
  // An unclaimed listing is named the same way: by id or by its name, the call is the caller's own.
  const open = await listing('Open Agent', newDomain());
  const other = newAddress();
  const openById = ok(await call(TEST_TOOL, { listing_id: open }, other));
  assert.deepEqual([openById.meter.subject.kind, openById.meter.used_today], ['address', 1]);
  const openByName = ok(await call(TEST_TOOL, { agent_name: 'Open Agent' }, other));
  assert.deepEqual([openByName.meter.subject.kind, openByName.meter.subject.label, openByName.meter.used_today], ['name', 'open agent', 2]);
});

test('an owner token used for another listing is a 403 token_mismatch, in both doors, and spends nothing', async () => {
  const domain = newDomain();
  const id = await listing('Mine', `a.${domain}`);
  const theirs = await listing('Theirs', `b.${domain}`);
  const token = await owned(id);
  await owned(theirs);
  const address = newAddress();
  const viaMcp = failure(await call(TEST_TOOL, { listing_id: theirs }, address, asOwner(token)));
  assert.deepEqual([viaMcp.code, viaMcp.field], ['token_mismatch', 'listing_id']);
  const viaRest = await rest(address, { listing_id: theirs }, asOwner(token));
  assert.equal(viaRest.status, 403, JSON.stringify(viaRest.body));
  assert.equal(viaRest.body.error.code, 'token_mismatch');
  assert.equal(failure(await call('list_event_pricing', { listing_id: theirs }, address, asOwner(token))).code, 'token_mismatch');
  const mine = ok(await call('list_event_pricing', {}, address, asOwner(token)));
  assert.equal(usedOf(mine), 0, 'a refused call spends nothing');
  assert.equal(usedOf(ok(await call('list_event_pricing', {}, address))), 0, 'nor falls back to the address');
});

test('unknown, malformed, replaced and lapsed owner tokens and rc_ product tokens as Bearer get the same 401 invalid_owner_token, in both doors', async () => {
  const replacedId = await listing('Replaced Agent', newDomain());
  const replaced = await owned(replacedId);
  await owned(replacedId); // a new claim: the earlier token stops at once
  const lapsedId = await listing('Lapsed Agent', newDomain());
  const lapsed = await owned(lapsedId);
  await app.sql.updateTable('listing_owners').set({ missing_since: NOW, lapsed_at: NOW }).where('listing_id', '=', lapsedId).execute();
  const product = await productToken(replacedId, `listing:${replacedId}`);
  const unknown = `rco_${'A'.repeat(43)}`;
  tokensSeen.push(unknown);
  const answers: string[] = [];
  for (const bad of [unknown, 'not-a-token', `rco_${'B'.repeat(10)}`, replaced, lapsed, product]) {
    const address = newAddress();
    const bearer = { authorization: `Bearer ${bad}` };
    const viaMcp = failure(await call(TEST_TOOL, {}, address, bearer));
    const pricing = failure(await call('list_event_pricing', {}, address, bearer));
    const withId = failure(await call(TEST_TOOL, { listing_id: replacedId }, address, bearer));
    const viaRest = await rest(address, {}, bearer);
    assert.equal(viaRest.status, 401, JSON.stringify(viaRest.body));
    for (const e of [viaMcp, pricing, withId, viaRest.body.error]) {
      assert.equal(e.code, 'invalid_owner_token', `${bad.slice(0, 6)}: ${JSON.stringify(e)}`);
      answers.push(e.message);
    }
    // A bad Bearer never falls back to another subject: the address spent nothing.
    assert.equal(usedOf(ok(await call('list_event_pricing', {}, address))), 0);
  }
  assert.equal(new Set(answers).size, 1, `one message for every cause: ${[...new Set(answers)].join(' | ')}`);
});

test('product tokens (rc_) never identify a caller: an access_token argument is refused as one the tool does not take, and spends nothing', async () => {
  const id = await listing('Product Holder', newDomain());
  const owner = await owned(id);
  const product = await productToken(id, `listing:${id}`);
  const address = newAddress();
  const viaMcp = failure(await call(TEST_TOOL, { access_token: product }, address));
  assert.deepEqual([viaMcp.code, viaMcp.field], ['unknown_argument', 'access_token']);
  const viaRest = await rest(address, { access_token: product });
  assert.equal(viaRest.status, 400, JSON.stringify(viaRest.body));
  assert.deepEqual([viaRest.body.error.code, viaRest.body.error.field], ['unknown_argument', 'access_token']);
  const pricing = failure(await call('list_event_pricing', { access_token: product }, address));
  assert.equal(pricing.code, 'unknown_argument');
  // Refused before anything ran: neither the caller's address nor the listing was spent.
  assert.equal(usedOf(ok(await call('list_event_pricing', {}, address))), 0);
  const listingDay = ok(await call('list_event_pricing', {}, newAddress(), asOwner(owner)));
  assert.equal(usedOf(listingDay), 0, 'the listing was never spent by its product token');
});

test('an IPv6 caller is counted by its /64: addresses of one /64 share one allowance and their agent names', async () => {
  const first = ok(await call(TEST_TOOL, {}, '2001:db8:64:1::1'));
  assert.deepEqual([first.meter.subject.kind, first.meter.used_today], ['address', 1]);
  const sameNetwork = ok(await call(TEST_TOOL, {}, '2001:db8:64:1:abcd:ef01:2345:6789'));
  assert.deepEqual([sameNetwork.meter.subject.label, sameNetwork.meter.used_today], [first.meter.subject.label, 2]);
  const named = ok(await call(TEST_TOOL, { agent_name: 'v6-agent' }, '2001:db8:64:1::99'));
  assert.deepEqual([named.meter.subject.kind, named.meter.used_today], ['name', 3]);
  const nextNetwork = ok(await call(TEST_TOOL, {}, '2001:db8:64:2::1'));
  assert.equal(nextNetwork.meter.used_today, 1, 'another /64 is another caller');
  assert.notEqual(nextNetwork.meter.subject.label, first.meter.subject.label);
});

test(`agent names are labels inside the address's allowance, at most ${NAMES_PER_ADDRESS_PER_DAY} a day: the next new name is the address itself, and says so`, async () => {
  // network_sense (10 a day) leaves room for every name and the address's own calls in one allowance.
  const address = newAddress();
  const sense = async (args: Record<string, unknown>, from = address) => ok(await call('network_sense', args, from)).meter;
  for (let i = 0; i < NAMES_PER_ADDRESS_PER_DAY; i++) {
    const m = await sense({ agent_name: `inventor-${i}` });
    assert.deepEqual([m.subject.kind, m.subject.label, m.used_today, m.subject.note], ['name', `inventor-${i}`, i + 1, undefined], 'two names from one address share one allowance');
  }
  const extra = await sense({ agent_name: 'inventor-extra' });
  assert.equal(extra.subject.kind, 'address');
  assert.match(extra.subject.note, /more than 5 agent names from one address today/);
  assert.equal(extra.used_today, NAMES_PER_ADDRESS_PER_DAY + 1);
  const again = await sense({ agent_name: 'inventor-other' });
  assert.deepEqual([again.subject.kind, again.used_today], ['address', NAMES_PER_ADDRESS_PER_DAY + 2]);
  // A name already admitted today is still its label, on the same allowance.
  const admitted = await sense({ agent_name: 'inventor-0' });
  assert.deepEqual([admitted.subject.kind, admitted.subject.label, admitted.used_today], ['name', 'inventor-0', NAMES_PER_ADDRESS_PER_DAY + 3]);
  // The same name from another address is that address's: naming it spends nothing of the first.
  const elsewhere = await sense({ agent_name: 'inventor-0' }, newAddress());
  assert.deepEqual([elsewhere.subject.kind, elsewhere.used_today], ['name', 1]);
  // Without a name, the address: the same allowance again.
  const bare = await sense({});
  assert.deepEqual([bare.subject.kind, bare.used_today], ['address', NAMES_PER_ADDRESS_PER_DAY + 4]);
});

test('tokens never appear in the logs', async () => {
  const id = await listing('Logged Agent', newDomain());
  const owner = await owned(id);
  const product = await productToken(id, `listing:${id}`);
  const address = newAddress();
  ok(await call(TEST_TOOL, {}, address, asOwner(owner)));
  ok(await call('list_event_pricing', { listing_id: id }, address, asOwner(owner)));
  failure(await call(TEST_TOOL, {}, address, { authorization: `Bearer ${product}` }));
  await rest(address, { access_token: product }, { ...asOwner(owner), 'x-payment': 'secret-payment-proof' });
  await app.http.inject({ method: 'GET', url: `/api/products/access?token=${product}&artifact=skills`, remoteAddress: address });
  await app.http.inject({ method: 'GET', url: `/api/talk?listing_id=${id}&access_token=${product}`, remoteAddress: address, headers: asOwner(owner) });
  await app.http.inject({ method: 'POST', url: '/api/mcp', remoteAddress: address, headers: { 'content-type': 'application/json', ...asOwner(owner) }, payload: '{"broken json' });
  const text = lines.join('');
  assert.ok(text.includes('[redacted]'), 'the log has request lines with redactions');
  for (const t of tokensSeen) assert.ok(!text.includes(t), 'a token reached the log');
  assert.ok(!text.includes('secret-payment-proof'));
});
