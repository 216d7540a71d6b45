// The active list's cache: ETag and 304 while nothing changed, a new answer on every kind of
// change, and cursors that page one fixed order while listings change underneath.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';

const clock = new ManualClock('2026-11-01T12:00:00.000Z');
let app: TestApp;
before(async () => {
  app = await startApp({ clock, env: { ACTIVE_CACHE_MS: '2000' } });
});
after(() => app.close());

const now = () => clock.now().toISOString();
async function liveListing(name: string, score = 60): Promise<string> {
  const { body } = await postJson(app, '/api/publish', { url: `https://${name}.example.org/mcp`, name });
  await setListingState(app, body.id, { lane: 'active', checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: score, probed_at: now(), live_since: now() }, now());
  return body.id;
}
async function get(headers: Record<string, string> = {}, query = '') {
  const res = await app.http.inject({ method: 'GET', url: `/api/listings/active${query}`, headers });
  return { status: res.statusCode, etag: String(res.headers.etag ?? ''), body: res.body };
}

test('an unchanged list answers 304 to its ETag, with no body', async () => {
  await liveListing('alpha');
  const first = await get();
  assert.equal(first.status, 200);
  assert.match(first.etag, /^"[A-Za-z0-9_-]+"$/);
  const again = await get({ 'if-none-match': first.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal((await get({ 'if-none-match': `W/${first.etag}` })).status, 304, 'weak comparison');
  assert.equal((await get({ 'if-none-match': '"something-else"' })).status, 200);
  // A change that does not show in the list (a new queued listing) leaves the same content: still 304.
  await postJson(app, '/api/publish', { url: 'https://not-live-yet.example.org/mcp' });
  assert.equal((await get({ 'if-none-match': first.etag })).status, 304);
});

test('every kind of change gives a new answer', async () => {
  const beta = await liveListing('beta');
  let token = '';
  const changes: [string, () => Promise<unknown>][] = [
    ['a listing goes Live', () => liveListing('gamma')],
    ['a listing leaves (dormant)', () => setListingState(app, beta, { lane: 'dormant', lane_reason: 'talk_absent' }, now())],
    ['a listing comes back', () => setListingState(app, beta, { lane: 'active', lane_reason: null }, now())],
    ['a rank change (demo taken)', () => setListingState(app, beta, { demoed: 1 }, now())],
    ['a probe result (score)', () => setListingState(app, beta, { probe_score: 91, probed_at: now() }, now())],
    ['a listing claimed by its owner', async () => (token = await ownListing(app, beta))],
    ['a talk check-in (the owner\'s POST)', async () => assert.equal((await postJson(app, '/api/talk', { listing_id: beta }, asOwner(token))).status, 200)],
    ['a republished listing re-probed (name)', () => setListingState(app, beta, { name: 'Beta Renamed' }, now())],
    ['time passing (age_hours, grace days)', async () => clock.advance(3 * 3600_000)],
  ];
  for (const [what, change] of changes) {
    const before = await get();
    await change();
    const after = await get({ 'if-none-match': before.etag });
    assert.equal(after.status, 200, what);
    assert.notEqual(after.etag, before.etag, what);
    assert.notEqual(after.body, before.body, what);
  }
  // Reading the talk channel, even as the owner, is no check-in: the list is the same.
  const still = await get();
  await getJson(app, `/api/talk?listing_id=${beta}`, asOwner(token));
  assert.equal((await get({ 'if-none-match': still.etag })).status, 304);
});

test('within its lifetime and feed position the cache serves the same bytes', async () => {
  const a = await get();
  // A write that bypasses the change feed is not seen while the cached answer lives: it is served from the cache.
  const someone = JSON.parse(a.body).mcps[0];
  await app.sql.updateTable('listings').set({ name: 'Renamed Behind The Feed' }).where('id', '=', someone.id).execute();
  clock.advance(1000);
  const b = await get();
  assert.equal(b.etag, a.etag);
  assert.ok(!b.body.includes('Renamed Behind The Feed'));
  // Past ACTIVE_CACHE_MS it is rebuilt: 60 s later the probe ages (hundredths of an hour) have moved.
  clock.advance(60_000);
  const c = await get();
  assert.notEqual(c.etag, a.etag);
  assert.ok(c.body.includes('Renamed Behind The Feed'), 'rebuilt from the database');
});

test('cursors page one fixed order while ranks, lanes and new listings change meanwhile', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) ids.push(await liveListing(`page-${i}`, 40 + i));
  const first = JSON.parse((await get({}, '?limit=3')).body);
  const startIds = new Set<string>([...first.mcps.map((m: { id: string }) => m.id)]);
  const allAtStart = JSON.parse((await get({}, '?limit=1000')).body).mcps.map((m: { id: string }) => m.id) as string[];
  const seen: string[] = [...startIds];
  // Meanwhile: the last listing jumps to the top, one on a later page leaves, a new one goes Live.
  const last = allAtStart[allAtStart.length - 1]!;
  const leaving = allAtStart[allAtStart.length - 2]!;
  await setListingState(app, last, { demoed: 1, feedbacked: 1, founding_verified: 1 }, now());
  await setListingState(app, leaving, { lane: 'failed', lane_reason: 'unreachable' }, now());
  const newcomer = await liveListing('newcomer', 99);
  let cursor: string | null = first.next_cursor;
  while (cursor) {
    const page = JSON.parse((await get({}, `?limit=3&cursor=${cursor}`)).body);
    seen.push(...page.mcps.map((m: { id: string }) => m.id));
    cursor = page.next_cursor;
  }
  const expected = allAtStart.filter((id) => id !== leaving);
  assert.deepEqual([...seen].sort(), [...expected].sort(), 'every listing Live throughout, exactly once');
  assert.equal(new Set(seen).size, seen.length, 'no repeats');
  assert.ok(!seen.includes(newcomer), 'a listing that went Live meanwhile waits for a fresh first page');
  const fresh = JSON.parse((await get({}, '?limit=1000')).body);
  assert.equal(fresh.mcps[0].id, last, 'a fresh first page shows the new order');
});

test('an expired cursor is a 410 that says to start again', async () => {
  const page = JSON.parse((await get({}, '?limit=1')).body);
  assert.ok(page.next_cursor);
  await app.sql.deleteFrom('active_snapshots').execute();
  const res = await getJson(app, `/api/listings/active?limit=1&cursor=${page.next_cursor}`);
  assert.equal(res.status, 410);
  assert.equal(res.body.error.code, 'cursor_expired');
});

test('the answer cache stays bounded and keys on the parsed query', async () => {
  const { AnswerCache } = await import('../src/http/response-cache.ts');
  const cache = new AnswerCache<string>();
  const MiB = 1024 * 1024;
  for (let i = 0; i < 20; i++) cache.set(`k${i}`, 1, 0, 60_000, `v${i}`, 4 * MiB);
  const kept = Array.from({ length: 20 }, (_, i) => cache.get(`k${i}`, 1, 0)).filter(Boolean).length;
  assert.ok(kept <= 8, `at most 32 MiB kept (${kept} entries of 4 MiB)`);
  assert.equal(cache.get('k19', 1, 0), 'v19', 'the newest entry stays');
  assert.equal(cache.get('k19', 2, 0), undefined, 'a moved change feed misses');
  assert.equal(cache.get('k19', 1, 60_000), undefined, 'so does an entry past its lifetime');
  // Expired entries leave as new ones come, however small: memory follows the lifetime, not the bound.
  for (let i = 0; i < 5; i++) cache.set(`small${i}`, 1, 120_000, 60_000, 's', 1);
  assert.equal(cache.get('k19', 1, 0), undefined);
  for (let i = 0; i < 3000; i++) cache.set(`n${i}`, 1, 200_000, 60_000, 'n', 1);
  assert.equal(cache.get('n0', 1, 200_000), undefined, 'at most 2,048 entries: the oldest went');
  assert.equal(cache.get('n2999', 1, 200_000), 'n');
  // Unknown parameters do not make new entries: the same ETag and a 304.
  const plain = await get();
  const noisy = await get({ 'if-none-match': plain.etag }, '?utm_source=x&limit=100');
  assert.equal(noisy.status, 304);
});
