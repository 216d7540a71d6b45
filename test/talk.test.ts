import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { setListingState } from './helpers/state.ts';

let app: TestApp;
const clock = new ManualClock('2026-11-01T12:00:00.000Z');
before(async () => {
  app = await startApp({ clock, env: { TALK_GRACE_DAYS: '7' } });
});
after(() => app.close());

test('a check-in records presence: the listing shows mode present with last_at', async () => {
  const { body } = await postJson(app, '/api/publish', { url: 'https://talk.example.org/mcp', contact_email: 'private@example.org' });
  assert.equal(body.talk.mode, 'grace');
  assert.equal(body.talk.grace_days_left, 7);
  const res = await getJson(app, `/api/talk?listing_id=${body.id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.ok, true);
  assert.equal(res.body.talk.mode, 'present');
  assert.equal(res.body.talk.last_at, '2026-11-01T12:00:00.000Z');
  assert.ok(Array.isArray(res.body.inbox));
  assert.equal(res.body.inbox[0].type, 'probe_pending');
  assert.ok(res.body.next_actions.length >= 1);
  const status = await getJson(app, `/api/listings/status?id=${body.id}`);
  assert.deepEqual(status.body.talk, { required: true, active: true, mode: 'present', reason: 'checked in within the last 7 days', last_at: '2026-11-01T12:00:00.000Z' });
  clock.advance(8 * DAY_MS);
  const later = await getJson(app, `/api/listings/status?id=${body.id}`);
  assert.equal(later.body.talk.active, true, 'never Live yet: the grace has not started');
  assert.equal(later.body.talk.mode, 'grace');
});

test('grace starts when the listing goes Live and counts down in days', async () => {
  clock.set('2026-11-10T00:00:00.000Z');
  const { body } = await postJson(app, '/api/publish', { url: 'https://grace.example.org/mcp' });
  await setListingState(app, body.id, { lane: 'active', live_since: '2026-11-10T00:00:00.000Z' }, '2026-11-10T00:00:00.000Z');
  clock.advance(2.5 * DAY_MS);
  let s = (await getJson(app, `/api/listings/status?id=${body.id}`)).body.talk;
  assert.deepEqual([s.mode, s.active, s.grace_days_left], ['grace', true, 5]);
  clock.advance(5 * DAY_MS);
  s = (await getJson(app, `/api/listings/status?id=${body.id}`)).body.talk;
  assert.deepEqual([s.mode, s.active, s.grace_days_left], ['grace', false, 0]);
  await getJson(app, `/api/talk?listing_id=${body.id}`);
  s = (await getJson(app, `/api/listings/status?id=${body.id}`)).body.talk;
  assert.deepEqual([s.mode, s.active], ['present', true]);
  clock.advance(7 * DAY_MS + 1);
  s = (await getJson(app, `/api/listings/status?id=${body.id}`)).body.talk;
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
