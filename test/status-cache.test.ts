// Cached reads (Operation.cacheMs): a poll of an unchanged listing is answered from each door's
// cache; any change through the feed, or the end of the lifetime, gives a fresh answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, postJson, type TestApp } from './helpers/app.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock } from '../src/platform/clock.ts';

let app: TestApp;
let base: string;
let client: Client;
let id: string;
const clock = new ManualClock('2026-11-01T12:00:00.000Z');

before(async () => {
  app = await startApp({ clock, env: { STATUS_CACHE_MS: '1000' } });
  base = await app.listen();
  client = new Client({ name: 'status-cache-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  id = (await postJson(app, '/api/publish', { url: 'https://cached.example.org/mcp', name: 'Cached Status' })).body.id;
});
after(async () => {
  await client.close();
  await app.close();
});

const status = (headers: Record<string, string> = {}) => fetch(`${base}/api/listings/status?id=${id}`, { headers });
const mcpStatus = async (name = 'check_status') => {
  const result = await client.callTool({ name, arguments: { id } });
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  assert.deepEqual(JSON.parse(text), result.structuredContent, 'the text content mirrors structuredContent');
  return result.structuredContent as Record<string, any>;
};
/** Changes the listing's description without recording a change: only the lifetime ends a cached answer of it. */
const writeBehindFeed = (description: string) => app.sql.updateTable('listings').set({ description }).where('id', '=', id).execute();

test('REST status carries an ETag and answers a matching If-None-Match with 304', async () => {
  const first = await status();
  assert.equal(first.status, 200);
  const etag = first.headers.get('etag');
  assert.match(etag ?? '', /^"[\w-]+"$/);
  assert.equal(first.headers.get('cache-control'), 'no-cache');
  const again = await status({ 'if-none-match': etag! });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), '');
});

test('a poll of an unchanged listing is answered from the cache, on both doors', async () => {
  const rest = await (await status()).json();
  const viaMcp = await mcpStatus();
  await writeBehindFeed('written behind the feed');
  assert.equal((await (await status()).json()).description, rest.description, 'REST: the cached answer');
  assert.equal((await mcpStatus()).description, viaMcp.description, 'MCP: the cached answer');
  // The lifetime ends it: the next poll reads the database again.
  clock.advance(1000);
  assert.equal((await (await status()).json()).description, 'written behind the feed');
  assert.equal((await mcpStatus()).description, 'written behind the feed');
  assert.equal((await mcpStatus('get_listing_status')).description, 'written behind the feed', 'the alias answers the same');
});

test('a change through the feed is seen at once: a claim, the owner\'s talk check-in, each a new ETag', async () => {
  const unclaimed = await status();
  const first = unclaimed.headers.get('etag')!;
  const view = await unclaimed.json();
  assert.deepEqual([view.claimed, view.talk.required, view.talk.mode], [false, false, 'present']);
  // Claimed: the check-in is required now, and waits in its grace.
  const token = await ownListing(app, id);
  const claimed = await status({ 'if-none-match': first });
  assert.equal(claimed.status, 200, 'the claim is a change');
  const etag = claimed.headers.get('etag')!;
  assert.notEqual(etag, first);
  assert.deepEqual([(await claimed.json()).talk.mode, (await mcpStatus()).talk.mode], ['grace', 'grace']);
  // Reading the talk channel checks nobody in: the ETag still matches.
  assert.equal((await fetch(`${base}/api/talk?listing_id=${id}`, { headers: asOwner(token) })).status, 200);
  assert.equal((await status({ 'if-none-match': etag })).status, 304);
  const checkIn = await fetch(`${base}/api/talk`, { method: 'POST', headers: { 'content-type': 'application/json', ...asOwner(token) }, body: JSON.stringify({ listing_id: id }) });
  assert.equal(checkIn.status, 200);
  const after = await status({ 'if-none-match': etag });
  assert.equal(after.status, 200, 'the old ETag no longer matches');
  assert.notEqual(after.headers.get('etag'), etag);
  assert.equal((await after.json()).talk.mode, 'present');
  assert.equal((await mcpStatus()).talk.mode, 'present', 'MCP sees it with the clock standing still');
});

test('a cached MCP answer is the same JSON-RPC answer as the first, in JSON and in SSE, in both eras', async () => {
  const MODERN = '2026-07-28';
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  const call = async (rpcId: number | string, accept: string, modern: boolean) => {
    const params = { name: 'check_status', arguments: { id }, ...(modern ? { _meta: envelope } : {}) };
    const headers = { 'content-type': 'application/json', accept, ...(modern ? { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'check_status' } : {}) };
    const res = await fetch(`${base}/api/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: rpcId, method: 'tools/call', params }) });
    assert.equal(res.status, 200);
    const text = await res.text();
    if (accept !== 'text/event-stream') return { type: res.headers.get('content-type'), json: text };
    const m = /^event: message\ndata: (.*)\n\n$/s.exec(text);
    assert.ok(m, `one SSE message event: ${text.slice(0, 80)}`);
    return { type: res.headers.get('content-type'), json: m[1]! };
  };
  clock.advance(1000); // a fresh entry: the first call below fills it, the others are answered from it
  for (const modern of [false, true]) {
    const first = await call(1, 'application/json, text/event-stream', modern);
    // The same answer again, by id (a number, a string with characters JSON escapes, non-ASCII), as JSON and as SSE.
    const again = await call('päll "7"', 'application/json', modern);
    const streamed = await call(3, 'text/event-stream', modern);
    assert.equal(first.type, 'application/json; charset=utf-8');
    assert.equal(again.type, 'application/json; charset=utf-8');
    assert.equal(streamed.type, 'text/event-stream');
    const parsed = [first, again, streamed].map((a) => JSON.parse(a.json));
    assert.deepEqual(parsed.map((p) => p.id), [1, 'päll "7"', 3]);
    for (const p of parsed) assert.deepEqual(p.result, parsed[0].result);
    assert.equal(parsed[0].result.resultType, modern ? 'complete' : undefined);
    assert.deepEqual(JSON.parse(parsed[0].result.content[0].text), parsed[0].result.structuredContent);
    assert.equal(first.json.replace('"id":1,', ''), again.json.replace(`"id":${JSON.stringify('päll "7"')},`, ''), 'the same bytes around the id');
  }
});

test('errors are never cached, and every cached answer still counts as a tool call', async () => {
  // A name nobody has yet is a 404; once a listing has it (written behind the feed, the clock
  // standing still), the same call finds it on both doors: the 404 was not kept.
  const byName = { name: 'Named Behind The Feed' };
  const missing = await client.callTool({ name: 'check_status', arguments: byName });
  assert.equal(missing.isError, true);
  assert.equal((await fetch(`${base}/api/listings/status?name=Named%20Behind%20The%20Feed`)).status, 404);
  await app.sql.updateTable('listings').set({ name: byName.name }).where('id', '=', id).execute();
  const found = await client.callTool({ name: 'check_status', arguments: byName });
  assert.equal(found.isError, undefined);
  assert.equal((found.structuredContent as { id: string }).id, id);
  assert.equal((await fetch(`${base}/api/listings/status?name=Named%20Behind%20The%20Feed`)).status, 200);
  const bad = await client.callTool({ name: 'check_status', arguments: {} });
  assert.equal(bad.isError, true);
  assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'invalid_input');

  await app.services.usage.flush();
  const count = async () =>
    Number((await app.sql.selectFrom('usage_counters').select('n').where('name', '=', 'tool:check_status').executeTakeFirst())?.n ?? 0);
  const before = await count();
  await mcpStatus();
  await mcpStatus();
  await app.services.usage.flush();
  assert.equal((await count()) - before, 2);
});

test('STATUS_CACHE_MS=0 turns the status cache off', async () => {
  const off = await startApp({ env: { STATUS_CACHE_MS: '0' } });
  try {
    const listing = (await postJson(off, '/api/publish', { url: 'https://uncached.example.org/mcp' })).body.id;
    const read = async () => (await off.http.inject({ url: `/api/listings/status?id=${listing}` })).json().description;
    await read();
    await off.sql.updateTable('listings').set({ description: 'seen at once' }).where('id', '=', listing).execute();
    assert.equal(await read(), 'seen at once');
  } finally {
    await off.close();
  }
});
