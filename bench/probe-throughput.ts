// Probe throughput: publish N listings (default 1,000, BENCH_N) of one loopback server-everything
// over real HTTP and time from the first POST /api/publish until all N are Live, on SQLite and on
// PostgreSQL, with one instance and with two instances on the same database. The baseline, measured
// in the same run right before and right after each configuration (their mean), is the same number
// of probes run directly: the prober (createProber) in a loop with the pool's concurrency, no jobs
// table, no listing writes.
// URLs are spread over 127.0.0.1..127.0.0.50 so the per-host caps (keyed by IP address, in the
// pool's claims and in the guarded client) do not serialize everything onto one host. The
// publishers run in a process of their own (bench/publisher.mjs), as real publishers are elsewhere:
// their HTTP client does not share the service's event loop (its CPU shows as other_cores).
// BENCH_PEER_DELAY_MS=<ms> puts the peer behind bench/delay-proxy.mjs, which holds each of its
// answers back that long, so probes wait on the network as they do against distant hosts.
// The per-host budgets are on, as in production (limits far above what the run uses, so they count
// every request and publish but hold nothing back; BENCH_BUDGETS=0 turns them off), counted in the
// database (BENCH_REDIS=1: in Redis). Every row reports the statements and transactions the service
// sent to its database (the driver's own count, BEGIN and COMMIT included) per listing and per
// re-probe, and a census before the rows counts one publish and one probe result exactly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDb, type Db } from '../src/platform/db/dialect.ts';
import type { StatementTally } from '../src/platform/db/statement-count.ts';
import { createProber } from '../src/probe/factory.ts';
import type { Prober } from '../src/probe/prober.ts';
import { freePort } from '../test/peers/mcp-servers.ts';
import { median, percentile, round } from './stats.ts';
import { profileStretch } from './profile.ts';
import { stopChild } from './processes.ts';
import { benchDatabase } from './pg-database.ts';

const N = Number(process.env.BENCH_N ?? 1000);
/** Milliseconds the peer's answers are held back (0: the loopback peer answers at once). */
const PEER_DELAY_MS = Number(process.env.BENCH_PEER_DELAY_MS ?? 0);
/** Probes that compile a prober's code before the clock: the direct one's and each service instance's. */
const WARM_PROBES = Math.min(200, N);
const PUBLISHERS = 8;
const ADDRESSES = 50;
const POLL_MS = Math.max(50, N / 20);
const LIMIT_S = Number(process.env.BENCH_LIMIT_S ?? 300);
const HOURS_6 = 6 * 3600;
/** Budgets on (the default): limits no run reaches, so they count without holding anything back. */
const BUDGETS = process.env.BENCH_BUDGETS !== '0';
const REDIS_URL = process.env.BENCH_REDIS === '1' ? (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379') : undefined;
const budgetEnv = (redis: string | undefined) => ({
  PROBE_HOST_PER_HOUR: BUDGETS ? '1000000' : '0',
  PUBLISH_HOST_PER_DAY: BUDGETS ? '1000000' : '0',
  ...(redis ? { REDIS_URL: redis, REDIS_PREFIX: `rc-bench-${process.pid}-${Date.now()}:` } : {}),
});

type Engine = 'sqlite' | 'postgres';

/** Listing i of a batch: one server, many loopback addresses, a distinct query per listing. */
const urlFor = (port: string, batch: string, i: number) => `http://127.0.0.${1 + (i % ADDRESSES)}:${port}/mcp?b=${batch}&n=${i}`;

// ---- CPU accounting (Linux /proc): where the time goes during a measured stretch ----

const CLK_TCK = 100;

function procCpuS(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK; // utime + stime
  } catch {
    return 0;
  }
}

/**
 * server-everything in streamable HTTP mode, as test/peers/mcp-servers.ts startEverything() starts
 * it, but its output is dropped once it listens: startEverything keeps every line the server logs
 * (several per request) and searches all of it again on each chunk, which at thousands of probes
 * took from 4% to 20% of this process's CPU as the run went on.
 */
async function startQuietEverything(): Promise<{ port: string; pid: number; close(): Promise<void> }> {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const port = await freePort();
  const child = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      if (output.length < 10_000) output += chunk;
      if (output.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  child.stderr.removeAllListeners('data');
  child.stderr.resume();
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`server-everything did not start: ${output}`);
  }
  return {
    port: String(port),
    pid: child.pid!,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/** CPU seconds of every postgres process on the machine (the server is shared: approximate). */
function postgresCpuS(): number {
  let total = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'postgres') total += procCpuS(Number(name));
    } catch {
      /* gone */
    }
  }
  return total;
}

function machineCpu(): { busy: number; total: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, x) => a + x, 0);
  const idle = f[3]! + (f[4] ?? 0);
  return { busy: (total - idle) / CLK_TCK, total: total / CLK_TCK };
}

interface CpuMark {
  at: number;
  bench: NodeJS.CpuUsage;
  everything: number;
  postgres: number;
  machine: { busy: number; total: number };
}

const cpuMark = (evPid: number | undefined, withPg: boolean): CpuMark => ({
  at: performance.now(),
  bench: process.cpuUsage(),
  everything: evPid ? procCpuS(evPid) : 0,
  postgres: withPg ? postgresCpuS() : 0,
  machine: machineCpu(),
});

/** Cores used by each side between two marks (1.0 = one core fully busy). */
function cpuSince(a: CpuMark, evPid: number | undefined, withPg: boolean) {
  const b = cpuMark(evPid, withPg);
  const wall = (b.at - a.at) / 1000;
  const bench = process.cpuUsage(a.bench);
  const ours = (bench.user + bench.system) / 1e6 / wall;
  const everything = (b.everything - a.everything) / wall;
  const postgres = (b.postgres - a.postgres) / wall;
  const machine = ((b.machine.busy - a.machine.busy) / (b.machine.total - a.machine.total)) * os.cpus().length;
  return {
    rollcall_process_cores: round(ours, 2),
    server_everything_cores: round(everything, 2),
    ...(withPg ? { postgres_cores: round(postgres, 2) } : {}),
    machine_busy_cores: round(machine, 2),
    // Anything else on the machine meanwhile (the publishers' process while publishing; noise: other
    // processes, or postgres when not counted).
    other_cores: round(Math.max(0, machine - ours - everything - (withPg ? postgres : 0)), 2),
  };
}

// ---- the direct baseline: the prober in a loop, no service ----

async function directProbes(config: Config, port: string, batch: string, probers: number, evPid: number | undefined) {
  const clients = Array.from({ length: probers }, () => createProber(config));
  const durations: number[] = [];
  const failures: Record<string, number> = {};
  let next = 0;
  const mark = cpuMark(evPid, false);
  const started = performance.now();
  try {
    // Each prober (one per instance) runs PROBE_CONCURRENCY probes at once, as one pool does.
    await Promise.all(
      clients.flatMap((prober) =>
        Array.from({ length: config.probeConcurrency }, async () => {
          while (next < N) {
            const i = next++;
            const t = performance.now();
            const report = await prober.probe(urlFor(port, batch, i), { hint: 'mcp', signal: AbortSignal.timeout(config.probeDeadlineS * 1000) });
            durations.push(performance.now() - t);
            if (!report.live) failures[`${report.reason}: ${report.detail}`] = (failures[`${report.reason}: ${report.detail}`] ?? 0) + 1;
          }
        }),
      ),
    );
  } finally {
    await Promise.all(clients.map((p) => p.close()));
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds: round(seconds, 2),
    probes_per_s: round(N / seconds, 1),
    median_probe_ms: round(median(durations), 1),
    p90_probe_ms: round(percentile(durations, 90), 1),
    failed: Object.values(failures).reduce((a, x) => a + x, 0),
    failures,
    cpu: cpuSince(mark, evPid, false),
  };
}

// ---- the service: N publishes over HTTP, then wait for all Live ----

interface Store {
  env: Record<string, string>;
  /** The db each instance gets (SQLite: one shared handle); undefined: the app opens its own pool. */
  dbFor(instance: number): Db | undefined;
  /** A statement run underneath the service (the bench's own connection or the shared SQLite handle). */
  query(text: string): Promise<Record<string, unknown>[]>;
  /** Statements `query` sent through the service's own handle (SQLite), left out of the service's count. */
  ownStatements(): number;
  close(): Promise<void>;
}

/** What the instances sent to their database so far (each handle counted once: SQLite instances share one). */
function sentBy(apps: App[]): StatementTally {
  const counts = new Set(apps.map((a) => a.services.db.sent));
  let statements = 0;
  let transactions = 0;
  for (const c of counts) {
    statements += c.statements;
    transactions += c.transactions;
  }
  return { statements, transactions };
}

/** Statements and transactions per unit of work between two tallies (the bench's own SQLite reads left out). */
function perUnit(before: StatementTally & { own: number }, after: StatementTally & { own: number }, units: number) {
  const statements = after.statements - before.statements - (after.own - before.own);
  return { statements: round(statements / units, 2), transactions: round((after.transactions - before.transactions) / units, 2) };
}

async function sqliteStore(): Promise<Store> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-throughput-'));
  const db = openDb({ dataDir });
  let own = 0;
  return {
    env: { DATA_DIR: dataDir },
    // One process holds one SQLite connection: a second in-process instance shares it
    // (test/helpers/app.ts freshStore().connect()).
    dbFor: (instance) => (instance === 0 ? db : { ...db, close: async () => {} }),
    query: (text) => {
      own++;
      return sql.raw(text).execute(db.kysely).then((r) => r.rows as Record<string, unknown>[]);
    },
    ownStatements: () => own,
    async close() {
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function postgresStore(): Promise<Store> {
  const database = await benchDatabase(`rc_bench_${process.pid}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-throughput-'));
  const reader = new pg.Client({ connectionString: database.url });
  await reader.connect();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    dbFor: () => undefined,
    query: (text) => reader.query(text).then((r) => r.rows),
    ownStatements: () => 0,
    async close() {
      await reader.end().catch(() => undefined);
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Counts the app's log lines by level and message (LOG_LEVEL=warn: warnings and errors only). */
function logCollector() {
  const counts: Record<string, { n: number; example: string }> = {};
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        let key = line.slice(0, 120);
        try {
          const entry = JSON.parse(line) as { level?: number; msg?: string };
          key = `${entry.level ?? '?'} ${entry.msg ?? ''}`;
        } catch {
          /* not JSON: counted by its first characters */
        }
        counts[key] = { n: (counts[key]?.n ?? 0) + 1, example: counts[key]?.example ?? line.slice(0, 600) };
      }
      done();
    },
  });
  return { stream, counts };
}

/** lane -> count, and the reasons of failed listings. */
async function laneCounts({ query }: Store) {
  const lanes: Record<string, number> = {};
  for (const r of await query('select lane, count(*) as n from listings group by lane')) lanes[String(r.lane)] = Number(r.n);
  const failed: Record<string, number> = {};
  if (lanes.failed) for (const r of await query(`select lane_reason, count(*) as n from listings where lane = 'failed' group by lane_reason`)) failed[String(r.lane_reason)] = Number(r.n);
  return { lanes, failed };
}

/**
 * The publishers' process (bench/publisher.mjs), started and ready before any clock runs; `publish`
 * sends it the n listings and resolves with its errors.
 */
async function startPublisher() {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'publisher.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.startsWith('ready\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`the publisher exited with ${code} before it was ready`)));
  });
  return {
    async publish(n: number, bases: string[], port: string, batch: string): Promise<Record<string, number>> {
      child.stdin.end(`${JSON.stringify({ bases, concurrency: PUBLISHERS, urls: Array.from({ length: n }, (_, i) => urlFor(port, batch, i)) })}\n`);
      const code = await exited;
      if (code !== 0) throw new Error(`the publisher exited with ${code}: ${output}`);
      return (JSON.parse(output.slice('ready\n'.length)) as { errors: Record<string, number> }).errors;
    },
  };
}

async function serviceRun(n: number, engine: Engine, instances: number, port: string, batch: string, evPid: number | undefined) {
  const store = engine === 'sqlite' ? await sqliteStore() : await postgresStore();
  const config = loadConfig({
    ...store.env,
    // Warnings and errors are kept and counted (what went wrong, if anything); nothing is printed.
    LOG_LEVEL: 'warn',
    PORT: '0',
    PROBE_ALLOW_PRIVATE: '1',
    RATE_LIMIT_READ_PER_MIN: '0',
    RATE_LIMIT_WRITE_PER_MIN: '0',
    PROBE_RATE_PER_MIN: '0',
    ...budgetEnv(REDIS_URL),
    JOB_TICK_S: '1',
  });
  const apps: App[] = [];
  const log = logCollector();
  try {
    for (let k = 0; k < instances; k++) apps.push(await buildApp({ config, db: store.dbFor(k), logStream: log.stream }));
    // Each instance probes on a thread of its own, started with the app: its code is compiled by
    // as many probes as the direct baseline's warm-up ran, as a service that has been up a while.
    for (const app of apps) await warmProber(app.services.probe.prober, WARM_PROBES, config.probeConcurrency, port, `${batch}-warm`);
    const bases: string[] = [];
    for (const app of apps) {
      await app.http.listen({ port: 0, host: '127.0.0.1' });
      bases.push(`http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`);
    }
    const publisher = await startPublisher();
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const slots = slotSampler(apps);
    const stopProfile = await profileStretch(`publish-to-live-${engine}-${instances}-${batch}`);
    const mark = cpuMark(evPid, engine === 'postgres');
    const sent0 = { ...sentBy(apps), own: store.ownStatements() };
    const started = performance.now();
    let publishedS = 0;
    let publishErrors: Record<string, number> = {};
    const publishing = publisher.publish(n, bases, port, batch).then((errors) => {
      publishedS = (performance.now() - started) / 1000;
      publishErrors = errors;
    });
    let state: Awaited<ReturnType<typeof laneCounts>>;
    let liveS: number | undefined;
    for (;;) {
      state = await laneCounts(store);
      const live = state.lanes.active ?? 0;
      const settled = live + (state.lanes.failed ?? 0);
      if (live >= n) {
        liveS = (performance.now() - started) / 1000;
        break;
      }
      if ((publishedS > 0 && settled >= n) || performance.now() - started > LIMIT_S * 1000) break; // some failed: they would wait PROBE_BACKOFF_S
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const cpu = cpuSince(mark, evPid, engine === 'postgres');
    const perListing = perUnit(sent0, { ...sentBy(apps), own: store.ownStatements() }, n);
    loopDelay.disable();
    const slotsBusy = slots.stop();
    await stopProfile();
    await publishing;
    const wallS = (performance.now() - started) / 1000;
    const publishProbeMs = await meanProbeMs(apps);
    // Then the pool alone: every probe job made due at once (as if PROBE_INTERVAL_H had come round
    // for all of them), no publishing; done when no probe job is due at or before the mark.
    const reprobe = liveS === undefined ? undefined : await reprobeAll(n, store, apps, evPid, engine === 'postgres');
    return {
      seconds_to_all_live: liveS === undefined ? null : round(liveS, 2),
      probes_per_s: liveS === undefined ? null : round(n / liveS, 1),
      publish_seconds: round(publishedS, 2),
      publishes_per_s: round(n / publishedS, 1),
      publish_errors: publishErrors,
      lanes: state.lanes,
      failed_reasons: state.failed,
      wall_s: round(wallS, 2),
      // Jobs each instance ran (the periodic sweep job included).
      jobs_started_per_instance: apps.map((a) => a.jobs.started),
      // What the instances sent to the database from the first publish until all were Live, per
      // listing (its publish, its first probe and its share of the claims and periodic work).
      sent_per_listing: perListing,
      // The pool's own view of a probe inside a job (the rollcall_probe_seconds histogram).
      mean_job_probe_ms: round(publishProbeMs, 1),
      cpu,
      // How many of the probe pool's slots held a job meanwhile, on average per instance (all of
      // them busy means the probes themselves are the limit; fewer, that claims cannot keep up).
      probe_slots_busy_mean: slotsBusy,
      // How late the service's event loop ran its callbacks meanwhile: every probe's network waits
      // queue behind the loop's other work, so a busy loop makes each probe slower.
      event_loop_delay_ms: { p50: round(loopDelay.percentile(50) / 1e6, 1), p90: round(loopDelay.percentile(90) / 1e6, 1), p99: round(loopDelay.percentile(99) / 1e6, 1), max: round(loopDelay.max / 1e6, 1) },
      reprobe_all: reprobe,
      // Warnings and errors the instances logged, by level and message, with one example each.
      log: log.counts,
    };
  } finally {
    for (const app of apps) await app.http.close();
    await store.close();
  }
}

const CENSUS_LISTINGS = 50;

/**
 * Statements and transactions the service sends for one publish of a new listing (each counted
 * alone: they run one after another) and per probe result (the listings' first probes, then a
 * re-probe of all of them, through the pool: each result's share of the claims included), with the
 * per-host budgets counting in the database or in Redis. One instance, one listing per loopback
 * address (127.0.0.2..), nothing else running.
 */
async function statementCensus(engine: Engine, port: string, batch: string, redis: string | undefined) {
  const store = engine === 'sqlite' ? await sqliteStore() : await postgresStore();
  // Jobs run only when the census ticks; a publish's probe is due in an hour, so publishes run alone.
  const config = loadConfig({ ...store.env, LOG_LEVEL: 'warn', PORT: '0', PROBE_ALLOW_PRIVATE: '1', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_RATE_PER_MIN: '0', ...budgetEnv(redis), JOB_TICK_S: '0', PROBE_DELAY_S: '3600' });
  const log = logCollector();
  const app = await buildApp({ config, db: store.dbFor(0), logStream: log.stream });
  try {
    await warmProber(app.services.probe.prober, WARM_PROBES, config.probeConcurrency, port, `${batch}-warm`);
    await app.jobs.tick(); // the sweep's first run and the other kinds' first claims, not counted
    await app.jobs.idle();
    const tally = () => ({ ...sentBy([app]), own: store.ownStatements() });
    const publishes: StatementTally[] = [];
    for (let i = 0; i < CENSUS_LISTINGS; i++) {
      const before = tally();
      const res = await app.http.inject({ method: 'POST', url: '/api/publish', payload: { url: `http://127.0.0.${2 + i}:${port}/mcp?b=${batch}&n=${i}` } });
      if (res.statusCode !== 200) throw new Error(`census publish: ${res.statusCode} ${res.body}`);
      publishes.push(perUnit(before, tally(), 1));
    }
    const probeRound = async () => {
      await store.query(`update jobs set due_at = '${new Date().toISOString()}' where kind = 'probe'`);
      const before = tally();
      for (let k = 0; k < 100; k++) {
        await app.jobs.tick();
        await app.jobs.idle();
        const [row] = await store.query(`select count(*) as n from jobs where kind = 'probe' and due_at <= '${new Date().toISOString()}'`);
        if (Number(row?.n) === 0) break;
      }
      return perUnit(before, tally(), CENSUS_LISTINGS);
    };
    const firstProbe = await probeRound();
    const { lanes } = await laneCounts(store);
    const reprobe = await probeRound();
    return {
      engine,
      budgets: !BUDGETS ? 'off' : redis ? 'redis' : 'database',
      listings: CENSUS_LISTINGS,
      per_publish: { statements: median(publishes.map((p) => p.statements)), transactions: median(publishes.map((p) => p.transactions)), max_statements: Math.max(...publishes.map((p) => p.statements)) },
      per_first_probe_claims_included: firstProbe,
      per_reprobe_claims_included: reprobe,
      lanes,
      log: log.counts,
    };
  } finally {
    await app.http.close();
    await store.close();
  }
}

/** Samples each instance's busy probe slots every 10 ms until stopped; returns the mean per instance. */
function slotSampler(apps: App[]) {
  let sum = 0;
  let samples = 0;
  const timer = setInterval(() => {
    for (const app of apps) sum += app.jobs.runningByKind().probe ?? 0;
    samples += apps.length;
  }, 10);
  return {
    stop(): number {
      clearInterval(timer);
      return samples ? round(sum / samples, 1) : 0;
    },
  };
}

async function reprobeAll(n: number, store: Store, apps: App[], evPid: number | undefined, withPg: boolean) {
  const before = await probeSecondsTotals(apps);
  const mark = new Date().toISOString();
  const cpu0 = cpuMark(evPid, withPg);
  const started = performance.now();
  await store.query(`update jobs set due_at = '${mark}' where kind = 'probe'`);
  const sent0 = { ...sentBy(apps), own: store.ownStatements() };
  for (const app of apps) app.jobs.wake('probe');
  let seconds: number | undefined;
  while (performance.now() - started < LIMIT_S * 1000) {
    const [row] = await store.query(`select count(*) as n from jobs where kind = 'probe' and due_at <= '${mark}'`);
    if (Number(row?.n) === 0) {
      seconds = (performance.now() - started) / 1000;
      break;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const cpu = cpuSince(cpu0, evPid, withPg);
  const sent = perUnit(sent0, { ...sentBy(apps), own: store.ownStatements() }, n);
  const after = await probeSecondsTotals(apps);
  const { lanes } = await laneCounts(store);
  return {
    seconds: seconds === undefined ? null : round(seconds, 2),
    // Per re-probe: its result, its share of the claims, and whatever else ran meanwhile.
    sent_per_probe: sent,
    probes_per_s: seconds === undefined ? null : round(n / seconds, 1),
    mean_job_probe_ms: after.count > before.count ? round(((after.sum - before.sum) / (after.count - before.count)) * 1000, 1) : null,
    lanes,
    cpu,
  };
}

async function probeSecondsTotals(apps: App[]): Promise<{ sum: number; count: number }> {
  let sum = 0;
  let count = 0;
  for (const app of apps) {
    const metric = await app.services.metrics.registry.getSingleMetric('rollcall_probe_seconds')?.get();
    for (const v of (metric?.values ?? []) as { metricName?: string; value: number }[]) {
      if (v.metricName === 'rollcall_probe_seconds_sum') sum += v.value;
      if (v.metricName === 'rollcall_probe_seconds_count') count += v.value;
    }
  }
  return { sum, count };
}

async function meanProbeMs(apps: App[]): Promise<number> {
  const { sum, count } = await probeSecondsTotals(apps);
  return count ? (sum / count) * 1000 : 0;
}

/** Re-probe capacity for 100,000 listings at a 300 ms median probe (PROBE_INTERVAL_H = 6). */
function capacity(slots: number, listings = 100_000, probeS = 0.3, intervalS = HOURS_6) {
  const perInstance = slots / probeS;
  const needed = listings / intervalS;
  return {
    listings,
    probe_s: probeS,
    interval_h: intervalS / 3600,
    needed_probes_per_s: round(needed, 2),
    slots_per_instance: slots,
    probes_per_s_per_instance: round(perInstance, 1),
    slots_needed: Math.ceil(needed * probeS),
    instances_needed: Math.ceil(needed / perInstance),
    headroom_one_instance: round(perInstance / needed, 1),
  };
}

export async function benchProbeThroughput() {
  const everything = await startQuietEverything();
  const evPid = everything.pid;
  // BENCH_PEER_DELAY_MS: the peer answers through a delaying proxy, as a host across the internet
  // would (a probe waits on the network, as the pool's concurrency is sized for).
  const proxy = PEER_DELAY_MS > 0 ? await startDelayProxy(everything.port, PEER_DELAY_MS) : undefined;
  const port = proxy?.port ?? everything.port;
  const config = loadConfig({ LOG_LEVEL: 'silent', PROBE_ALLOW_PRIVATE: '1', DATA_DIR: os.tmpdir() });
  const rows: Record<string, unknown>[] = [];
  try {
    // Warm-up: the prober's, the service's and server-everything's code paths compiled before
    // anything is timed (not reported).
    await warmUp(WARM_PROBES, config, port);
    await serviceRun(Math.min(200, N), 'sqlite', 1, port, 'warm-service', evPid);
    // BENCH_CENSUS=0 skips the statement census.
    const census = [];
    if (process.env.BENCH_CENSUS !== '0') {
      for (const engine of ['sqlite', 'postgres'] as const) {
        census.push(await statementCensus(engine, port, `census-${engine}-db`, undefined));
        if (BUDGETS) census.push(await statementCensus(engine, port, `census-${engine}-redis`, process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'));
      }
    }
    // BENCH_CONFIGS=sqlite-1,postgres-2 runs only those.
    const configurations = (process.env.BENCH_CONFIGS ?? 'sqlite-1,sqlite-2,postgres-1,postgres-2').split(',').map((c) => {
      const [engine, instances] = c.trim().split('-');
      if ((engine !== 'sqlite' && engine !== 'postgres') || !['1', '2'].includes(instances ?? '')) throw new Error(`BENCH_CONFIGS: ${c} is not sqlite-1, sqlite-2, postgres-1 or postgres-2`);
      return [engine, Number(instances)] as [Engine, number];
    });
    for (const [engine, instances] of configurations) {
      const tag = `${engine}-${instances}`;
      // The baseline brackets the service run: this machine's speed drifts by a quarter or more
      // between minutes, and one measurement on one side of the run moved the ratio with it.
      const baseline = await directProbes(config, port, `${tag}-direct`, instances, evPid);
      const service = await serviceRun(N, engine, instances, port, `${tag}-service`, evPid);
      const baselineAfter = await directProbes(config, port, `${tag}-direct-after`, instances, evPid);
      const baselinePerS = round((baseline.probes_per_s + baselineAfter.probes_per_s) / 2, 1);
      rows.push({
        engine,
        instances,
        listings: N,
        seconds_to_all_live: service.seconds_to_all_live,
        probes_per_s: service.probes_per_s,
        baseline_probes_per_s: baselinePerS,
        ratio: service.probes_per_s === null ? null : round(service.probes_per_s / baselinePerS, 2),
        reprobe_all_probes_per_s: service.reprobe_all?.probes_per_s ?? null,
        reprobe_all_ratio: service.reprobe_all?.probes_per_s ? round(service.reprobe_all.probes_per_s / baselinePerS, 2) : null,
        // The driver's count of what the service sent its database, beside the ratios above.
        sent_per_listing: service.sent_per_listing,
        sent_per_reprobe: service.reprobe_all?.sent_per_probe ?? null,
        service,
        baseline,
        baseline_after: baselineAfter,
      });
    }
    const after = await directProbes(config, port, 'after-direct', 1, evPid);
    return {
      listings: N,
      peer_delay_ms: PEER_DELAY_MS,
      publishers_in_flight: PUBLISHERS,
      loopback_addresses: ADDRESSES,
      probe_concurrency: config.probeConcurrency,
      probe_per_host: config.probePerHost,
      host_budgets: !BUDGETS ? 'off' : REDIS_URL ? 'redis' : 'database',
      statement_census: census,
      configurations: rows,
      baseline_after_one_prober: after,
      capacity_100k: capacity(config.probeConcurrency),
    };
  } finally {
    await proxy?.close();
    await everything.close();
  }
}

/** bench/delay-proxy.mjs in front of the peer; its CPU shows as other_cores. */
async function startDelayProxy(targetPort: string, delayMs: number): Promise<{ port: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'delay-proxy.mjs'), targetPort, String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(/listening (\d+)/.exec(String(chunk))?.[1] ?? ''));
    child.once('exit', (code) => reject(new Error(`the delay proxy exited with ${code}`)));
  });
  return { port, close: () => stopChild(child) };
}

/** A warm-up run of `n` direct probes (not reported). */
async function warmUp(n: number, config: Config, port: string) {
  const prober = createProber(config);
  try {
    await warmProber(prober, n, config.probeConcurrency, port, 'warm');
  } finally {
    await prober.close();
  }
}

/** `n` probes through `prober`, `concurrency` at a time, so its code is compiled before anything is timed. */
async function warmProber(prober: Pick<Prober, 'probe'>, n: number, concurrency: number, port: string, batch: string) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await prober.probe(urlFor(port, batch, next++), { hint: 'mcp' });
    }),
  );
}
