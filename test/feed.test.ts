// The public activity feed: listed and live events, newest first, paged by cursor, and
// no personal data whatever the listings carry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';

let app: TestApp;
let agent: AgentPeer;
before(async () => {
  agent = await startA2aAgent();
  app = await startApp({ probing: true, env: { PROBE_ALLOW_PRIVATE: '1', PROBE_RATE_PER_MIN: '0' } });
});
after(async () => {
  await app.close();
  await agent.close();
});

test('a listing is listed, then goes Live: both events, newest first, with the listing named', async () => {
  const { body } = await postJson(app, '/api/publish', { url: agent.cardUrl, contact_email: 'owner@example.org', source: 'my-secret-source' });
  assert.equal((await waitForLane(app, body.id, ['active'])).lane, 'active');
  const feed = await getJson(app, '/api/feed');
  assert.equal(feed.status, 200);
  const mine = feed.body.items.filter((i: { listing: { id: string } }) => i.listing.id === body.id);
  assert.deepEqual(
    mine.map((i: { event: string }) => i.event),
    ['listing.live', 'listing.listed'],
  );
  assert.equal(mine[0].listing.name, 'Polyglot Translator');
  assert.equal(typeof mine[0].score, 'number', 'a live event carries the score');
  assert.ok(feed.body.items.every((i: { seq: number }, n: number, all: { seq: number }[]) => n === 0 || all[n - 1]!.seq > i.seq), 'newest first');
});

test('the feed pages by cursor without loss or repeats', async () => {
  for (let i = 0; i < 7; i++) await postJson(app, '/api/publish', { url: `https://page-${i}.example.org/mcp` });
  const all = (await getJson(app, '/api/feed?limit=100')).body.items.map((i: { seq: number }) => i.seq);
  const seen: number[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: { seq: number }[]; next_cursor: string | null } = (await getJson(app, `/api/feed?limit=3${cursor ? `&cursor=${cursor}` : ''}`)).body;
    assert.ok(page.items.length <= 3);
    seen.push(...page.items.map((i) => i.seq));
    cursor = page.next_cursor;
  } while (cursor);
  assert.deepEqual(seen, all);
  for (const bad of ['limit=0', 'limit=101', 'cursor=abc', 'cursor=-1']) {
    const res = await getJson(app, `/api/feed?${bad}`);
    assert.equal(res.status, 400, bad);
    assert.equal(res.body.error.code, 'invalid_input');
  }
});

test('no email, token, address, contact or free text ever appears in the feed', async () => {
  // A card name is written by strangers: an email or an address inside it is masked.
  const published = await postJson(app, '/api/publish', {
    url: 'https://personal.example.org/mcp',
    name: 'Ask jane.doe@example.com at 203.0.113.9 or 2001:db8::1',
    contact_email: 'private.person@example.net',
    source: 'a free-text note that must stay private',
  });
  assert.equal(published.status, 200);
  const text = JSON.stringify((await getJson(app, '/api/feed?limit=100')).body);
  for (const secret of ['jane.doe@example.com', 'private.person@example.net', 'owner@example.org', '203.0.113.9', '2001:db8::1', 'free-text note', 'my-secret-source', 'rc_']) {
    assert.ok(!text.includes(secret), `the feed shows ${secret}`);
  }
  assert.ok(!/[^\s"@]+@[^\s"@]+\.[a-z]{2,}/i.test(text), 'no email-shaped text at all');
  assert.ok(!/\b\d{1,3}(?:\.\d{1,3}){3}\b/.test(text), 'no IPv4 address at all');
  assert.match(text, /Ask \[email\] at \[address\] or \[address\]/);
  // Only these keys are ever present on an item.
  for (const item of (await getJson(app, '/api/feed?limit=100')).body.items) {
    for (const key of Object.keys(item)) assert.ok(['seq', 'at', 'event', 'listing', 'score'].includes(key), key);
    assert.deepEqual(Object.keys(item.listing).sort(), ['id', 'kind', 'lane', 'name']);
  }
});

test('the talk channel shows the same feed', async () => {
  await app.jobs.idle(); // probes still running would change a lane between the two reads
  const talk = await getJson(app, '/api/talk?feed=1');
  const feed = await getJson(app, '/api/feed');
  assert.deepEqual(talk.body.feed, feed.body.items);
});
