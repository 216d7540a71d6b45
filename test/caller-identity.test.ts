// Caller identity through the doors (DESIGN.md "Caller identity", issue 12): whose allowance a call
// spends. A token (Bearer header or access_token argument) spends its listing's allowance; a
// listing that holds a token is not spent by naming it; bad, malformed and revoked tokens get one
// identical 401; free-form agent names are bounded per address; tokens never reach the logs.
// Metered calls go through a test-only metered tool installed in both doors (helpers/metered-tool.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { installTestTool, TEST_ROUTE, TEST_TOOL } from './helpers/metered-tool.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { issueToken, revokeListingToken } from '../src/access/store.ts';
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

let listings = 0;
async function listing(name: string): Promise<string> {
  const res = await postJson(app, '/api/publish', { url: `https://identity-${++listings}.example.org/mcp` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  await setListingState(app, id, { lane: 'active', live_since: NOW, name }, NOW);
  return id;
}
async function tokenFor(id: string): Promise<string> {
  const { token } = await inTransaction(app.services.db.kysely, (trx) => issueToken(trx, id, 'demo', NOW));
  assert.ok(token);
  tokensSeen.push(token);
  return token;
}

test('a token as Bearer header or as access_token spends its listing\'s allowance, from any address, in both doors', async () => {
  const id = await listing('Token Holder');
  const token = await tokenFor(id);
  const bearer = { authorization: `Bearer ${token}` };
  const one = ok(await call(TEST_TOOL, {}, newAddress(), bearer));
  assert.deepEqual([one.meter.subject.kind, one.meter.subject.label, one.meter.used_today], ['listing', id, 1]);
  const two = ok(await call(TEST_TOOL, { access_token: token }, newAddress()));
  assert.equal(two.meter.used_today, 2);
  const three = await rest(newAddress(), {}, bearer);
  assert.equal(three.status, 200, JSON.stringify(three.body));
  assert.equal(three.body.meter.used_today, 3);
  assert.equal((await rest(newAddress(), { access_token: token })).body.meter.used_today, 4);
  // metered() itself, with the token a door read from the header.
  const direct = await metered({ ...app.services, caller: { address: newAddress(), token }, requestId: 'direct' }, {}, 'mesh_match', async () => 'ran');
  assert.equal(direct.meter.used_today, 5);
  assert.equal(direct.subject.listing_id, id);
  // list_event_pricing shows that listing's day, whichever way the token comes.
  const viaHeader = ok(await call('list_event_pricing', {}, newAddress(), bearer));
  const viaArg = ok(await call('list_event_pricing', { access_token: token }, newAddress()));
  for (const p of [viaHeader, viaArg]) {
    assert.deepEqual([p.caller.kind, p.caller.listing_id], ['listing', id]);
    assert.equal(usedOf(p), 5);
  }
  // The allowance is the listing's: used up whatever the address.
  const spent = failure(await call(TEST_TOOL, { access_token: token }, newAddress()));
  assert.equal(spent.code, 'quota_exhausted');
});

test('a listing that holds a token is not spent by naming it: listing_id without the token is 401 token_required', async () => {
  const id = await listing('Guarded Agent');
  const token = await tokenFor(id);
  const address = newAddress();
  const byId = failure(await call(TEST_TOOL, { listing_id: id }, address));
  assert.deepEqual([byId.code, byId.field], ['token_required', 'access_token']);
  const restById = await rest(address, { listing_id: id });
  assert.equal(restById.status, 401);
  assert.equal(restById.body.error.code, 'token_required');
  assert.equal(failure(await call('list_event_pricing', { listing_id: id }, address)).code, 'token_required');
  // Its name is only a free-form name here: it spends that name's allowance from this address.
  const byName = ok(await call(TEST_TOOL, { agent_name: 'Guarded Agent' }, address));
  assert.equal(byName.meter.subject.kind, 'name');
  const owner = ok(await call('list_event_pricing', { access_token: token }, newAddress()));
  assert.equal(usedOf(owner), 0, 'nothing was taken from the listing');
  // With the token the listing_id is fine.
  const withToken = ok(await call(TEST_TOOL, { listing_id: id, access_token: token }, address));
  assert.deepEqual([withToken.meter.subject.kind, withToken.meter.used_today], ['listing', 1]);
  // A listing without a token is spent by its id (and its unique name) as before.
  const open = await listing('Open Agent');
  assert.equal(ok(await call(TEST_TOOL, { listing_id: open }, newAddress())).meter.subject.label, open);
  assert.equal(ok(await call(TEST_TOOL, { agent_name: 'open agent' }, newAddress())).meter.used_today, 2);
});

test('unknown, malformed and revoked tokens get the same 401 invalid_token, as header or argument, in both doors', async () => {
  const id = await listing('Revoked Agent');
  const token = await tokenFor(id);
  await revokeListingToken(app.services.db.kysely, id, NOW);
  const unknown = `rc_${'A'.repeat(43)}`;
  tokensSeen.push(unknown);
  const answers: string[] = [];
  for (const bad of [unknown, 'not-a-token', token]) {
    const address = newAddress();
    const asArg = failure(await call(TEST_TOOL, { access_token: bad }, address));
    const asHeader = failure(await call(TEST_TOOL, {}, address, { authorization: `Bearer ${bad}` }));
    const pricing = failure(await call('list_event_pricing', { access_token: bad }, address));
    const viaRest = await rest(address, {}, { authorization: `Bearer ${bad}` });
    assert.equal(viaRest.status, 401);
    for (const e of [asArg, asHeader, pricing, viaRest.body.error]) {
      assert.equal(e.code, 'invalid_token');
      answers.push(e.message);
    }
    // A bad token never falls back to another subject.
    assert.equal(asArg.code, 'invalid_token');
  }
  assert.equal(new Set(answers).size, 1, `one message for every cause: ${[...new Set(answers)].join(' | ')}`);
});

test(`free-form agent names are bounded per address: the ${NAMES_PER_ADDRESS_PER_DAY + 1}th new name today spends the address's allowance, and says so`, async () => {
  const address = newAddress();
  for (let i = 0; i < NAMES_PER_ADDRESS_PER_DAY; i++) {
    const r = ok(await call(TEST_TOOL, { agent_name: `inventor-${i}` }, address));
    assert.deepEqual([r.meter.subject.kind, r.meter.subject.label, r.meter.used_today, r.meter.subject.note], ['name', `inventor-${i}`, 1, undefined]);
  }
  const extra = ok(await call(TEST_TOOL, { agent_name: 'inventor-extra' }, address));
  assert.equal(extra.meter.subject.kind, 'address');
  assert.match(extra.meter.subject.note, /more than 5 agent names from one address today/);
  assert.equal(extra.meter.used_today, 1);
  const again = ok(await call(TEST_TOOL, { agent_name: 'inventor-other' }, address));
  assert.deepEqual([again.meter.subject.kind, again.meter.used_today], ['address', 2], 'every further name shares the one address allowance');
  // A name already admitted today keeps its own allowance.
  assert.deepEqual([ok(await call(TEST_TOOL, { agent_name: 'inventor-0' }, address)).meter.used_today], [2]);
  // The same name from another address is another subject: naming it spends nothing of the first.
  const elsewhere = ok(await call(TEST_TOOL, { agent_name: 'inventor-0' }, newAddress()));
  assert.deepEqual([elsewhere.meter.subject.kind, elsewhere.meter.used_today], ['name', 1]);
  // Without any claim, the address is the subject.
  const bare = ok(await call(TEST_TOOL, {}, address));
  assert.deepEqual([bare.meter.subject.kind, bare.meter.used_today], ['address', 3]);
});

test('tokens never appear in the logs', async () => {
  const id = await listing('Logged Agent');
  const token = await tokenFor(id);
  const address = newAddress();
  ok(await call(TEST_TOOL, { access_token: token }, address));
  ok(await call('list_event_pricing', {}, address, { authorization: `Bearer ${token}` }));
  await rest(address, { access_token: token }, { authorization: `Bearer ${token}`, 'x-payment': 'secret-payment-proof' });
  await app.http.inject({ method: 'GET', url: `/api/talk?listing_id=${id}&token=${token}`, remoteAddress: address });
  await app.http.inject({ method: 'POST', url: '/api/mcp', remoteAddress: address, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, payload: '{"broken json' });
  const text = lines.join('');
  assert.ok(text.includes('[redacted]'), 'the log has request lines with redactions');
  for (const t of tokensSeen) assert.ok(!text.includes(t), 'a token reached the log');
  assert.ok(!text.includes('secret-payment-proof'));
});
