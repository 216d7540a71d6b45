// Starts a real Rollcall app for a test on the engine of this run (RC_TEST_ENGINE): SQLite in a
// temporary DATA_DIR, or PostgreSQL in a fresh schema of the run's database (scripts/test.mjs).
import { Writable } from 'node:stream';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { ManualClock, type Clock } from '../../src/platform/clock.ts';
import type { ProbeScheduler } from '../../src/probe/scheduler.ts';
import type { Prober } from '../../src/probe/prober.ts';
import { createChecker, createProber, createServiceChecker, createServiceProber } from '../../src/probe/factory.ts';
import { tableResolver, type Resolver } from '../../src/platform/net/guarded-client.ts';
import { allTables, type AllTables } from './tables.ts';
import type { Kysely } from 'kysely';
import { freshStore, type TestStore } from './store.ts';
import { checkNextSteps } from './next-steps.ts';
import { startDnsServer, type DnsPeer } from '../peers/dns-server.ts';

export { engine, freshStore, type TestStore } from './store.ts';

export interface TestApp extends App {
  config: Config;
  clock: Clock;
  store: TestStore;
  /** The database with every domain's tables, for tests that look underneath. */
  sql: Kysely<AllTables>;
  /** Listens on a loopback port and returns the base URL; later calls return the same one (the tests of a file share the app). */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** true: the app's own probe scheduler runs probes; default: publish only records the wake-up. */
  probing?: boolean;
  probes?: ProbeScheduler;
  prober?: Prober;
  /** Probes and catalog checks on the service's own threads, as `rollcall serve` runs them (default: on the event loop, simpler to reason about in a test). */
  probeThread?: boolean;
  logStream?: Writable;
  /** Join another test app's database as a second instance. */
  joinStore?: TestStore;
  /** More names the probe resolves (to loopback addresses): hosts of owner domains of their own. */
  hosts?: Record<string, string[]>;
}

/** Tests never resolve real host names: every name but localhost is unknown, so no DNS traffic leaves. */
export const OFFLINE_HOSTS = { localhost: ['127.0.0.1'] };
export const offlineResolver: Resolver = tableResolver(OFFLINE_HOSTS);

let sharedDns: Promise<DnsPeer> | undefined;
/**
 * The DNS server every test app asks for DNS proofs of control (CLAIM_DNS_SERVERS), one per test
 * process: helpers/owners.ts puts an owner's proof there, as its owner would.
 */
export const testDns = (): Promise<DnsPeer> => (sharedDns ??= startDnsServer({ unref: true }));

/** Puts a TXT record (a proof of control) at `name` in the tests' DNS server. */
export async function putTxt(name: string, value: string): Promise<void> {
  const dns = await testDns();
  dns.txt.set(name, [...(dns.txt.get(name) ?? []), value]);
}

/** A scheduler that only remembers what it was asked to probe. */
export function recordingScheduler(): ProbeScheduler & { woken: string[] } {
  const woken: string[] = [];
  return { woken, wake: (id) => void woken.push(id), close: async () => {} };
}

export async function startApp(options: TestAppOptions = {}): Promise<TestApp> {
  const joined = options.joinStore;
  const store = joined ? { ...joined, db: joined.connect(), drop: async () => {} } : await freshStore();
  const dns = await testDns();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_READ_PER_MIN: '0',
    RATE_LIMIT_WRITE_PER_MIN: '0',
    // Tests list many paths of one host; the per-host budgets are tested where they are switched on.
    PROBE_HOST_PER_HOUR: '0',
    PUBLISH_HOST_PER_DAY: '0',
    JOB_TICK_S: '0', // tests drive app.jobs.tick() themselves
    // The catalog's seed names real hosts this machine cannot reach: checks run where a test asks.
    CATALOG_CHECK_CONCURRENCY: '0',
    CLAIM_DNS_SERVERS: dns.server,
    ...store.env,
    DATABASE_URL: undefined,
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock('2026-11-01T12:00:00.000Z');
  const hosts = { ...OFFLINE_HOSTS, ...options.hosts };
  const resolver = options.hosts ? tableResolver(hosts) : offlineResolver;
  const app = await buildApp({
    config,
    db: store.db,
    clock,
    probes: options.probes ?? (options.probing ? undefined : recordingScheduler()),
    prober: options.prober ?? (options.probeThread ? createServiceProber(config, { hosts }) : createProber(config, { resolver })),
    checker: options.probeThread ? createServiceChecker(config, { hosts }) : createChecker(config, { resolver }),
    logStream: options.logStream,
  });
  const nextStepProblems = checkNextSteps(app.http);
  let closed = false;
  return {
    ...app,
    config,
    clock,
    store,
    sql: allTables(store.db),
    async listen() {
      if (!app.http.server.listening) await app.http.listen({ port: 0, host: '127.0.0.1' });
      const address = app.http.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      return `http://127.0.0.1:${address.port}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.http.close();
      await store.db.close();
      await store.drop();
      // Every next_step this app suggested must be a call that runs (helpers/next-steps.ts).
      if (nextStepProblems.length) throw new Error(`answers suggested next steps that cannot run:\n${[...new Set(nextStepProblems)].join('\n')}`);
    },
  };
}

/** POSTs JSON through inject and returns status and parsed body. */
export async function postJson(app: App, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

export async function getJson(app: App, url: string, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** A log stream for startApp({ logStream }) and what was written to it. */
export function logCapture(): { stream: Writable; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

const metricsUrls = new WeakMap<App, Promise<string>>();
/** GET /metrics from the app's own metrics listener (started on a free loopback port the first time). */
export async function getMetrics(app: App): Promise<{ status: number; contentType: string; body: string }> {
  let url = metricsUrls.get(app);
  if (!url) {
    url = app.metrics.listen('127.0.0.1', 0);
    metricsUrls.set(app, url);
  }
  const res = await fetch(await url);
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

let rpcId = 0;
/** A tools/call through the MCP door (JSON-RPC over inject) from a client address of its own (another caller); a successful call's structuredContent. */
export async function toolFrom(app: App, address: string, name: string, args: Record<string, unknown>): Promise<any> {
  const res = await app.http.inject({
    method: 'POST',
    url: '/api/mcp',
    remoteAddress: address,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } },
  });
  if (res.statusCode !== 200) throw new Error(`${name} from ${address}: HTTP ${res.statusCode} ${res.body}`);
  const result = res.json().result;
  if (result.isError === true) throw new Error(`${name} from ${address} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}
