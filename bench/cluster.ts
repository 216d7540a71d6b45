// A cluster under mixed traffic, with an instance killed midway: three instances of the build
// (`node dist/main.mjs serve`) on one PostgreSQL database and one Redis, on loopback, answer a fixed
// count of requests from eight client addresses (publish, status, search, feedback, value tools,
// traces, talk, execute_compose against a local MCP peer, and owners' feedback racing for founding
// seats). Halfway, one instance gets SIGKILL and is started again. Afterwards the database is
// checked: every acknowledged write is there, seats are at most 100 and one per listing and owner
// domain, no allowance spent a unit it was not given and no refill was granted past its daily
// count, no listing was probed twice within one lease, the public feed counts what the database
// holds, and no answer was a 500. Prints the figures and every violation found.
import os from 'node:os';
import http from 'node:http';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Agent } from 'undici';
import { freePort, startEverything, type Peer } from '../test/peers/mcp-servers.ts';
import { startA2aAgent, type AgentPeer } from '../test/peers/a2a-agent.ts';
import { newClaimSpots, serveClaimFile } from '../test/peers/claim-spots.ts';
import { meteredEvent, EVENT_IDS } from '../src/metering/events.ts';
import { REFILLS } from '../src/metering/refills.ts';
import { FOUNDING_SEATS } from '../src/funnel/deal.ts';
import { round } from './stats.ts';
import { benchDatabase } from './pg-database.ts';

const REQUESTS = Number(process.env.BENCH_CLUSTER_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CLUSTER_CONCURRENCY ?? 24);
const INSTANCES = 3;
const OWNERS = 120;
const CLIENTS = 8;
const LEASE_S = 20;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Instance {
  port: number;
  base: string;
  child?: ChildProcess;
  up: boolean;
}

/** Where each operation's acknowledged writes are kept, to look for them afterwards. */
interface Acked {
  listings: string[];
  feedback: string[];
  kernels: { name: string; version: number }[];
  traces: string[];
  seats: { listing: string; seat: number }[];
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read loosely, as a client reads them
type Json = Record<string, any>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One client address of its own per agent (each its own allowances and limits). */
const clients = Array.from({ length: CLIENTS }, (_, i) => new Agent({ localAddress: `127.0.3.${i + 1}`, connections: 8 }));

async function call(base: string, client: number, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), accept: 'application/json, text/event-stream', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    // @ts-expect-error undici's dispatcher option on Node's fetch
    dispatcher: clients[client % CLIENTS],
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

const tool = (base: string, client: number, name: string, args: Json, headers: Record<string, string> = {}) =>
  call(base, client, 'POST', '/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, headers);

/** A tool's structured answer, or undefined when the call failed (its HTTP status says why). */
const structured = (r: { status: number; body: Json }) => (r.status === 200 && r.body.result && !r.body.result.isError ? (r.body.result.structuredContent as Json) : undefined);

function start(instance: Instance, env: Record<string, string>): Promise<void> {
  instance.child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.mjs', 'serve'], {
    env: { ...process.env, ...env, PORT: String(instance.port), PUBLIC_BASE_URL: instance.base },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return (async () => {
    for (let i = 0; i < 300; i++) {
      const ok = await fetch(`${instance.base}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        instance.up = true;
        return;
      }
      await sleep(50);
    }
    throw new Error(`instance on ${instance.port} did not start`);
  })();
}

const kill = (instance: Instance) =>
  new Promise<void>((resolve) => {
    instance.up = false;
    if (!instance.child || instance.child.exitCode !== null) return resolve();
    instance.child.once('exit', () => resolve());
    instance.child.kill('SIGKILL');
  });

/** Claim hosts: one HTTP server per loopback address, each serving the shared claim file. */
async function claimHosts(n: number, spots: ReturnType<typeof newClaimSpots>) {
  const servers: http.Server[] = [];
  const origins: string[] = [];
  for (let i = 0; i < n; i++) {
    const host = `127.0.2.${2 + i}`;
    const server = http.createServer((req, res) => {
      if (!serveClaimFile(spots, req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, host, r));
    servers.push(server);
    origins.push(`http://${host}:${(server.address() as AddressInfo).port}`);
  }
  return { origins, close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))) };
}

export async function benchCluster() {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  const database = await benchDatabase(`rc_bench_cluster_${process.pid}`);
  const db = new pg.Pool({ connectionString: database.url, max: 4 });
  const agent: AgentPeer = await startA2aAgent({ host: '127.0.1.2' });
  const everything: Peer = await startEverything();
  const spots = newClaimSpots();
  const hosts = await claimHosts(OWNERS, spots);
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: os.tmpdir(),
    REDIS_URL,
    REDIS_PREFIX: `rollcall-bench-${process.pid}:`,
    HOST: '127.0.0.1',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    PROBE_ALLOW_PRIVATE: '1',
    RATE_LIMIT_READ_PER_MIN: '0',
    RATE_LIMIT_WRITE_PER_MIN: '0',
    PROBE_HOST_PER_HOUR: '0',
    PUBLISH_HOST_PER_DAY: '0',
    // One bench address verifies every owner's claim.
    CALLER_FETCHES_PER_HOUR: '0',
    PROBE_RATE_PER_MIN: '0',
    JOB_TICK_S: '1',
    JOB_LEASE_S: String(LEASE_S),
    PROBE_BACKOFF_S: '600',
    SEARCH_POLL_MS: '500',
  };
  const instances: Instance[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const port = await freePort();
    instances.push({ port, base: `http://127.0.0.1:${port}`, up: false });
  }
  const statuses: Record<string, number> = {};
  const fiveHundreds: string[] = [];
  const acked: Acked = { listings: [], feedback: [], kernels: [], traces: [], seats: [] };
  let lost = 0;
  const started = performance.now();
  try {
    await start(instances[0]!, env); // migrates alone first
    await Promise.all(instances.slice(1).map((i) => start(i, env)));
    const first = instances[0]!.base;

    // Set-up: a Live MCP partner and a plan over it; owners with their tokens and Live listings.
    const partner = (await call(first, 0, 'POST', '/api/publish', { url: everything.url })).body.listing_id as string;
    for (let i = 0; i < 200 && (await call(first, 0, 'GET', `/api/listings/status?id=${partner}`)).body.lane !== 'active'; i++) await sleep(100);
    const plan = structured(await tool(first, 1, 'mesh_compose', { goal: 'Echo a short message back', capabilities: ['echo'], agent_name: 'bench-planner' }));
    if (!plan) throw new Error('mesh_compose gave no plan');
    const owners: { id: string; token: string }[] = [];
    for (const origin of hosts.origins) {
      const asked = await call(first, 2, 'POST', '/api/listings/claim', { url: `${origin}/mcp` });
      spots.file = `${spots.file ?? ''}${asked.body.proof}\n`;
      const verified = await call(first, 2, 'POST', '/api/listings/claim/verify', { claim_id: asked.body.claim_id, method: 'well_known' });
      if (verified.status !== 200) throw new Error(`verify_claim: ${JSON.stringify(verified.body)}`);
      owners.push({ id: verified.body.listing_id, token: verified.body.owner_token });
    }
    // The owners' listings are not servers: they are made Live in the database, as a probe would.
    const now = new Date().toISOString();
    await db.query(`update listings set lane = 'active', live_since = $1, updated_at = $1 where id = any($2)`, [now, owners.map((o) => o.id)]);
    await db.query(`insert into probe_state (listing_id, ok, checks_clean, handshake, score, probed_at) select id, 1, 1, 'ok', 60, $1 from listings where id = any($2) on conflict (listing_id) do update set ok = 1, checks_clean = 1`, [now, owners.map((o) => o.id)]);
    // Their hosts serve only the claim file, so their scheduled probes are put off past the run.
    await db.query(`update jobs set due_at = '2100-01-01T00:00:00.000Z' where subject = any($1)`, [owners.map((o) => o.id)]);
    const setupS = round((performance.now() - started) / 1000);

    // The mixed traffic.
    const kinds = ['publish', 'status', 'status', 'search', 'search', 'feedback', 'kernel', 'trace', 'talk', 'compose', 'seat', 'seat'] as const;
    let next = 0;
    let killed: Promise<void> | undefined;
    const one = async (n: number) => {
      const alive = instances.filter((i) => i.up);
      const base = alive[n % alive.length]!.base;
      // Each kind of request comes from every client address in turn.
      const client = (n + Math.floor(n / kinds.length)) % CLIENTS;
      const kind = kinds[n % kinds.length]!;
      const known = acked.listings.length ? acked.listings[n % acked.listings.length]! : partner;
      let r: { status: number; body: Json };
      switch (kind) {
        case 'publish':
          r = await call(base, client, 'POST', '/api/publish', { url: `${agent.baseUrl}/b${n}/agent-card.json` });
          if (r.status === 200) acked.listings.push(r.body.listing_id);
          break;
        case 'status':
          r = await call(base, client, 'GET', `/api/listings/status?id=${known}`);
          break;
        case 'search':
          r = await call(base, client, 'GET', `/api/ard/search?q=${n % 2 ? 'translate text' : 'echo'}`);
          break;
        case 'feedback':
          r = await call(base, client, 'POST', '/api/products/feedback', { listing_id: partner, rating: 4, body: `The echo partner answered request ${n} within a second for us.` });
          if (r.status === 200) acked.feedback.push(r.body.feedback_id);
          break;
        case 'kernel': {
          const name = `bench-agent-${client}`;
          r = await tool(base, client, 'improve_kernel', { agent_name: name, goals: [`answer support request ${n} in two sentences`] });
          const k = structured(r);
          if (k) acked.kernels.push({ name, version: k.version });
          break;
        }
        case 'trace': {
          const body = `Partner answered echo call ${n} correctly.`;
          r = await tool(base, client, 'leave_trace', { kind: 'attraction', listing_id: partner, body });
          if (structured(r)) acked.traces.push(body);
          break;
        }
        case 'talk':
          r = await call(base, client, 'GET', `/api/talk?listing_id=${known}`);
          break;
        case 'compose':
          r = await tool(base, client, 'execute_compose', { composition_id: plan.composition_id, input: `hello ${n}`, agent_name: `bench-agent-${client}` });
          break;
        case 'seat': {
          const owner = owners[Math.floor(n / kinds.length) % owners.length]!;
          r = await call(base, client, 'POST', '/api/products/feedback', { listing_id: owner.id, rating: 5, body: `Our listing ${owner.id} went Live and the demo found partners (${n}).` }, { authorization: `Bearer ${owner.token}` });
          if (r.status === 200 && r.body.founding?.outcome === 'seat') acked.seats.push({ listing: owner.id, seat: r.body.founding.seat });
          break;
        }
      }
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status >= 500 && r.status !== 503) fiveHundreds.push(`${kind}: ${JSON.stringify(r.body).slice(0, 300)}`);
    };
    const worker = async () => {
      while (next < REQUESTS) {
        const n = next++;
        if (n === Math.floor(REQUESTS / 2)) {
          // Halfway: SIGKILL one instance; it comes back three seconds later.
          const victim = instances[INSTANCES - 1]!;
          killed = kill(victim).then(async () => {
            await sleep(3000);
            await start(victim, env);
          });
        }
        try {
          await one(n);
        } catch {
          lost++; // the request was in flight on the killed instance: never acknowledged
        }
      }
    };
    const trafficStart = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await killed;
    const trafficS = (performance.now() - trafficStart) / 1000;

    // Settle: jobs whose instance died hold their lease for LEASE_S; wait until no probe is leased.
    for (let i = 0; i < (LEASE_S + 20) * 10; i++) {
      const { rows } = await db.query(`select count(*)::int as n from jobs where kind = 'probe' and lease_token is not null`);
      if (rows[0].n === 0) break;
      await sleep(100);
    }

    const violations: string[] = [...fiveHundreds.map((f) => `500 answered: ${f}`)];
    const check = async (label: string, text: string, params: unknown[] = []) => {
      const { rows } = await db.query(text, params);
      if (rows.length) violations.push(`${label}: ${JSON.stringify(rows.slice(0, 5))}${rows.length > 5 ? ` (+${rows.length - 5} more)` : ''}`);
    };
    // Every acknowledged write is there.
    await check('acknowledged listing missing', 'select x as id from unnest($1::text[]) x where x not in (select id from listings)', [acked.listings]);
    await check('acknowledged feedback missing', 'select x as id from unnest($1::text[]) x where x not in (select id from feedback_items)', [acked.feedback]);
    await check('acknowledged trace missing', `select x as body from unnest($1::text[]) x where x not in (select body from trace_deposits where body is not null)`, [acked.traces]);
    await check('acknowledged kernel missing', `select x from unnest($1::text[], $2::int[]) as t(x, v) where not exists (select 1 from kernel_versions k where k.agent_name = t.x and k.version = t.v)`, [acked.kernels.map((k) => k.name), acked.kernels.map((k) => k.version)]);
    await check('acknowledged seat missing', `select x from unnest($1::text[], $2::int[]) as t(x, s) where not exists (select 1 from founding_seats f where f.listing_id = t.x and f.seat = t.s)`, [acked.seats.map((s) => s.listing), acked.seats.map((s) => s.seat)]);
    // Seats: at most 100, one per listing and owner domain, the counter in step.
    await check('more seats than exist', `select count(*) from founding_seats having count(*) > ${FOUNDING_SEATS}`);
    await check('a domain holds two seats', 'select owner_domain, count(*) from founding_seats where owner_domain is not null group by owner_domain having count(*) > 1');
    await check('seat counter out of step', 'select c.taken, (select count(*) from founding_seats) as seats from founding_counter c where c.taken <> (select count(*) from founding_seats)');
    // No allowance spent a unit it was not given; no refill granted past its daily count.
    const paidEvents = EVENT_IDS.filter((e) => !meteredEvent(e).always_free);
    for (const e of paidEvents) {
      await check(`${e}: units spent beyond the free, refilled and paid ones`, 'select subject, day, used, refilled, paid from meter_usage where event_id = $1 and used > $2 + refilled + paid', [e, meteredEvent(e).free_per_day]);
    }
    for (const r of REFILLS) await check(`${r.action}: more refills granted than a day allows`, 'select subject, day, grants from meter_grants where action = $1 and grants > $2', [r.action, r.max_per_day]);
    // No listing probed twice within one lease.
    await check(
      'a listing probed twice within one lease',
      `select listing_id, at, prev from (select listing_id, at, lag(at) over (partition by listing_id order by at) as prev from probe_history) h where prev is not null and extract(epoch from (at::timestamptz - prev::timestamptz)) < $1`,
      [LEASE_S],
    );
    // The public feed counts what the database holds.
    const feedCounts: Record<string, number> = {};
    let cursor: string | undefined;
    for (;;) {
      const page = (await call(first, 0, 'GET', `/api/feed?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
      for (const item of page.items) feedCounts[item.event] = (feedCounts[item.event] ?? 0) + 1;
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    const { rows: dbCounts } = await db.query('select e.type, count(*)::int as n from feed_events e join listings l on l.id = e.listing_id where l.deleted_at is null group by e.type');
    for (const { type, n } of dbCounts) if (feedCounts[type] !== n) violations.push(`feed shows ${feedCounts[type] ?? 0} ${type} events, the database holds ${n}`);
    const { rows: listingRows } = await db.query('select count(*)::int as n from listings');
    if ((feedCounts['listing.listed'] ?? 0) !== listingRows[0].n) violations.push(`feed shows ${feedCounts['listing.listed'] ?? 0} listings listed, the database holds ${listingRows[0].n}`);
    const { rows: seatRows } = await db.query('select count(*)::int as n from founding_seats');
    const { rows: probeRows } = await db.query('select count(*)::int as probes, count(distinct listing_id)::int as listings from probe_history');

    return {
      instances: INSTANCES,
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      client_addresses: CLIENTS,
      setup_s: setupS,
      traffic_s: round(trafficS),
      requests_per_s: round(REQUESTS / trafficS),
      statuses,
      lost_in_flight_on_the_killed_instance: lost,
      acknowledged: { listings: acked.listings.length, feedback: acked.feedback.length, kernels: acked.kernels.length, traces: acked.traces.length, seats: acked.seats.length },
      seats_taken: seatRows[0].n,
      probes: probeRows[0],
      feed_events: feedCounts,
      violations,
    };
  } finally {
    for (const i of instances) await kill(i);
    await Promise.all([agent.close(), everything.close(), hosts.close()]);
    await Promise.all(clients.map((c) => c.close()));
    await db.end();
    await database.drop();
  }
}
