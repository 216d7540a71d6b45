// The connector playbook (SPEC.md 1.10, 2.8) through REST: every field of the daily
// pick, one pick per UTC day that is stable across calls and instances (also when two instances
// pick at once), a new pick and history past midnight, the repeat window, research days below the
// gate, exactly two links per draft, the operator-only prep (auth, refill in metering, a note in the
// partner's inbox) and the partners file (missing, malformed, valid).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startApp, postJson, getJson, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { domainAllowance } from '../src/metering/caller.ts';

const ADMIN_TOKEN = 'rc_admin_connectors_0123456789abcdefghij';
const DAILY = '/api/products/connectors/daily';
const PREP = '/api/products/connectors/daily/prep';
const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };

const clock = new ManualClock('2026-11-01T09:00:00.000Z');
let app: TestApp;
let second: TestApp;
const ids = {} as Record<'hub' | 'flow' | 'evals' | 'weak' | 'slow', string>;

/** A Live listing with this text and probe score. */
async function seed(target: TestApp, url: string, kind: 'agent' | 'mcp', name: string, description: string, probeScore: number, tools: string[] = []): Promise<string> {
  const res = await postJson(target, '/api/publish', { url });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.listing_id as string;
  const now = target.clock.now().toISOString();
  const capabilities = JSON.stringify({ names: tools, items: tools.map((t) => ({ name: t, description: `${t} tool`, params: [] })) });
  await setListingState(target, id, { lane: 'active', kind, name, description, capabilities, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: probeScore, probed_at: now }, now);
  return id;
}

/** The five Live listings of the main app: three pass the gate (hub 24+9, flow 19+7, evals 14+6), two do not. */
async function seedMain(target: TestApp) {
  // The name carries links: a draft must still have exactly two.
  ids.hub = await seed(target, 'https://hub.example.org/mcp', 'mcp', 'Agent Hub https://evil.example/x www.evil.example', 'An A2A agent registry and discovery directory for developers, with workflow automation.', 90, ['search_agents']);
  ids.flow = await seed(target, 'https://flow.example.org/mcp', 'mcp', 'Flow', 'MCP server for agent workflow orchestration and developer API integration.', 70);
  ids.evals = await seed(target, 'https://evals.example.org/.well-known/agent-card.json', 'agent', 'Evals', 'An autonomous agent for evaluation and monitoring of MCP tools.', 60);
  ids.weak = await seed(target, 'https://weather.example.org/mcp', 'mcp', 'Weather', 'Forecasts for any city.', 95);
  ids.slow = await seed(target, 'https://slow.example.org/mcp', 'mcp', 'Slow Registry', 'A registry agent with an SDK.', 30);
}

before(async () => {
  app = await startApp({ clock, env: { ADMIN_TOKEN, CONNECTOR_REPEAT_DAYS: '2', SEARCH_POLL_MS: '0' } });
  second = await startApp({ clock, joinStore: app.store, env: { ADMIN_TOKEN, CONNECTOR_REPEAT_DAYS: '2', SEARCH_POLL_MS: '0' } });
  await seedMain(app);
});
after(async () => {
  await second?.close();
  await app?.close();
});

const daily = async (target: TestApp = app, headers: Record<string, string> = {}) => {
  const res = await getJson(target, DAILY, headers);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
const links = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];
const isString = (v: unknown) => typeof v === 'string';
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

test('the daily pick answers every field of SPEC.md 2.8 with its type; the draft carries exactly two links', async () => {
  const body = await daily();
  assert.equal(body.ok, true);
  assert.equal(body.version, '1.1.0');
  assert.equal(typeof body.playbook, 'object');
  assert.deepEqual(body.playbook.gate, { min_hirey_likeness: 14, min_live_score: 5 });
  assert.equal(body.playbook.repeat_after_days, 2);
  assert.equal(body.playbook.traits_source, 'default');
  assert.equal(body.playbook.max_hirey_likeness, 30);
  assert.deepEqual(body.playbook.sources.partners_file, { file: 'partners.json', status: 'missing', partners: 0 });
  assert.equal(body.playbook.sources.live_listings, 5);

  const t = body.today;
  assert.equal(t.day, '2026-11-01');
  for (const k of ['id', 'name', 'kind', 'role', 'engage', 'status']) assert.ok(isString(t.partner[k]), `partner.${k}`);
  assert.equal(t.partner.id, ids.hub);
  assert.equal(t.partner.kind, 'mcp');
  assert.equal(t.partner.status, 'drafted');
  assert.equal(t.hirey_likeness, 24);
  assert.equal(t.live_score, 9);
  assert.ok(Array.isArray(t.traits));
  assert.deepEqual(t.traits.map((x: { trait: string }) => x.trait), ['agent-native', 'mcp', 'discovery', 'developers', 'workflows']);
  for (const x of t.traits) assert.ok(isString(x.trait) && isNumber(x.weight) && Array.isArray(x.hits));
  assert.ok(isString(t.why) && t.why.includes('hirey_likeness 24'));
  assert.equal(t.action.step, 'first_touch');
  assert.ok(Array.isArray(t.action.do_not) && t.action.do_not.length > 0 && t.action.do_not.every(isString));
  const d = t.action.draft;
  for (const k of ['subject', 'body', 'demo_link']) assert.ok(isString(d[k]), `draft.${k}`);
  assert.equal(d.demo_link, `${app.config.publicBaseUrl}/api/products/demo?listing_id=${ids.hub}`);
  const found = links(d.body);
  assert.equal(found.length, 2, d.body);
  assert.ok(found.includes(d.demo_link));
  assert.ok(found.includes(`${app.config.publicBaseUrl}/api/listings/status?id=${ids.hub}`));
  assert.equal(links(d.subject).length, 0);
  assert.ok(!/www\.|evil/.test(d.body + d.subject), 'links inside a name are removed');
  assert.deepEqual(
    t.queue_after.map((q: { id: string }) => q.id),
    [ids.flow, ids.evals, ids.slow, ids.weak],
    'gate passers first, then by score',
  );
  for (const q of t.queue_after) assert.ok(isString(q.id) && isString(q.name) && isNumber(q.score));
  assert.deepEqual(t.queue_after.map((q: { score: number }) => q.score), [26, 20, 18, 9.5]);

  assert.ok(Array.isArray(body.laws) && body.laws.length >= 3 && body.laws.every(isString));
  assert.ok(body.laws.some((l: string) => /two links/.test(l)));
  assert.ok(body.laws.some((l: string) => /never sends/.test(l)));
  assert.equal(typeof body.prep.already, 'boolean');
  assert.equal(body.prep.already, false);
  assert.equal(body.prep.operator_notified, false);
  assert.ok(isString(body.prep.note));
  assert.equal(typeof body.automation, 'object');
  assert.equal(body.automation.sends, false);
  assert.equal(body.automation.prep.enabled, true);
  assert.equal(body.automation.next_pick_at, '2026-11-02T00:00:00.000Z');
  assert.deepEqual(body.history, []);
  assert.ok(isString(body.updated_at));
  assert.ok(!JSON.stringify(body).includes(ADMIN_TOKEN));
});

test('the pick is stable across calls and across instances within the day', async () => {
  const first = await daily();
  clock.advance(3 * 3600 * 1000);
  const again = await daily();
  assert.deepEqual(again.today, first.today);
  assert.equal(again.updated_at, first.updated_at);
  const other = await daily(second);
  assert.deepEqual(other.today, first.today);
  // A new Live listing that would win does not change today's pick.
  await seed(app, 'https://late.example.org/mcp', 'agent', 'Late Agent', 'An A2A agent registry, MCP tool server, developer SDK, workflow automation, monitoring and hiring.', 100);
  assert.deepEqual((await daily()).today, first.today);
  const rows = await app.sql.selectFrom('connector_picks').selectAll().execute();
  assert.equal(rows.length, 1);
});

test('prep route: disabled without ADMIN_TOKEN (403), wrong or missing token 401, right token prepares once and refills the listed partner', async () => {
  const missing = await postJson(app, PREP, {});
  assert.equal(missing.status, 401);
  assert.equal(missing.body.error.code, 'unauthorized');
  assert.match(String(missing.headers['www-authenticate']), /^Bearer/);
  const wrong = await postJson(app, PREP, {}, { authorization: 'Bearer rc_not_the_admin_token_at_all_000000' });
  assert.equal(wrong.status, 401);
  const bad = await postJson(app, PREP, { note: 'x'.repeat(501) }, operator);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.field, 'note');
  assert.equal((await app.sql.selectFrom('meter_grants').selectAll().execute()).length, 0, 'nothing granted by refused calls');

  // The operator reading the pick is told of it.
  const seen = await daily(app, operator);
  assert.equal(seen.prep.operator_notified, true);
  assert.equal(seen.prep.already, false);

  const ok = await postJson(app, PREP, { note: 'Checked their docs; ask jane@example.org' }, operator);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.prepared_now, true);
  assert.equal(ok.body.prep.already, true);
  assert.equal(ok.body.prep.prepped_at, clock.now().toISOString());
  assert.match(ok.body.prep.note, /ask \[email\]/);
  assert.equal(ok.body.today.partner.status, 'prepped');
  assert.equal(ok.body.refill.granted, true);
  assert.deepEqual(ok.body.refill.events, ['improve_kernel', 'collab_session_open']);
  const grants = await app.sql.selectFrom('meter_grants').selectAll().execute();
  // The refill is the partner's: the allowance its owner domain (hub.example.org's example.org) shares.
  assert.deepEqual(grants.map((g) => [g.subject, g.day, g.action, Number(g.grants)]), [[domainAllowance('example.org'), '2026-11-01', 'connector_onboard', 1]]);
  const usage = await app.sql.selectFrom('meter_usage').select(['event_id', 'refilled']).where('subject', '=', domainAllowance('example.org')).orderBy('event_id').execute();
  assert.deepEqual(usage.map((u) => [u.event_id, Number(u.refilled)]), [['collab_session_open', 1], ['improve_kernel', 1]]);

  // Again: already prepared, nothing granted twice; any instance agrees.
  const again = await postJson(second, PREP, {}, operator);
  assert.equal(again.status, 200);
  assert.equal(again.body.prepared_now, false);
  assert.equal(again.body.refill, null);
  assert.equal(again.body.prep.already, true);
  assert.equal(Number((await app.sql.selectFrom('meter_grants').select('grants').executeTakeFirstOrThrow()).grants), 1);
  const pub = await daily(second);
  assert.equal(pub.prep.already, true);
  assert.equal(pub.today.status, 'prepped');

  // The partner hears of it in its talk inbox, which its owner reads (the owner token); anyone else sees no message.
  const stranger = await getJson(app, `/api/talk?listing_id=${ids.hub}`);
  assert.equal(stranger.body.inbox.find((i: { type: string }) => i.type === 'connector'), undefined);
  const talk = await getJson(app, `/api/talk?listing_id=${ids.hub}`, asOwner(await ownListing(app, ids.hub)));
  const note = talk.body.inbox.find((i: { type: string }) => i.type === 'connector');
  assert.ok(note, JSON.stringify(talk.body.inbox));
  assert.equal(note.id, ok.body.inbox_message_id);
  assert.deepEqual(note.data, { day: '2026-11-01', refill_granted: true, events: ['improve_kernel', 'collab_session_open'] });
});

test('past UTC midnight: a new pick (two instances picking at once agree), yesterday in history, the repeat window respected', async () => {
  clock.set('2026-11-02T00:00:00.001Z');
  const [a, b] = await Promise.all([daily(app), daily(second)]);
  assert.deepEqual(a.today, b.today, 'the first insert wins; the other instance shows it');
  assert.equal(a.today.day, '2026-11-02');
  // hub (picked yesterday) is excluded; late (picked never) now beats flow.
  const late = (await app.sql.selectFrom('listings').select('id').where('name', '=', 'Late Agent').executeTakeFirstOrThrow()).id;
  assert.equal(a.today.partner.id, late);
  assert.equal(a.today.skipped_recent, 1);
  assert.equal(a.prep.already, false);
  assert.equal(a.history.length, 1);
  assert.deepEqual(a.history[0], { day: '2026-11-01', partner_id: ids.hub, partner_name: 'Agent Hub https://evil.example/x www.evil.example', hirey_likeness: 24, status: 'prepped', prepped_at: '2026-11-01T12:00:00.000Z' });
  assert.equal((await app.sql.selectFrom('connector_picks').selectAll().execute()).length, 2);

  clock.advance(DAY_MS);
  const day3 = await daily();
  assert.equal(day3.today.partner.id, ids.flow, 'hub and late were picked within the last 2 days');
  assert.deepEqual(day3.history.map((h: { day: string }) => h.day), ['2026-11-02', '2026-11-01']);
  assert.equal(day3.history[0].status, 'drafted');
  clock.advance(DAY_MS);
  const day4 = await daily();
  assert.equal(day4.today.partner.id, ids.hub, 'past the 2-day window hub may be picked again');
});

test('a weak candidate set is a research day: no draft, nothing to prepare; prep is 403 while ADMIN_TOKEN is unset', async () => {
  const own = await startApp({ clock: new ManualClock('2026-11-01T09:00:00.000Z'), env: { SEARCH_POLL_MS: '0' } });
  try {
    const empty = await daily(own);
    assert.equal(empty.today.partner, null, 'no candidate at all');
    assert.equal(empty.today.status, 'research');
    assert.equal(empty.today.action.draft, null);
    assert.equal(empty.today.candidates, 0);

    (own.clock as ManualClock).advance(DAY_MS);
    await seed(own, 'https://weather.example.org/mcp', 'mcp', 'Weather', 'Forecasts for any city.', 95);
    const slow = await seed(own, 'https://slow.example.org/mcp', 'mcp', 'Slow Registry', 'A registry agent with an SDK.', 30);
    const body = await daily(own);
    assert.equal(body.today.status, 'research');
    assert.equal(body.today.action.step, 'research');
    assert.equal(body.today.action.draft, null);
    assert.equal(body.today.partner.id, slow, 'the best candidate to research');
    assert.equal(body.today.partner.status, 'research');
    assert.equal(body.today.gate.passed, false);
    assert.match(body.today.why, /live score below 5/);
    assert.equal(body.prep.already, false);
    assert.match(body.prep.note, /research day/);
    assert.equal(body.automation.prep.enabled, false);

    const disabled = await postJson(own, PREP, {}, operator);
    assert.equal(disabled.status, 403);
    assert.equal(disabled.body.error.code, 'operator_routes_disabled');
  } finally {
    await own.close();
  }
  const gated = await startApp({ clock: new ManualClock('2026-11-01T09:00:00.000Z'), env: { ADMIN_TOKEN, SEARCH_POLL_MS: '0' } });
  try {
    await seed(gated, 'https://weather.example.org/mcp', 'mcp', 'Weather', 'Forecasts for any city.', 95);
    const res = await postJson(gated, PREP, {}, operator);
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'research_day');
    assert.equal((await gated.sql.selectFrom('meter_grants').selectAll().execute()).length, 0);
  } finally {
    await gated.close();
  }
});

test('partners file: missing is fine, malformed is a logged error (not a crash), valid entries are candidates with their traits', async () => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const own = await startApp({ clock: new ManualClock('2026-11-01T09:00:00.000Z'), logStream, env: { LOG_LEVEL: 'error', ADMIN_TOKEN, CONNECTOR_REPEAT_DAYS: '1', SEARCH_POLL_MS: '0' } });
  const ownClock = own.clock as ManualClock;
  const file = path.join(own.store.dataDir, 'partners.json');
  try {
    const listed = await seed(own, 'https://flow.example.org/mcp', 'mcp', 'Flow', 'MCP server for agent workflow orchestration and developer API integration.', 70);

    fs.writeFileSync(file, '{"partners": [ {"id": "acme", ');
    const broken = await daily(own);
    assert.equal(broken.playbook.sources.partners_file.status, 'invalid');
    assert.match(broken.playbook.sources.partners_file.error, /not JSON/);
    assert.ok(!broken.playbook.sources.partners_file.error.includes(own.store.dataDir), 'no server path in the answer');
    assert.equal(broken.today.partner.id, listed, 'the Live listings still count');
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 50 && /partners file/.test(l.msg));
    assert.ok(logged.length >= 1, lines.join(''));
    assert.match(logged[0].reason, /not JSON/);

    fs.writeFileSync(file, JSON.stringify({ partners: [{ id: 'acme', name: 'Acme', live_score: 11 }, { id: 'acme', name: 'Acme again' }], traits: [{ trait: 'x', weight: 'heavy', keywords: ['x'] }] }));
    ownClock.advance(DAY_MS);
    const invalid = await daily(own);
    assert.equal(invalid.playbook.sources.partners_file.status, 'invalid');
    assert.match(invalid.playbook.sources.partners_file.error, /traits\.0\.weight/);
    assert.equal(invalid.playbook.traits_source, 'default');

    fs.writeFileSync(
      file,
      JSON.stringify({
        traits: [
          { trait: 'recruiting', weight: 10, keywords: ['hiring', 'recruiting'] },
          { trait: 'agents', weight: 8, keywords: ['agent'] },
        ],
        partners: [
          { id: 'talentco', name: 'TalentCo (see https://talent.example)', kind: 'company', role: 'hiring platform', engage: 'Email founders@talent.example', about: 'An agent-first hiring and recruiting platform.', live_score: 8 },
          { id: 'flow-file', name: 'Flow, by its makers', role: 'MCP maker', listing_id: listed, about: 'Builds agent tooling.' },
          { id: 'tiny', name: 'Tiny', about: 'Hiring.', live_score: 9 },
        ],
      }),
    );
    ownClock.advance(DAY_MS);
    const valid = await daily(own);
    assert.deepEqual(valid.playbook.sources.partners_file, { file: 'partners.json', status: 'ok', partners: 3 });
    assert.equal(valid.playbook.traits_source, 'partners_file');
    assert.equal(valid.playbook.max_hirey_likeness, 18);
    const t = valid.today;
    assert.equal(t.partner.id, 'talentco');
    assert.equal(t.partner.kind, 'company');
    assert.equal(t.partner.role, 'hiring platform');
    assert.equal(t.partner.engage, 'Email [email]', 'no email in the public answer');
    assert.equal(t.hirey_likeness, 18);
    assert.equal(t.live_score, 8);
    const d = t.action.draft;
    assert.equal(d.demo_link, `${own.config.publicBaseUrl}/api/products/quickstart`);
    assert.deepEqual(links(d.body), [d.demo_link, `${own.config.publicBaseUrl}/llms.txt`]);
    // The file entry that names the listing stands for it (one candidate, the file's name).
    const queued = t.queue_after.map((q: { id: string; name: string }) => [q.id, q.name]);
    assert.deepEqual(queued, [['tiny', 'Tiny'], [listed, 'Flow, by its makers']], 'both below the gate: by score (10 + 9, then 8 + 7)');
    assert.equal(t.candidates, 3);

    // Preparing a partner that is not a listing grants nothing and posts nothing.
    const prep = await postJson(own, PREP, {}, operator);
    assert.equal(prep.status, 200);
    assert.equal(prep.body.prepared_now, true);
    assert.equal(prep.body.refill, null);
    assert.equal(prep.body.inbox_message_id, null);
    assert.equal((await own.sql.selectFrom('meter_grants').selectAll().execute()).length, 0);
  } finally {
    await own.close();
  }
});
