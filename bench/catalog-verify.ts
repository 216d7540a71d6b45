// The verified catalog at scale: a catalog of 25,000 entries, 15,000 of them with a remote on a
// loopback host (one host with 2,000 remotes, 100 hosts with 50, 8,000 hosts with one), each remote
// server-everything over streamable HTTP or legacy SSE, a closed port, a 401 responder or a page
// that is not MCP. The built server (`dist/main.mjs serve`, what `npm start` runs) checks them on
// its schedule at the default budgets and concurrency. Reported:
// - time until every remote its host's hour allows was checked, and the rest waiting for their
//   hosts' next hour (with the time the whole first pass takes at the budget's pace);
// - checks per second, against bare handshakes (the same check, no database, no schedule, same
//   concurrency) over remotes of the same mix in the same run;
// - requests per host against the host's public share of its budget (budget_counters);
// - the server's resident memory (peak) while checking; its start time with this catalog against
//   a bare node:http server's;
// - p50/p99 of ard_search and /v0.1 with the health filters once checked, and without them;
// - publish-to-Live of a local MCP server with the schedule running against the same without it,
//   on SQLite (one instance) and on PostgreSQL (two instances sharing the catalog's checks). The
//   catalog's remotes stand in for servers on other machines: here they share the service's two
//   cores, so they run at the lowest CPU priority (nice 19) while publishes are timed; the SQLite
//   ratio is also measured before they are lowered, to show what sharing the cores costs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { openDb, type Db } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { loadCatalogItems } from '../src/catalog/load.ts';
import { createChecker } from '../src/probe/factory.ts';
import { PUBLIC_SHARE } from '../src/platform/budget/host-budgets.ts';
import { freePort, startEverything } from '../test/peers/mcp-servers.ts';
import { benchDatabase } from './pg-database.ts';
import { median, percentile, round } from './stats.ts';

/** BENCH_CATALOG_SCALE shrinks every count (0.1 for a quick try); the figures reported are at 1. */
const SCALE = Number(process.env.BENCH_CATALOG_SCALE ?? 1);
const ENTRIES = Math.round(25_000 * SCALE);
const BIG_HOST = Math.round(2_000 * SCALE);
const MID_HOSTS = Math.round(100 * SCALE);
const MID_EACH = 50;
const SINGLES = Math.round(8_000 * SCALE);
const REMOTES = BIG_HOST + MID_HOSTS * MID_EACH + SINGLES;
const PUBLISH_RUNS = Number(process.env.BENCH_RUNS ?? 120);
/** Remotes the two PostgreSQL instances have checked before the publishes with the schedule running begin. */
const STEADY_CHECKS = Math.max(1, Math.round(300 * SCALE));
const LATENCY_REQUESTS = 400;
const BARE_SAMPLE = Math.max(100, Math.round(1_000 * SCALE));
const DATA = path.resolve(import.meta.dirname, '../../shared/data');
const began = performance.now();
/** Progress on stderr (the figures go to stdout as JSON). */
const say = (what: string) => console.error(`[catalog-verify ${round((performance.now() - began) / 1000, 1)} s] ${what}`);

type Kind = 'streamable' | 'sse' | 'dead' | 'auth' | 'html';
/** Of every 20 remotes: 8 live over streamable HTTP, 2 over SSE, 4 dead, 3 behind a login, 3 not MCP. */
const kindOf = (i: number): Kind => {
  const k = i % 20;
  return k < 8 ? 'streamable' : k < 10 ? 'sse' : k < 14 ? 'dead' : k < 17 ? 'auth' : 'html';
};

/** The i-th remote's host: the big one, one of the hundred, or a host of its own. */
function hostOf(i: number): string {
  if (i < BIG_HOST) return '127.1.0.1';
  if (i < BIG_HOST + MID_HOSTS * MID_EACH) return `127.2.0.${1 + Math.floor((i - BIG_HOST) / MID_EACH)}`;
  const n = i - BIG_HOST - MID_HOSTS * MID_EACH;
  return `127.3.${Math.floor(n / 250)}.${1 + (n % 250)}`;
}

interface Peers {
  ports: Record<Kind, number>;
  /** Gives the catalog's server-everything processes the lowest CPU priority (every thread of each). */
  lower(): void;
  close(): Promise<void>;
}

/** server-everything in both transports, a 401 responder and a page that is not MCP, on every loopback address; and a closed port. */
async function startPeers(): Promise<Peers> {
  const [streamable, sse] = await Promise.all([startEverything(), startEverything('sse')]);
  const plain = (answer: (res: http.ServerResponse) => void) =>
    new Promise<http.Server>((resolve) => {
      const s = http.createServer((req, res) => {
        req.resume();
        answer(res);
      });
      s.listen(0, '0.0.0.0', () => resolve(s));
    });
  const auth = await plain((res) => res.writeHead(401, { 'www-authenticate': 'Bearer realm="bench"', 'content-type': 'application/json' }).end('{"error":"unauthorized"}'));
  const html = await plain((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'));
  const portOf = (s: http.Server) => (s.address() as { port: number }).port;
  return {
    ports: { streamable: Number(new URL(streamable.url).port), sse: Number(new URL(sse.url).port), dead: await freePort(), auth: portOf(auth), html: portOf(html) },
    lower: () => {
      // A Linux thread's nice value is its own: each thread of the process is lowered.
      for (const pid of [streamable.pid!, sse.pid!]) for (const tid of fs.readdirSync(`/proc/${pid}/task`)) os.setPriority(Number(tid), 19);
    },
    close: async () => {
      await Promise.all([streamable.close(), sse.close(), new Promise((r) => auth.close(r)), new Promise((r) => html.close(r))]);
    },
  };
}

const remoteUrl = (i: number, ports: Peers['ports']) => {
  const kind = kindOf(i);
  return { kind, url: `http://${hostOf(i)}:${ports[kind]}/${kind === 'sse' ? 'sse' : 'mcp'}?r=${i}` };
};

/** Real descriptions, from the seed and the community dev catalog, reused round-robin so search has real text to index. */
function descriptions(): string[] {
  const seed = JSON.parse(fs.readFileSync(path.join(DATA, 'mcp-registry-seed-2025-05-16.json'), 'utf8')) as { description?: string }[];
  const dev = JSON.parse(fs.readFileSync(path.join(DATA, 'community-catalog-dev-2026.json'), 'utf8')) as { description?: string }[];
  return [...seed, ...dev].map((s) => s.description ?? '').filter((d) => d.length > 20);
}

/** The catalog: REMOTES entries with a remote (remote i is entry i's), the rest with an npm package only. */
function catalogItems(ports: Peers['ports']) {
  const texts = descriptions();
  const meta = { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2026-10-01T00:00:00.000Z', updatedAt: '2026-10-01T00:00:00.000Z', isLatest: true } };
  return Array.from({ length: ENTRIES }, (_, i) => {
    const server: Record<string, unknown> = { name: `io.bench/server-${i}`, description: texts[i % texts.length], version: '1.0.0' };
    if (i < REMOTES) {
      const { kind, url } = remoteUrl(i, ports);
      server.remotes = [{ type: kind === 'sse' ? 'sse' : 'streamable-http', url }];
    } else server.packages = [{ registryType: 'npm', identifier: `bench-server-${i}`, version: '1.0.0', transport: { type: 'stdio' } }];
    return { server, _meta: meta };
  });
}

async function loadCatalog(db: Db, ports: Peers['ports']): Promise<number> {
  await migrateToLatest(db, schemaHistory(db));
  const items = catalogItems(ports);
  const t = performance.now();
  for (let i = 0; i < items.length; i += 5_000) await loadCatalogItems({ db: db.kysely, clock: systemClock }, items.slice(i, i + 5_000));
  return (performance.now() - t) / 1000;
}

const ENV = {
  // BENCH_LOG_LEVEL=info shows each round of checks the servers log.
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  METRICS_PORT: '0',
  PROBE_ALLOW_PRIVATE: '1',
  RATE_LIMIT_READ_PER_MIN: '0',
  RATE_LIMIT_WRITE_PER_MIN: '0',
  PUBLISH_HOST_PER_DAY: '0',
};

interface Server {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** `dist/main.mjs serve` on a free port; resolves at its first 200 of /readyz with the time it took. */
async function serve(env: Record<string, string>): Promise<Server & { startMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.mjs', 'serve'], { env: { ...process.env, ...ENV, ...env, PORT: String(port) }, stdio: ['ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}`);
    if (await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false)) break;
    if (performance.now() - started > 120_000) throw new Error('serve not ready in 120 s');
    await new Promise((r) => setTimeout(r, 10));
  }
  const startMs = performance.now() - started;
  return {
    child,
    base,
    startMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}

/** A bare node:http server's spawn-to-first-answer: the part of a start no server code removes. */
async function bareStartMs(): Promise<number> {
  const file = path.join(os.tmpdir(), `rollcall-bench-bare-${process.pid}.json`);
  fs.writeFileSync(file, '{"ok":true}');
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['bench/bare-server.mjs', file, String(port)], { stdio: 'ignore' });
  try {
    while (!(await fetch(`http://127.0.0.1:${port}/`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 10));
    return performance.now() - started;
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(file, { force: true });
  }
}

/** Peak and current resident memory of a process, in MB (Linux /proc). */
function rssMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: round(kb('VmRSS') / 1024, 1), peak: round(kb('VmHWM') / 1024, 1) };
}

const TAGS = ['quiet', 'busy', 'pg-quiet', 'pg-busy', 'busy-shared'];

/**
 * Seconds from POST /api/publish to Live for `runs` fresh URLs of server-everything, each on a
 * loopback host of its own (127.5.<tag>.<run>): one host would run out of its hour's probe budget.
 */
async function publishToLive(base: string, everythingUrl: string, runs: number, tag: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const url = new URL(everythingUrl);
    url.hostname = `127.5.${TAGS.indexOf(tag)}.${1 + i}`;
    const res = await fetch(`${base}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${url}?publish=${tag}-${i}` }) });
    const { id } = (await res.json()) as { id: string };
    if (!id) throw new Error(`publish refused (${res.status})`);
    for (;;) {
      const s = (await (await fetch(`${base}/api/listings/status?id=${id}`)).json()) as { lane: string; lane_reason: string };
      if (s.lane === 'active') break;
      if (s.lane === 'failed') throw new Error(`publish ${tag}-${i} failed: ${s.lane_reason}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    out.push((performance.now() - t) / 1000);
  }
  return out;
}

/** Requests of each read sent before any is timed: the first ones compile the code paths they take. */
const WARM_UP = 20;

/**
 * p50 and p99 of each read in `urls`, `n` GETs each, one request at a time; the reads take turns
 * (one of each, then again), so a read and its baseline meet the same moment of the server (its
 * checks, its garbage collections) instead of one of them meeting all of the cold start.
 */
async function latencies<K extends string>(urls: Record<K, string>, n: number): Promise<Record<K, { p50_ms: number; p99_ms: number }>> {
  const keys = Object.keys(urls) as K[];
  const ms = new Map<K, number[]>(keys.map((k) => [k, []]));
  for (let i = 0; i < WARM_UP + n; i++) {
    for (const k of keys) {
      const t = performance.now();
      const res = await fetch(urls[k]);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${urls[k]}: ${res.status}`);
      if (i >= WARM_UP) ms.get(k)!.push(performance.now() - t);
    }
  }
  return Object.fromEntries(keys.map((k) => [k, { p50_ms: round(median(ms.get(k)!), 2), p99_ms: round(percentile(ms.get(k)!, 99), 2) }])) as Record<K, { p50_ms: number; p99_ms: number }>;
}

/** Remotes checked so far. */
async function progress(db: Db): Promise<number> {
  const { rows } = await sql<{ n: unknown }>`select count(*) as n from catalog_checks where status is not null`.execute(db.kysely);
  return Number(rows[0]!.n);
}

/** Runs the same check the schedule runs over `sample` remotes, `concurrency` at once: no database, no schedule, no budget. */
async function bareChecks(ports: Peers['ports'], concurrency: number): Promise<{ checks: number; seconds: number; per_s: number }> {
  const checker = createChecker(loadConfig({ PROBE_ALLOW_PRIVATE: '1' }));
  // Remotes of hosts of their own, the same mix as the catalog's, at addresses the server never checked.
  const queue = Array.from({ length: BARE_SAMPLE }, (_, i) => {
    const { kind, url } = remoteUrl(i, ports);
    return { url: url.replace(/^http:\/\/127\.\d+\.\d+\.\d+/, `http://127.9.${Math.floor(i / 250)}.${1 + (i % 250)}`), transport: kind === 'sse' ? ('sse' as const) : ('streamable-http' as const) };
  });
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let r = queue.shift(); r; r = queue.shift()) await checker.check(r);
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  await checker.close();
  return { checks: BARE_SAMPLE, seconds: round(seconds, 1), per_s: round(BARE_SAMPLE / seconds, 1) };
}

/** Requests each catalog host was sent (budget_counters, one hour), the most of any host, against its public share. */
/** Requests each host was sent, over the run and in its busiest hour (the budget is per hour: a run may span two). */
async function requestsPerHost(db: Db, perHour: number) {
  const { rows } = await sql<{ key: string; period: string; n: unknown }>`select key, period, n from budget_counters where key like 'requests:127.%'`.execute(db.kysely);
  const byHost = new Map<string, number>();
  const busiestHour = new Map<string, number>();
  for (const r of rows) {
    const host = r.key.split(':')[1]!;
    if (host === '127.0.0.1') continue;
    byHost.set(host, (byHost.get(host) ?? 0) + Number(r.n));
    busiestHour.set(host, Math.max(busiestHour.get(host) ?? 0, Number(r.n)));
  }
  const counts = [...byHost.values()];
  return {
    hosts: byHost.size,
    total: counts.reduce((a, b) => a + b, 0),
    max_in_an_hour: Math.max(0, ...busiestHour.values()),
    median: counts.length ? median(counts) : 0,
    big_host: byHost.get('127.1.0.1') ?? 0,
    big_host_hours: rows.filter((r) => r.key === 'requests:127.1.0.1').length,
    public_share: Math.floor(perHour * PUBLIC_SHARE),
  };
}

async function statusCounts(db: Db): Promise<Record<string, number>> {
  const { rows } = await sql<{ status: string | null; n: unknown }>`select status, count(*) as n from catalog_checks group by status`.execute(db.kysely);
  return Object.fromEntries(rows.map((r) => [r.status ?? 'waiting', Number(r.n)]));
}

/** What both parts of the run share: the catalog's servers, the publish target, the data folder, the figures. */
interface Run {
  peers: Peers;
  everything: { url: string };
  dir: string;
  perHour: number;
  result: Record<string, unknown>;
}

/** BENCH_CATALOG_PART: `sqlite` or `postgres` runs that part alone (both by default). */
const PART = process.env.BENCH_CATALOG_PART;

export async function benchCatalogVerify() {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  const peers = await startPeers();
  const everything = await startEverything();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-catalog-'));
  const perHour = loadConfig({}).probeHostPerHour;
  const result: Record<string, unknown> = { entries: ENTRIES, remotes: REMOTES, hosts: 1 + MID_HOSTS + SINGLES, mix_per_20: { streamable_live: 8, sse_live: 2, dead: 4, auth_required: 3, not_mcp: 3 }, host_budget_per_hour: perHour };
  try {
    const run: Run = { peers, everything, dir, perHour, result };
    if (PART !== 'postgres') await sqlitePart(run);
    if (PART !== 'sqlite') await postgresPart(run);
  } finally {
    await Promise.all([peers.close(), everything.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** SQLite: the catalog loaded, then one server started with and without the schedule. */
async function sqlitePart({ peers, everything, dir, perHour, result }: Run): Promise<void> {
  const sqlite = openDb({ dataDir: dir });
  result.load_s = round(await loadCatalog(sqlite, peers.ports), 1);
  say(`catalog loaded on SQLite: ${ENTRIES} entries, ${REMOTES} remotes`);
  const bare = await bareStartMs();
  const quiet = await serve({ DATA_DIR: dir, CATALOG_CHECK_CONCURRENCY: '0' });
  result.start = { serve_ms: round(quiet.startMs), bare_node_ms: round(bare), ratio_to_bare: round(quiet.startMs / bare, 2) };
  const without = await publishToLive(quiet.base, everything.url, PUBLISH_RUNS, 'quiet');
  say('publish-to-Live without the schedule measured');
  await quiet.stop();

  const checking = await serve({ DATA_DIR: dir });
  const t0 = performance.now();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(checking.child.pid!).peak);
  }, 1000);
  // Publishes while the schedule checks (its first round comes with the periodic task, within a minute).
  while ((await progress(sqlite)) === 0) await new Promise((r) => setTimeout(r, 200));
  const firstCheckS = (performance.now() - t0) / 1000;
  const sharingCores = await publishToLive(checking.base, everything.url, PUBLISH_RUNS, 'busy-shared');
  peers.lower();
  const withSchedule = await publishToLive(checking.base, everything.url, PUBLISH_RUNS, 'busy');
  say(`publish-to-Live with the schedule measured (${await progress(sqlite)} remotes checked by then)`);
  // Until nothing due is left that a host's hour allows: every remote checked or waiting for its host's next hour.
  let checked = 0;
  let still = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const now = await progress(sqlite);
    still = now === checked ? still + 1 : 0;
    if (now !== checked) say(`${now} of ${REMOTES} remotes checked`);
    checked = now;
    // The schedule wakes at least every minute: 80 s without a check means only budget waits are left.
    if (checked >= REMOTES || still >= 40) break;
  }
  const seconds = (performance.now() - t0) / 1000 - still * 2;
  clearInterval(sampler);
  const byStatus = await statusCounts(sqlite);
  const hosts = await requestsPerHost(sqlite, perHour);
  const query = `${checking.base}/api/ard/search?q=${encodeURIComponent('query a postgres database')}&limit=20`;
  // Each filtered read beside its baseline in the same state: the same read without the health filters.
  const reads = await latencies(
    {
      ard_search_filtered: `${query}&live_only=true&max_tool_tokens=20000`,
      ard_search_unfiltered: query,
      v01_filtered: `${checking.base}/v0.1/servers?health=live&remote=true&max_tool_tokens=20000&limit=30`,
      v01_unfiltered: `${checking.base}/v0.1/servers?limit=30`,
    },
    LATENCY_REQUESTS,
  );
  const memory = rssMb(checking.child.pid!);
  await checking.stop();
  await sqlite.close();
  say('checks and reads measured; bare handshakes next');
  const bareRun = await bareChecks(peers.ports, loadConfig({}).catalogCheckConcurrency);
  const perCheck = hosts.total / checked; // requests of an average check of this mix
  result.first_pass = {
    first_check_after_start_s: round(firstCheckS, 1),
    seconds_until_only_budget_waits: round(seconds, 1),
    checked,
    waiting_for_next_hour: REMOTES - checked,
    by_status: byStatus,
    requests_per_check: round(perCheck, 2),
    checks_per_s: round(checked / (seconds - firstCheckS), 1),
    bare_checks: bareRun,
    ratio_to_bare: round(checked / (seconds - firstCheckS) / bareRun.per_s, 2),
    hours_until_big_host_done_at_budget: round((BIG_HOST * perCheck) / hosts.public_share, 1),
  };
  result.requests_per_host = hosts;
  result.memory_mb = { peak_rss: Math.max(peak, memory.peak), rss_after: memory.rss };
  result.latency_after_checks = reads;
  result.publish_to_live_sqlite = {
    runs: PUBLISH_RUNS,
    without_schedule_median_s: round(median(without)),
    with_schedule_median_s: round(median(withSchedule)),
    ratio: round(median(withSchedule) / median(without), 2),
    remotes_at_normal_priority: { with_schedule_median_s: round(median(sharingCores)), ratio: round(median(sharingCores) / median(without), 2) },
  };
}

/** PostgreSQL, two instances on one database: publish to one while both run the schedule. */
async function postgresPart({ peers, everything, dir, result }: Run): Promise<void> {
  // The catalog's servers stand in for other machines (the SQLite part lowers them halfway).
  peers.lower();
  const database = await benchDatabase(`rc_bench_catalog_${process.pid}`);
  const pgDb = openDb({ databaseUrl: database.url, dataDir: dir });
  try {
    result.load_postgres_s = round(await loadCatalog(pgDb, peers.ports), 1);
    say('catalog loaded on PostgreSQL');
    const pgEnv = { DATABASE_URL: database.url, DATA_DIR: dir };
    const [qa, qb] = [await serve({ ...pgEnv, CATALOG_CHECK_CONCURRENCY: '0' }), await serve({ ...pgEnv, CATALOG_CHECK_CONCURRENCY: '0' })];
    const pgWithout = await publishToLive(qa.base, everything.url, PUBLISH_RUNS, 'pg-quiet');
    await Promise.all([qa.stop(), qb.stop()]);
    const [ba, bb] = [await serve(pgEnv), await serve(pgEnv)];
    // Measured once both are past their start (index built, first rounds claimed) and checking steadily.
    while ((await progress(pgDb)) < STEADY_CHECKS) await new Promise((r) => setTimeout(r, 200));
    const pgWith = await publishToLive(ba.base, everything.url, PUBLISH_RUNS, 'pg-busy');
    await Promise.all([ba.stop(), bb.stop()]);
    // No remote was checked twice while both ran (the next check of any is an hour or more away).
    const { rows: twice } = await sql`select url_key from catalog_check_history group by url_key having count(*) > 1`.execute(pgDb.kysely);
    const pgChecked = await progress(pgDb);
    result.publish_to_live_postgres_two_instances = { runs: PUBLISH_RUNS, without_schedule_median_s: round(median(pgWithout)), with_schedule_median_s: round(median(pgWith)), ratio: round(median(pgWith) / median(pgWithout), 2), remotes_checked_meanwhile: pgChecked, remotes_checked_twice: twice.length };
  } finally {
    await pgDb.close();
    await database.drop();
  }
}
