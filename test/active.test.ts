import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

test('the active envelope has every field of SPEC.md 2.2, and queued listings are not in it', async () => {
  await postJson(app, '/api/publish', { url: 'https://queued.example.org/mcp' });
  const res = await getJson(app, '/api/listings/active');
  assert.equal(res.status, 200);
  const b = res.body;
  for (const k of ['ok', 'origin', 'brand', 'deal', 'announce', 'funnel_loop', 'badge_policy', 'stages', 'counts', 'agents', 'mcps']) assert.ok(k in b, k);
  assert.equal(b.ok, true);
  assert.equal(b.origin, 'http://localhost:8080');
  assert.deepEqual(b.stages, ['list', 'live', 'demo', 'feedback', 'discount', 'buy']);
  assert.deepEqual(Object.keys(b.badge_policy).sort(), ['demoed_no_feedback', 'feedbacked', 'founding_verified', 'never_demoed']);
  assert.equal(b.badge_policy.founding_verified.rank_delta, 120);
  assert.equal(b.badge_policy.never_demoed.rank_delta, -15);
  assert.equal(b.deal.founding_free_seats, 100);
  assert.deepEqual(b.counts, { agents_active: 0, mcp_active: 0 });
  assert.deepEqual(b.agents, []);
  assert.deepEqual(b.mcps, []);
  assert.equal(b.next_cursor, null);
});

test('active rows come in rank order and page by cursor without loss or repeats', async () => {
  // The prober issue makes listings Live for real; here the store moves them to test ordering and paging.
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    const kind = i < 5 ? 'mcp' : 'agent';
    const url = kind === 'mcp' ? `https://page${i}.example.org/mcp` : `https://page${i}.example.org/.well-known/agent-card.json`;
    const { body } = await postJson(app, '/api/publish', { url });
    await setListingState(app, body.id, { lane: 'active', checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 50 + i * 5, live_since: '2026-11-01T00:00:00.000Z' }, '2026-11-01T12:00:00.000Z');
    ids.push(body.id);
  }
  await setListingState(app, ids[0]!, { demoed: 1, feedbacked: 1, founding_verified: 1 }, '2026-11-01T12:00:00.000Z');

  const all = (await getJson(app, '/api/listings/active')).body;
  assert.deepEqual(all.counts, { agents_active: 2, mcp_active: 5 });
  assert.equal(all.mcps[0].id, ids[0], 'founding_verified (+120) leads');
  assert.equal(all.mcps[0].badge, 'founding_verified');
  const ranks = all.mcps.map((m: { rank: number }) => m.rank);
  assert.deepEqual(ranks, [...ranks].sort((a, b) => b - a));
  assert.ok(all.mcps.every((m: { take_demo: { sku: string } }) => m.take_demo.sku === 'mcp_mesh'));
  assert.ok(all.agents.every((m: { take_demo: { sku: string } }) => m.take_demo.sku === 'alive'));
  // Each row carries SPEC 2.1's ready demo request and deal.
  const row = all.mcps.find((m: { id: string }) => m.id === ids[1]);
  assert.equal(row.take_demo.method, 'POST');
  assert.deepEqual(row.take_demo.headers, { 'content-type': 'application/json', accept: 'application/json' });
  assert.deepEqual(row.take_demo.body, { listing_id: row.id, kind: 'mcp', name: row.name, sku: 'mcp_mesh', mcp_url: 'https://page1.example.org/mcp' });
  assert.match(row.take_demo.curl, /^curl -sS -X POST 'http:\/\/localhost:8080\/api\/products\/demo'/);
  assert.equal(row.take_demo_get, `http://localhost:8080/api/products/demo?listing_id=${row.id}`);
  assert.deepEqual([row.deal.founding_free_seats, row.deal.percent_off, row.deal.no_stripe], [100, 100, true]);
  for (const k of ['path', 'find_us', 'message', 'take_demo_url', 'take_demo_body', 'curl']) assert.ok(k in row.deal, k);
  const agent = all.agents[0];
  assert.deepEqual(Object.keys(agent.take_demo.body).sort(), ['agent_card_url', 'kind', 'listing_id', 'name', 'sku']);

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url: string = `/api/listings/active?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
    const page = (await getJson(app, url)).body;
    assert.ok(page.mcps.length <= 2 && page.agents.length <= 2);
    seen.push(...page.mcps.map((m: { id: string }) => m.id), ...page.agents.map((a: { id: string }) => a.id));
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 10);
  assert.equal(pages, 3);
  assert.deepEqual([...seen].sort(), [...ids].sort());
});

test('bad limit and cursor values are 400s naming the field', async () => {
  for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'limit=2.5', 'limit=-1']) {
    const res = await getJson(app, `/api/listings/active?${q}`);
    assert.equal(res.status, 400, q);
    assert.equal(res.body.error.field, 'limit', q);
  }
  for (const c of ['garbage', Buffer.from('{"agent":5}').toString('base64url'), 'x'.repeat(600)]) {
    const res = await getJson(app, `/api/listings/active?cursor=${c}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.field, 'cursor');
  }
  const max = await getJson(app, '/api/listings/active?limit=1000');
  assert.equal(max.status, 200);
  assert.equal(max.body.limit, 1000);
});

test('two instances answering first pages at one change position page one order: every listing once', async () => {
  // One change position can stand for two states (on PostgreSQL a change that commits after a later
  // one): replayed by moving ranks without a change-feed row between two instances' first pages.
  const other = await startApp({ joinStore: app.store });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { body } = await postJson(app, '/api/publish', { url: `https://one-order-${i}.example.net/mcp` });
      await setListingState(app, body.id, { lane: 'active', checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 40 + i, live_since: '2026-11-01T00:00:00.000Z' }, '2026-11-01T12:00:00.000Z');
      ids.push(body.id);
    }
    const firstA = (await getJson(app, '/api/listings/active?limit=2')).body;
    // The ranks turn round, and no change is recorded: the position stays the same.
    for (const [i, id] of ids.entries()) await app.sql.updateTable('listings').set({ rank: 1000 + i * 10 }).where('id', '=', id).execute();
    const walk = async (instance: TestApp) => {
      const seen: string[] = [];
      let page = (await getJson(instance, '/api/listings/active?limit=2')).body;
      for (;;) {
        seen.push(...page.mcps.map((m: { id: string }) => m.id));
        if (!page.next_cursor) return seen;
        page = (await getJson(instance, `/api/listings/active?limit=2&cursor=${page.next_cursor}`)).body;
      }
    };
    const mine = (seen: string[]) => seen.filter((id) => ids.includes(id));
    const seenB = mine(await walk(other));
    assert.equal(new Set(seenB).size, seenB.length, `no repeats: ${seenB}`);
    assert.deepEqual([...seenB].sort(), [...ids].sort(), 'every listing once');
    assert.ok(firstA.mcps.length > 0);
  } finally {
    await other.close();
  }
});
