// Reads write nothing: every GET route (/openapi.json's paths, the pages, an asset, a badge) and
// every tool annotated readOnlyHint, called anonymously and with an owner token, leaves every table,
// the active list's ETag and the probe queue as they were. The writes some reads make by design are
// named below with the tables they may touch; every other change fails the test. The same walk
// checks that no next_step a read suggests carries a `<placeholder>` in its args.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { engine, getJson, postJson, recordingScheduler, startApp, type TestApp } from './helpers/app.ts';
import { connect, type Tools } from './helpers/value-tools.ts';
import { asOwner, ownListing } from './helpers/owners.ts';
import { setListingState } from './helpers/state.ts';
import { ManualClock, DAY_MS } from '../src/platform/clock.ts';
import { PAGES } from '../src/http/pages/index.ts';
import { placeholderIn } from '../src/platform/real-text.ts';

const clock = new ManualClock('2026-11-10T09:00:00.000Z');
const probes = recordingScheduler();
let app: TestApp;
let anonymous: Tools;
let owner: Tools;
let token: string;
/** The owner's demo access token (install_product, export_skills). */
let access: string;
const ids: Record<'live' | 'partner' | 'dormant' | 'queued', string> = { live: '', partner: '', dormant: '', queued: '' };

/** Tables a read may write by design, whatever the read: per-caller counts that are the read's own bill. */
const ALWAYS = new Set([
  'meter_usage', // usage counters: a read-only tool still counts as a call of its caller
  'usage_counters',
  'budget_counters',
  'search_queries', // the search query log: every search, by any door, is logged for opportunities
]);

/** Reads that write by design (docs/decisions/reads-write-nothing.md), and the tables each may touch. */
const BY_DESIGN: Record<string, { why: string; tables: string[] }> = {
  'GET /api/products/demo': { why: 'SPEC: the GET demo marks the demo and issues its token', tables: ['*'] },
  'GET /api/score': { why: 'a probe of the given URL under the caller\'s budget', tables: ['*'] },
  'tool probe_clean': { why: 'a probe of the given URL under the caller\'s budget', tables: ['*'] },
  'GET /api/products/connectors/daily': { why: 'the connectors\' daily pick, made once a day', tables: ['connector_picks'] },
};

/** Every table's rows, hashed; the active list's ETag; the probes asked for. */
async function snapshot(): Promise<{ tables: Map<string, string>; etag: string; woken: number }> {
  const names =
    engine === 'postgres'
      ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(app.sql)).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(app.sql)).rows;
  const tables = new Map<string, string>();
  for (const { name } of names) {
    if (name.startsWith('kysely_')) continue;
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(app.sql)).rows.map((r) => JSON.stringify(r)).sort();
    tables.set(name, `${rows.length}:${createHash('sha256').update(rows.join('\n')).digest('hex')}`);
  }
  const etag = String((await app.http.inject({ method: 'GET', url: '/api/listings/active' })).headers.etag);
  return { tables, etag, woken: probes.woken.length };
}

/** Runs a read and fails when it changed anything beyond what its exemption names. */
async function assertReadOnly(name: string, read: () => Promise<unknown>): Promise<unknown> {
  const beforeRead = await snapshot();
  const result = await read();
  const afterRead = await snapshot();
  const allowed = BY_DESIGN[name]?.tables ?? [];
  if (allowed.includes('*')) return result;
  const changed = [...afterRead.tables].filter(([t, h]) => beforeRead.tables.get(t) !== h && !ALWAYS.has(t) && !allowed.includes(t)).map(([t]) => t);
  assert.deepEqual(changed, [], `${name} wrote to ${changed.join(', ')}`);
  assert.equal(afterRead.etag, beforeRead.etag, `${name} changed the active list's ETag`);
  assert.equal(afterRead.woken, beforeRead.woken, `${name} asked for a probe`);
  return result;
}

/** Every next_step-shaped object ({tool, args}) in a result. */
function stepsIn(value: unknown, out: { tool: string; args: Record<string, unknown> }[] = []): typeof out {
  if (Array.isArray(value)) for (const v of value) stepsIn(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.tool === 'string' && o.args && typeof o.args === 'object') out.push(o as never);
    for (const v of Object.values(o)) stepsIn(v, out);
  }
  return out;
}

function assertNoPlaceholderSteps(name: string, result: unknown) {
  for (const step of stepsIn(result)) {
    const slot = placeholderIn(JSON.stringify(step.args));
    assert.equal(slot, undefined, `${name}: next step ${step.tool} carries the placeholder ${slot}; it belongs in needs`);
  }
}

before(async () => {
  app = await startApp({ clock, probes });
  const base = await app.listen();
  const publish = async (url: string) => (await postJson(app, '/api/publish', { url })).body.listing_id as string;
  ids.live = await publish('https://reads-live.example.org/mcp');
  ids.partner = await publish('https://reads-partner.example.net/.well-known/agent-card.json');
  ids.dormant = await publish('https://reads-dormant.example.com/mcp');
  ids.queued = await publish('https://reads-queued.example.com/mcp');
  const at = clock.now().toISOString();
  for (const id of [ids.live, ids.partner, ids.dormant]) {
    await setListingState(app, id, { lane: 'active', live_since: at, checks_clean: 1, probe_ok: 1, probe_score: 90, probed_at: at, probe_handshake: 'initialize' }, at);
  }
  token = await ownListing(app, ids.live);
  await ownListing(app, ids.dormant);
  anonymous = await connect(app, { base });
  owner = await connect(app, { headers: asOwner(token), base });
  // Data for the reads to read: a demo, feedback, a trace and an endorsement by the owner.
  await owner.ok('take_demo', { listing_id: ids.live });
  // The feedback takes the founding seat, whose new full token replaces the demo's.
  access = (await owner.ok('leave_feedback', { listing_id: ids.live, agent_name: 'Reads Live', rating: 4, body: 'The partner matches named the two tools my server lacks.' })).access_token;
  await owner.ok('leave_trace', { kind: 'attraction', listing_id: ids.partner, body: 'Answered every echo request within a second.' });
  await owner.ok('endorse', { listing_id: ids.live, partner_listing_id: ids.partner });
  // The claimed dormant listing's grace runs out: a read must not probe it, check it in or make it dormant.
  clock.advance(10 * DAY_MS);
  await setListingState(app, ids.live, { probed_at: clock.now().toISOString() }, clock.now().toISOString());
  await app.jobs.tick();
  await app.jobs.idle();
});
after(async () => {
  await owner?.close();
  await anonymous?.close();
  await app?.close();
});

/** A GET path with its path parameters filled and the query a real caller would send. */
function readablePath(path: string): string {
  const query: Record<string, string> = {
    '/api/listings/status': `?id=${ids.live}`,
    '/api/talk': `?listing_id=${ids.dormant}`,
    '/api/ard/search': '?q=echo',
    '/api/products/demo': `?listing_id=${ids.partner}`,
    '/api/products/access': '?artifact=kernel',
    '/api/score': '?url=https://reads-score.example.org/mcp',
    '/api/feed': '',
  };
  const filled = path
    .replace('{serverName}', encodeURIComponent('org.example/reads'))
    .replace('{version}', '1.0.0')
    .replace('{name}', `${ids.live}.svg`)
    .replace(':id', ids.live)
    .replace('/c/*', '/c/org.example/reads');
  return `${filled}${query[path] ?? ''}`;
}

test(`every GET route writes nothing, but for the reads that write by design (${engine})`, async () => {
  const openapi = (await getJson(app, '/openapi.json')).body;
  const paths = [...Object.entries<Record<string, unknown>>(openapi.paths).filter(([, ops]) => ops.get).map(([p]) => p), ...PAGES.map((p) => p.path), '/assets/site.css'];
  assert.ok(paths.length > 50, `${paths.length} GET routes`);
  for (const path of paths) {
    for (const headers of [{}, asOwner(token)]) {
      const url = readablePath(path);
      const res = await assertReadOnly(`GET ${path}`, () => app.http.inject({ method: 'GET', url, headers }));
      const { statusCode, body } = res as { statusCode: number; body: string };
      assert.ok(statusCode < 500, `GET ${url}: ${statusCode} ${body.slice(0, 200)}`);
      if (body.startsWith('{')) assertNoPlaceholderSteps(`GET ${path}`, JSON.parse(body));
    }
  }
});

/** Tools whose arguments name one subject of several, or a token: what a real caller would send. */
const ARGS: Record<string, () => Record<string, unknown>> = {
  follow_trail: () => ({ listing_id: ids.live }),
  interop_resolve: () => ({ listing_id: ids.live, partner_listing_id: ids.partner }),
  sense_traces: () => ({ listing_id: ids.partner }),
  cost_model: () => ({ mix: { mesh_match: 3 } }),
  hyper_index: () => ({}),
  install_product: () => ({ access_token: access }),
  export_skills: () => ({ token: access }),
  find_tools: () => ({ need: 'list my MCP server' }),
};

/** Arguments for a read-only tool: ARGS, or filled from its input schema's property names. */
function argsFor(name: string, properties: Record<string, unknown>): Record<string, unknown> {
  if (ARGS[name]) return ARGS[name]();
  const values: Record<string, unknown> = {
    id: ids.live,
    listing_id: ids.live,
    partner_listing_id: ids.partner,
    lead_listing_id: ids.live,
    q: 'echo',
    capabilities: ['echo'],
    capability: 'echo',
    agent_name: 'Reads Live',
    url: 'https://reads-probe.example.org/mcp',
    mix: [{ event_id: 'mesh_match', calls: 3 }],
    token: 'not-a-token',
    session_id: 'ses_unknown',
    product_id: 'cp_unknown',
  };
  return Object.fromEntries(Object.keys(properties).filter((k) => k in values).map((k) => [k, values[k]]));
}

test(`every readOnlyHint tool writes nothing, anonymous or with the owner token (${engine})`, async () => {
  const { tools } = await anonymous.client.listTools();
  const readOnly = tools.filter((t) => t.annotations?.readOnlyHint === true);
  assert.ok(readOnly.length >= 35, `${readOnly.length} read-only tools`);
  let answered = 0;
  for (const tool of readOnly) {
    const args = argsFor(tool.name, (tool.inputSchema.properties ?? {}) as Record<string, unknown>);
    for (const caller of [anonymous, owner]) {
      const r = (await assertReadOnly(`tool ${tool.name}`, () => caller.call(tool.name, args))) as { isError: boolean; sc: unknown };
      if (!r.isError) answered++;
      assertNoPlaceholderSteps(`tool ${tool.name}`, r.sc);
    }
  }
  // The collab reads need a session or product of their own; the rest answer.
  assert.ok(answered >= readOnly.length * 2 - 6, `most reads answered (${answered} of ${readOnly.length * 2})`);
});

test(`30 GET /api/talk leave the change feed and the active ETag as they were (${engine})`, async () => {
  const changes = async () => (await app.sql.selectFrom('changes').select(({ fn }) => fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
  const beforeReads = await snapshot();
  const feed = await changes();
  for (let i = 0; i < 30; i++) assert.equal((await getJson(app, `/api/talk?listing_id=${[ids.dormant, ids.live, ids.queued][i % 3]}`)).status, 200);
  const afterReads = await snapshot();
  assert.equal(await changes(), feed);
  assert.equal(afterReads.etag, beforeReads.etag);
  assert.equal(afterReads.woken, beforeReads.woken, 'no probe of a dormant listing');
  // The usage counters flush on a timer, so a flush of earlier calls may land between the snapshots.
  const kept = (t: Map<string, string>) => new Map([...t].filter(([name]) => !ALWAYS.has(name)));
  assert.deepEqual(kept(afterReads.tables), kept(beforeReads.tables));
});
