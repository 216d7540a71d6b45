// The mesh ladder end to end (SPEC.md 4.3) through the MCP door with the SDK client, against real
// partners on loopback: server-everything (streamable HTTP, legacy era, sessions) and an
// @a2a-js/sdk agent, both made Live by real probes, beside a partner that never answers in time
// and one that answers garbage. mesh_match -> mesh_compose -> used_with -> execute_compose ->
// deposit_outcome: the good partners' results come back and feed each other, the bad ones are
// reported with their reasons, and used_with, an outcome on each partner, danger marks and a feed
// event are written. Then the guard: a partner whose address became private is refused before any dial.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { engine, offlineResolver, postJson, startApp, type TestApp } from './helpers/app.ts';
import { setListingState } from './helpers/state.ts';
import { waitForLane } from './helpers/wait.ts';
import { startEverything, startModernMcp, type Peer } from './peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from './peers/a2a-agent.ts';
import { startBadPeer, type BadPeer } from './peers/bad-partners.ts';
import { DAY_MS, ManualClock } from '../src/platform/clock.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { insertListingIfNew } from '../src/listings/store.ts';
import { saveProbeState } from '../src/probe/store.ts';
import { insertComposition } from '../src/mesh/store.ts';
import { Prober } from '../src/probe/prober.ts';
import { GuardedClient } from '../src/platform/net/guarded-client.ts';
import { publicOnlyPolicy } from '../src/platform/net/address-policy.ts';

type Structured = Record<string, any>;

async function tool(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as unknown as { isError?: boolean; structuredContent: Structured };
}
async function ok(client: Client, name: string, args: Record<string, unknown>) {
  const r = await tool(client, name, args);
  assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent;
}
async function connect(app: TestApp): Promise<Client> {
  const client = new Client({ name: 'ladder-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${await app.listen()}/api/mcp`)));
  await client.listTools(); // results are then checked against each tool's outputSchema
  return client;
}

interface Item {
  name: string;
  description: string;
  params?: { name: string; required: boolean; description?: string }[];
}

/** A Live listing written through its domains (no probe job), answering at `target` in `protocol`. */
async function seedLive(app: TestApp, url: string, kind: 'agent' | 'mcp', name: string, items: Item[], target: string, protocol: string): Promise<string> {
  const now = app.clock.now().toISOString();
  const { row } = await inTransaction(app.services.db.kysely, (trx) =>
    insertListingIfNew(trx, { url, kind, name, submittedName: null, contactEmail: null, source: 'test', rankParts: {} }, now),
  );
  const capabilities = JSON.stringify({ names: items.map((i) => i.name), items: items.map((i) => ({ params: [], ...i })) });
  await setListingState(app, row.id, { lane: 'active', kind, name, description: `${name} for ladder tests`, capabilities, live_since: now, checks_clean: 1, probe_ok: 1, probe_handshake: 'ok', probe_score: 70, probed_at: now }, now);
  await saveProbeState(app.services.db.kysely, row.id, { target, protocol });
  return row.id;
}

const clock = new ManualClock('2026-11-02T09:00:00.000Z');
let app: TestApp;
let client: Client;
let everything: Peer;
let agent: AgentPeer;
let slow: BadPeer;
let garbage: BadPeer;
const ids = {} as Record<'everything' | 'agent' | 'slow' | 'garbage', string>;

before(async () => {
  [everything, agent, slow, garbage] = await Promise.all([startEverything(), startA2aAgent({ shape: '1.0' }), startBadPeer('slow'), startBadPeer('garbage')]);
  app = await startApp({
    clock,
    probing: true,
    env: { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '5000', PROBE_RATE_PER_MIN: '0', SEARCH_POLL_MS: '0', COMPOSE_STEP_TIMEOUT_MS: '1500', COMPOSE_RUN_TIMEOUT_MS: '20000' },
  });
  for (const [key, url] of [
    ['everything', everything.url],
    ['agent', agent.cardUrl],
  ] as const) {
    const published = await postJson(app, '/api/publish', { url });
    const s = await waitForLane(app, published.body.id, ['active', 'failed']);
    assert.equal(s.lane, 'active', `${key}: ${s.lane_reason} ${JSON.stringify(s.probe)}`);
    ids[key] = s.id;
  }
  ids.slow = await seedLive(app, 'https://forecast.example.org/mcp', 'mcp', 'Slow Forecast', [{ name: 'get_forecast', description: 'Weather forecast for a city', params: [{ name: 'city', required: true }] }], slow.url, '2025-11-25');
  ids.garbage = await seedLive(app, 'https://pixels.example.org/.well-known/agent-card.json', 'agent', 'Garbage Pixels', [{ name: 'resize_image', description: 'Resize an image to a width and height' }], garbage.url, 'a2a/0.3');
  await app.services.search.poll();
  client = await connect(app);
});
after(async () => {
  await client?.close();
  await app?.close();
  await Promise.all([everything?.close(), agent?.close(), slow?.close(), garbage?.close()]);
});

test(`the mesh ladder runs against real partners; a slow and a garbage partner are reported, the rest answer (${engine})`, async () => {
  const capabilities = ['echo', 'translate text', 'weather forecast', 'resize image'];
  const match = await ok(client, 'mesh_match', { capabilities, agent_name: 'ladder' });
  assert.equal(match.next_step.tool, 'mesh_compose');
  const matched = new Set(match.hits.map((h: Structured) => h.listing_id));
  for (const [key, id] of Object.entries(ids)) assert.ok(matched.has(id), `mesh_match found ${key}: ${JSON.stringify(match.hits.map((h: Structured) => [h.name, h.matched]))} uncovered ${JSON.stringify(match.uncovered)}`);

  const plan = await ok(client, match.next_step.tool, match.next_step.args);
  assert.deepEqual(plan.gaps, []);
  assert.deepEqual(new Set(plan.steps.map((s: Structured) => s.listing_id)), new Set(Object.values(ids)));
  assert.equal(plan.next_step.tool, 'used_with');

  const used = await ok(client, plan.next_step.tool, plan.next_step.args);
  assert.ok(used.pair.value > 0);
  assert.equal(used.next_step.tool, 'execute_compose');
  assert.equal(used.next_step.args.composition_id, plan.composition_id);
  assert.deepEqual(used.next_step.needs, ['input'], 'a plan without a goal leaves the first text to the caller');

  const run = await ok(client, 'execute_compose', { ...used.next_step.args, input: 'good morning', agent_name: 'ladder' });
  assert.equal(run.status, 'partial');
  assert.equal(run.answered, 2);
  assert.equal(run.failed, 2);
  const step = (id: string) => run.steps.find((s: Structured) => s.listing_id === id);
  assert.equal(step(ids.everything).status, 'ok');
  assert.match(step(ids.everything).output, /good morning/);
  assert.deepEqual(step(ids.everything).calls.map((c: Structured) => c.tool), ['echo']);
  assert.equal(step(ids.agent).status, 'ok');
  assert.match(step(ids.agent).output, /^translated: /);
  assert.match(step(ids.agent).output, /good morning/, 'the text that reached the agent came through the chain');
  assert.equal(step(ids.slow).status, 'failed');
  assert.equal(step(ids.slow).reason, 'timeout');
  assert.match(step(ids.slow).detail, /1500 ms/);
  assert.equal(step(ids.garbage).status, 'failed');
  assert.equal(step(ids.garbage).reason, 'bad_answer');
  assert.ok(!JSON.stringify(run).includes('<script>'), 'garbage is never shown, let alone run');
  // A step's output feeds the next: the later of the two good partners saw the earlier one's answer.
  const good = run.steps.filter((s: Structured) => s.status === 'ok');
  assert.ok(good[1].output.includes(good[0].output.slice(0, 20)), JSON.stringify(good));
  assert.equal(run.output, good[1].output);
  assert.equal(slow.hits >= 1 && garbage.hits >= 1, true);

  // What was recorded: an outcome on each partner that did its step or failed it, with the run;
  // used_with on the pair that answered; danger on both failures.
  const sql = app.sql;
  assert.equal(run.recorded.from, `${plan.composition_id}/${run.run_id}`);
  const outcomes = await sql.selectFrom('trace_outcomes').selectAll().where('from_label', '=', run.recorded.from).execute();
  const verdicts = Object.fromEntries(outcomes.map((o) => [o.listing_id, [Number(o.ok), Number(o.quality)]]));
  assert.deepEqual(verdicts, { [ids.everything]: [1, 1], [ids.agent]: [1, 1], [ids.slow]: [0, 0], [ids.garbage]: [0, 0] });
  assert.deepEqual(new Set(run.recorded.outcomes.map((o: Structured) => o.outcome_id)), new Set(outcomes.map((o) => o.id)));
  const [a, b] = [ids.everything, ids.agent].sort();
  const pair = await sql.selectFrom('trace_field').selectAll().where('channel', '=', 'attraction').where('subject_key', '=', `pair:${a}|${b}`).executeTakeFirst();
  const chainHasPair = good.length === 2;
  assert.equal(Boolean(pair), chainHasPair);
  assert.deepEqual(new Set(run.recorded.danger), new Set([ids.slow, ids.garbage]));
  for (const id of [ids.slow, ids.garbage]) {
    const danger = await sql.selectFrom('trace_field').selectAll().where('channel', '=', 'danger').where('subject_key', '=', `listing:${id}`).executeTakeFirstOrThrow();
    assert.ok(Number(danger.value) >= 3);
  }
  const feed = (await app.http.inject({ method: 'GET', url: '/api/feed' })).json();
  const executed = feed.items.find((i: Structured) => i.event === 'composition.executed');
  assert.deepEqual({ composition_id: executed.composition_id, answered: executed.answered, failed: executed.failed }, { composition_id: plan.composition_id, answered: 2, failed: 2 });
  assert.ok(feed.items.some((i: Structured) => i.event === 'composition.planned' && i.composition_id === plan.composition_id));

  // The ladder's last rung: the outcome the caller reports, valid once it adds its own verdict.
  assert.deepEqual([run.next_step.tool, run.next_step.needs], ['deposit_outcome', ['ok', 'quality', 'body']]);
  const reported = await ok(client, run.next_step.tool, { ...run.next_step.args, ok: true, quality: 0.5, body: 'Two of four partners answered; the echo step did what I needed.' });
  assert.equal(reported.outcome.from, run.recorded.from);
  assert.equal(reported.outcome.listing_id, run.steps.find((s: Structured) => s.status === 'ok').listing_id);
});

/**
 * The next UTC day: execute_compose spends mesh_compose (2 free a day), and every agent name here
 * is a label inside this client address's one allowance, which the ladder above used up.
 */
const newDay = () => clock.advance(DAY_MS);

test(`execute_compose refuses bad inputs, unknown compositions and arguments it cannot fill (${engine})`, async () => {
  newDay();
  const missing = await tool(client, 'execute_compose', { composition_id: 'cmp_nope', input: 'hi', agent_name: 'ladder-2' });
  assert.equal(missing.isError, true);
  assert.equal(missing.structuredContent.error.code, 'not_found');
  const empty = await tool(client, 'execute_compose', { composition_id: 'cmp_nope', input: '', agent_name: 'ladder-2' });
  assert.equal(empty.isError, true);
  assert.equal(empty.structuredContent.error.field, 'input');
  // A tool with two required parameters: the text fills one, the other must be given.
  const id = 'cmp_twoargs';
  await insertComposition(app.services.db.kysely, {
    composition_id: id,
    owner: 'test',
    listing_id: null,
    goal: null,
    capabilities: ['add numbers'],
    steps: [
      {
        step: 1,
        listing_id: ids.everything,
        kind: 'mcp',
        name: 'Everything',
        endpoint: everything.url,
        covers: ['echo message'],
        calls: [{ protocol: 'mcp', endpoint: everything.url, method: 'tools/call', params: { name: 'echo', arguments: { message: '<message>', extra: '<extra>' } }, parameters: [{ name: 'message', required: true }, { name: 'extra', required: true }] }],
        trail_strength: 0,
        probe_score: 70,
      },
    ],
    gaps: [],
    created_at: clock.now().toISOString(),
  });
  // Refused before anything is charged or recorded, naming what is missing and the call that supplies it.
  const unfilled = await tool(client, 'execute_compose', { composition_id: id, input: 'hello there', agent_name: 'ladder-2' });
  assert.equal(unfilled.isError, true);
  const refusal = unfilled.structuredContent.error;
  assert.deepEqual([refusal.code, refusal.field], ['needs_arguments', 'arguments']);
  assert.match(refusal.message, /"extra"/);
  assert.deepEqual(refusal.details.steps, [{ step: 1, listing_id: ids.everything, tool: 'echo', needs: [{ name: 'extra' }] }]);
  assert.deepEqual(refusal.details.next_step.needs, ['arguments.1.extra']);
  assert.deepEqual(await app.sql.selectFrom('trace_outcomes').select('id').where('from_label', 'like', `${id}/%`).execute(), []);
  const filled = await ok(client, 'execute_compose', { ...refusal.details.next_step.args, arguments: { '1': { extra: 'x' } } });
  assert.equal(filled.status, 'completed', JSON.stringify(filled.steps));
  assert.equal(filled.meter.used_today, 1, 'the refused call spent nothing');
});

test(`execute_compose never reaches a partner whose address became private: refused before any dial (${engine})`, async () => {
  const dials: string[] = [];
  const prober = new Prober(new GuardedClient({ policy: publicOnlyPolicy, userAgent: 'Rollcall-Probe/test', onDial: (address) => dials.push(address), resolver: async (name) => (name === 'inside.example.org' ? ['10.0.0.8'] : offlineResolver(name)) }), false);
  const guarded = await startApp({ clock, prober, env: { SEARCH_POLL_MS: '0' } });
  const guardedClient = await connect(guarded);
  try {
    const partner = await seedLive(guarded, 'https://echo.example.org/mcp', 'mcp', 'Echo Partner', [{ name: 'echo', description: 'Echoes the message', params: [{ name: 'message', required: true }] }], 'https://echo.example.org/mcp', '2025-11-25');
    const composition = (cid: string, endpoint: string) => ({
      composition_id: cid,
      owner: 'test',
      listing_id: null,
      goal: null,
      capabilities: ['echo'],
      steps: [{ step: 1, listing_id: partner, kind: 'mcp' as const, name: 'Echo Partner', endpoint, covers: ['echo'], calls: [{ protocol: 'mcp' as const, endpoint, method: 'tools/call' as const, params: { name: 'echo', arguments: { message: '<message>' } }, parameters: [{ name: 'message', required: true }] }], trail_strength: 0, probe_score: 70 }],
      gaps: [],
      created_at: clock.now().toISOString(),
    });
    await insertComposition(guarded.services.db.kysely, composition('cmp_guarded', 'https://echo.example.org/mcp'));
    // The partner moved: its latest probe answers at a private address (and at the everything peer's loopback one).
    for (const target of ['http://10.0.0.7/mcp', everything.url]) {
      await saveProbeState(guarded.services.db.kysely, partner, { target });
      const refused = await tool(guardedClient, 'execute_compose', { composition_id: 'cmp_guarded', input: 'hello', agent_name: 'guarded' });
      assert.equal(refused.isError, true, JSON.stringify(refused.structuredContent));
      assert.equal(refused.structuredContent.error.code, 'partner_address_refused');
      assert.equal(refused.structuredContent.error.details.listing_id, partner);
    }
    // A name that resolves privately is refused by the guarded client before it dials: a failed step.
    await saveProbeState(guarded.services.db.kysely, partner, { target: 'https://inside.example.org/mcp' });
    const inside = await ok(guardedClient, 'execute_compose', { composition_id: 'cmp_guarded', input: 'hello', agent_name: 'guarded' });
    assert.equal(inside.steps[0].status, 'failed');
    assert.equal(inside.steps[0].reason, 'blocked_address');
    assert.deepEqual(dials, [], 'no connection was ever dialed');
    const outcomes = await guarded.sql.selectFrom('trace_outcomes').selectAll().where('from_label', 'like', 'cmp_guarded/%').execute();
    assert.equal(outcomes.length, 1, 'the refused runs recorded nothing; the blocked one its outcome');
  } finally {
    await guardedClient.close();
    await guarded.close();
  }
});

test(`execute_compose speaks each partner's era: a 2026-07-28 MCP server and a v0.3 A2A agent (${engine})`, async () => {
  newDay();
  const [modern, agent03] = await Promise.all([startModernMcp({ legacy: 'reject' }), startA2aAgent({ shape: '0.3' })]);
  try {
    const live: Record<string, Structured> = {};
    for (const url of [modern.url, agent03.cardUrl]) {
      const published = await postJson(app, '/api/publish', { url });
      live[url] = await waitForLane(app, published.body.id, ['active', 'failed']);
      assert.equal(live[url]!.lane, 'active', JSON.stringify(live[url]!.probe));
    }
    const weather = live[modern.url]!;
    const translator = live[agent03.cardUrl]!;
    const steps = [
      { step: 1, listing_id: weather.id, kind: 'mcp' as const, name: 'weather', endpoint: modern.url, covers: ['current weather'], calls: [{ protocol: 'mcp' as const, endpoint: modern.url, method: 'tools/call' as const, params: { name: 'current_weather', arguments: { city: '<city>' } }, parameters: [{ name: 'city', required: true }] }], trail_strength: 0, probe_score: 80 },
      { step: 2, listing_id: translator.id, kind: 'agent' as const, name: 'translator', endpoint: `${agent03.baseUrl}/a2a/jsonrpc`, covers: ['translate text'], calls: [{ protocol: 'a2a' as const, endpoint: `${agent03.baseUrl}/a2a/jsonrpc`, method: 'message/send' as const, params: { message: { role: 'user', messageId: 'm', parts: [{ kind: 'text', text: 'x' }], metadata: {} } } }], trail_strength: 0, probe_score: 80 },
    ];
    await insertComposition(app.services.db.kysely, { composition_id: 'cmp_eras', owner: 'test', listing_id: null, goal: null, capabilities: ['current weather', 'translate text'], steps, gaps: [], created_at: clock.now().toISOString() });
    const run = await ok(client, 'execute_compose', { composition_id: 'cmp_eras', input: 'Lisbon', agent_name: 'eras' });
    assert.equal(run.status, 'completed', JSON.stringify(run.steps));
    assert.equal(run.steps[0].output, 'Sunny in Lisbon');
    assert.equal(run.output, 'translated: Sunny in Lisbon');
    assert.deepEqual(run.recorded.used_with, [{ listing_id: weather.id, partner_listing_id: translator.id }]);
    const outcomes = await app.sql.selectFrom('trace_outcomes').selectAll().where('from_label', '=', run.recorded.from).execute();
    assert.deepEqual(Object.fromEntries(outcomes.map((o) => [o.listing_id, [Number(o.ok), Number(o.quality)]])), { [weather.id]: [1, 1], [translator.id]: [1, 1] });
  } finally {
    await Promise.all([modern.close(), agent03.close()]);
  }
});
