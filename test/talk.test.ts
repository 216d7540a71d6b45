// Talk (SPEC.md 3.2): GET /api/talk reads a listing's presence and notices and writes nothing; the
// owner's check-in (POST /api/talk with the owner token) records presence. An unclaimed listing
// needs no check-in; a claimed one's grace starts at the later of going Live and being claimed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';

let app: TestApp;
const clock = new ManualClock('2026-11-01T12:00:00.000Z');
before(async () => {
  app = await startApp({ clock, env: { TALK_GRACE_DAYS: '7' } });
});
after(() => app.close());

/** Change-feed rows about one listing (the search index and caches follow them). */
const changesOf = async (id: string) => (await app.sql.selectFrom('changes').select('seq').where('entity_id', '=', id).execute()).length;
const talkOf = async (id: string) => (await getJson(app, `/api/listings/status?id=${id}`)).body.talk;

test('an unclaimed listing needs no check-in; GET /api/talk only reads; the owner\'s POST check-in records presence with last_at', async () => {
  const { body } = await postJson(app, '/api/publish', { url: 'https://talk.example.org/mcp', contact_email: 'private@example.org' });
  assert.deepEqual([body.claimed, body.talk.required, body.talk.active, body.talk.mode], [false, false, true, 'present']);
  assert.match(body.talk.reason, /^unclaimed: /);
  // GET is read-only: presence and notices, no check-in, no change-feed row, no inbox for a stranger.
  const changes = await changesOf(body.id);
  const res = await getJson(app, `/api/talk?listing_id=${body.id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.ok, true);
  assert.equal(res.body.talk.last_at, undefined);
  assert.deepEqual(
    res.body.inbox.map((i: { type: string }) => i.type),
    ['probe_pending', 'unclaimed'],
  );
  assert.ok(res.body.next_actions.some((a: { tool: string }) => a.tool === 'claim_listing'));
  assert.deepEqual(res.body.check_in.needs, ['owner_token']);
  assert.equal(await changesOf(body.id), changes, 'reading the talk channel writes nothing');
  assert.equal((await talkOf(body.id)).last_at, undefined);
  // Claimed: the check-in is required now, and the grace waits for the listing to go Live.
  const token = await ownListing(app, body.id);
  let s = await talkOf(body.id);
  assert.deepEqual([s.required, s.active, s.mode, s.grace_days_left], [true, true, 'grace', 7]);
  const anonymous = await postJson(app, '/api/talk', { listing_id: body.id });
  assert.deepEqual([anonymous.status, anonymous.body.error.code], [401, 'owner_token_required']);
  const checkIn = await postJson(app, '/api/talk', { listing_id: body.id }, asOwner(token));
  assert.equal(checkIn.status, 200, JSON.stringify(checkIn.body));
  assert.equal(checkIn.body.talk.mode, 'present');
  assert.equal(checkIn.body.talk.last_at, '2026-11-01T12:00:00.000Z');
  assert.equal(checkIn.body.checked_in_at, '2026-11-01T12:00:00.000Z');
  assert.ok(Array.isArray(checkIn.body.inbox));
  assert.equal(checkIn.body.inbox[0].type, 'probe_pending');
  assert.ok(checkIn.body.next_actions.length >= 1);
  s = await talkOf(body.id);
  assert.deepEqual(s, { required: true, active: true, mode: 'present', reason: 'checked in within the last 7 days', last_at: '2026-11-01T12:00:00.000Z' });
  clock.advance(8 * DAY_MS);
  const later = await talkOf(body.id);
  assert.equal(later.active, true, 'never Live yet: the grace has not started');
  assert.equal(later.mode, 'grace');
});

test('grace starts at the later of going Live and being claimed, counts down in days, and only the owner\'s check-in ends it', async () => {
  clock.set('2026-11-10T00:00:00.000Z');
  const { body } = await postJson(app, '/api/publish', { url: 'https://grace.example.org/mcp' });
  const late = (await postJson(app, '/api/publish', { url: 'https://grace-late.example.org/mcp' })).body;
  const never = (await postJson(app, '/api/publish', { url: 'https://grace-never.example.org/mcp' })).body;
  for (const id of [body.id, late.id, never.id]) await setListingState(app, id, { lane: 'active', live_since: '2026-11-10T00:00:00.000Z' }, '2026-11-10T00:00:00.000Z');
  const token = await ownListing(app, body.id);
  clock.advance(2.5 * DAY_MS);
  let s = await talkOf(body.id);
  assert.deepEqual([s.mode, s.active, s.grace_days_left], ['grace', true, 5]);
  // Claimed 2.5 days after it went Live: its grace starts at the claim.
  await ownListing(app, late.id, { heldForDays: 0 });
  s = await talkOf(late.id);
  assert.deepEqual([s.mode, s.active, s.grace_days_left], ['grace', true, 7]);
  clock.advance(5 * DAY_MS);
  s = await talkOf(body.id);
  assert.deepEqual([s.mode, s.active, s.grace_days_left], ['grace', false, 0]);
  assert.deepEqual([(await talkOf(late.id)).mode, (await talkOf(late.id)).grace_days_left], ['grace', 2]);
  // An unclaimed listing never goes absent: nobody can check in for it.
  s = await talkOf(never.id);
  assert.deepEqual([s.required, s.active, s.mode], [false, true, 'present']);
  // Reading is no check-in; the owner's POST is.
  await getJson(app, `/api/talk?listing_id=${body.id}`, asOwner(token));
  assert.equal((await talkOf(body.id)).active, false, 'a GET checks nobody in');
  assert.equal((await postJson(app, '/api/talk', { listing_id: body.id }, asOwner(token))).status, 200);
  s = await talkOf(body.id);
  assert.deepEqual([s.mode, s.active], ['present', true]);
  clock.advance(7 * DAY_MS + 1);
  s = await talkOf(body.id);
  assert.deepEqual([s.mode, s.active], ['present', false], 'a stale check-in no longer counts');
});

test('without listing_id the channel explains itself; feed=1 adds the public feed with no personal data', async () => {
  const info = await getJson(app, '/api/talk');
  assert.equal(info.status, 200);
  assert.equal(info.body.feed, undefined);
  assert.ok(info.body.next_actions.length > 0);
  const feed = await getJson(app, '/api/talk?feed=1');
  assert.ok(feed.body.feed.length > 0);
  assert.ok(feed.body.feed.every((i: { event: string; listing: { id: string } }) => i.event.startsWith('listing.') && i.listing.id));
  assert.ok(!JSON.stringify(feed.body).includes('private@example.org'));
  assert.ok(!JSON.stringify(feed.body).includes('@'));
});

test('the public feed repeats no email or address that a listing name carries', async () => {
  await postJson(app, '/api/publish', { url: 'https://named.example.org/mcp', name: 'Ask jane.doe@example.com at 10.1.2.3' });
  const feed = (await getJson(app, '/api/talk?feed=1')).body.feed;
  const item = feed.find((i: { listing: { name: string } }) => i.listing.name.startsWith('Ask'));
  assert.equal(item.listing.name, 'Ask [email] at [address]');
});

test('talk errors: unknown listing 404, bad values 400', async () => {
  const unknown = await getJson(app, '/api/talk?listing_id=lst_missing');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.field, 'listing_id');
  const badFeed = await getJson(app, '/api/talk?feed=yes');
  assert.equal(badFeed.status, 400);
  assert.equal(badFeed.body.error.field, 'feed');
});
