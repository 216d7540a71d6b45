// Tenants of shared hosting are owners of their own, and one group together, replayed through the
// real doors: `x.alice.github.io` and `y.bob.github.io` spend separate allowances, and one's owner
// token is a stranger's on the other's host; the tenants of one private suffix together take at
// most 3 seats or codes, count at most 3 times for the payments gate, and move one target's rank
// once a day; several owner domains move one target's rank by at most 5 points each a week; and a
// claim younger than 7 days moves none.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { engine, getJson, postJson, startApp, type TestApp } from './helpers/app.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { setListingState } from './helpers/state.ts';
import { DAY_MS, ManualClock } from '../src/platform/clock.ts';
import { RANK_POINTS_PER_DOMAIN_PER_WEEK } from '../src/traces/standing.ts';

const clock = new ManualClock('2026-11-02T09:00:00.000Z'); // a Monday
let app: TestApp;
before(async () => {
  app = await startApp({ clock, env: { PUBLISH_HOST_PER_DAY: '20' } });
});
after(() => app.close());

let rpcId = 0;
async function tool(name: string, args: Record<string, unknown>, token?: string) {
  const res = await app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? asOwner(token) : {}) }, payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } } });
  return res.json().result.structuredContent;
}

/** A Live listing at `url`, claimed (its DNS proof in place) `heldForDays` ago. */
async function owned(url: string, heldForDays = 30): Promise<{ id: string; token: string }> {
  const res = await postJson(app, '/api/publish', { url });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = clock.now().toISOString();
  await setListingState(app, id, { lane: 'active', kind: 'mcp', live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 50, probed_at: now }, now);
  return { id, token: await ownListing(app, id, { heldForDays }) };
}

const SENTENCE = 'The partner matches named exactly the tools our agent was missing.';
const GOALS = ['Answer billing questions in one reply', 'Route refunds to a human'];

test(`two tenants of github.io are two owners: separate allowances, and one's owner token publishes on the other's host as a stranger (${engine})`, async () => {
  const x = await owned('https://x.alice.github.io/mcp');
  const y = await owned('https://y.bob.github.io/mcp');
  for (let i = 0; i < 3; i++) assert.equal((await tool('improve_kernel', { agent_name: 'X', listing_id: x.id, goals: GOALS }, x.token)).ok, true, `X's run ${i + 1}`);
  assert.equal((await tool('improve_kernel', { agent_name: 'X', listing_id: x.id, goals: GOALS }, x.token)).error.code, 'quota_exhausted');
  const yRun = await tool('improve_kernel', { agent_name: 'Y', listing_id: y.id, goals: GOALS }, y.token);
  assert.deepEqual([yRun.ok, yRun.meter.used_today], [true, 1], 'Y\'s allowance is its own');
  // X's owner token on bob.github.io is a stranger's: the host's 20 new listings a day hold.
  const statuses = [];
  for (let i = 0; i < 25; i++) statuses.push((await postJson(app, '/api/publish', { url: `https://y.bob.github.io/p${i}/mcp` }, asOwner(x.token))).status);
  assert.deepEqual([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 429).length], [19, 6], 'Y\'s own listing took one of the 20');
  // Its own host's paths are X's to publish.
  for (let i = 0; i < 25; i++) assert.equal((await postJson(app, '/api/publish', { url: `https://x.alice.github.io/p${i}/mcp` }, asOwner(x.token))).status, 200);
  const rows = await app.sql.selectFrom('listing_owners').select(['listing_id', 'owner_domain']).where('listing_id', 'in', [x.id, y.id]).execute();
  assert.deepEqual(new Set(rows.map((r) => r.owner_domain)), new Set(['alice.github.io', 'bob.github.io']));
});

test(`the tenants of one private suffix take at most 3 founding seats and count 3 times for the payments gate (${engine})`, async () => {
  const tenants = [];
  for (const name of ['carol', 'dave', 'erin', 'frank']) tenants.push(await owned(`https://${name}.pages.dev/mcp`));
  const outcomes = [];
  for (const t of tenants) outcomes.push((await postJson(app, '/api/products/feedback', { listing_id: t.id, rating: 5, body: SENTENCE }, asOwner(t.token))).body.founding);
  assert.deepEqual(outcomes.map((o) => o.outcome), ['seat', 'seat', 'seat', 'group_held']);
  assert.match(outcomes[3].message, /pages\.dev/);
  const seats = await app.sql.selectFrom('founding_seats').select(['owner_domain', 'owner_group']).where('owner_group', '=', 'pages.dev').execute();
  assert.equal(seats.length, 3);
  const deal = await tool('get_founding_deal', {});
  assert.equal(deal.payments.real_feedback.mcp, 3, 'four tenants of pages.dev count as three owner domains');
});

test(`the tenants of one private suffix move one target's rank once a day, and tenants of it move nothing on each other (${engine})`, async () => {
  const target = await owned('https://target-rank.example.org/mcp');
  const one = await owned('https://grace.netlify.app/mcp');
  const two = await owned('https://heidi.netlify.app/mcp');
  const first = await tool('endorse', { listing_id: one.id, partner_listing_id: target.id }, one.token);
  const second = await tool('endorse', { listing_id: two.id, partner_listing_id: target.id }, two.token);
  assert.deepEqual([first.moves_rank, second.moves_rank], [true, false]);
  assert.match(second.why, /an owner domain under netlify\.app .* already moved/);
  const sibling = await tool('endorse', { listing_id: one.id, partner_listing_id: two.id }, one.token);
  assert.equal(sibling.moves_rank, false);
  assert.match(sibling.why, /under netlify\.app, as your listing is/);
});

test(`sock puppets: claims younger than 7 days move nothing; several owner domains move one target at most 5 points each a week (${engine})`, async () => {
  clock.set('2026-11-09T09:00:00.000Z'); // Monday: a fresh week
  const target = await owned('https://puppet-target.example.org/mcp');
  const rank = async () => (await getJson(app, `/api/listings/status?id=${target.id}`)).body.rank as number;
  const start = await rank();
  // Three fresh claims on three domains: their marks are recorded, none moves the rank.
  const fresh = [];
  for (let i = 0; i < 3; i++) fresh.push(await owned(`https://fresh-puppet-${i}-example.com/mcp`, 1));
  for (const p of fresh) {
    const r = await tool('endorse', { listing_id: p.id, partner_listing_id: target.id }, p.token);
    assert.deepEqual([r.counted, r.moves_rank], [true, false]);
    assert.match(r.why, /held its claim for less than 7 days/);
  }
  assert.equal(await rank(), start);
  // Five established domains mark it every day of the week, every way they can.
  const domains = [];
  for (let i = 0; i < 5; i++) domains.push(await owned(`https://old-puppet-${i}-example.net/mcp`));
  for (let day = 0; day < 7; day++) {
    for (const d of domains) {
      await tool('endorse', { listing_id: d.id, partner_listing_id: target.id }, d.token);
      await tool('leave_trace', { listing_id: target.id, kind: 'attraction', intensity: 50, body: 'Best partner we have ever composed with, truly.' }, d.token);
      await tool('deposit_outcome', { listing_id: target.id, ok: true, quality: 1, body: 'It answered every single call perfectly well.' }, d.token);
    }
    clock.advance(DAY_MS);
  }
  // What moved, by depositing domain: at most 5 rank points each in the week, whatever they sent.
  const moved = await app.sql.selectFrom('trace_deposits').select(['depositor', 'intensity']).where('subject_key', '=', `listing:${target.id}`).where('channel', '=', 'attraction').where('moves', '=', 1).where('depositor', 'like', 'listing:%').execute();
  const byDepositor = new Map<string, number>();
  for (const m of moved) byDepositor.set(m.depositor, (byDepositor.get(m.depositor) ?? 0) + Number(m.intensity));
  assert.equal(byDepositor.size, domains.length);
  for (const [who, points] of byDepositor) assert.ok(points <= RANK_POINTS_PER_DOMAIN_PER_WEEK + 1e-9, `${who} moved ${points}`);
  const lift = (await rank()) - start;
  assert.ok(lift <= domains.length * RANK_POINTS_PER_DOMAIN_PER_WEEK, `the rank rose ${lift}, at most 5 a domain`);
});
