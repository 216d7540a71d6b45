// sense_traces at scale: 100,000 trace deposits (BENCH_TRACES) over 5,000 subjects
// (1,000 Live listings, 3,000 capabilities, 1,000 listing pairs; channels and times spread over
// the last two weeks) seeded through the traces store, served by a real Rollcall process (SQLite).
// Each filter is asked over HTTP as an MCP tools/call: latency p50/p99 at concurrency 1 from a
// sequential loop (sub-millisecond timer), then req/s at concurrency 10 (autocannon, all mixed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { activeOrder } from '../src/listings/store.ts';
import { deposit } from '../src/traces/store.ts';
import { subjectKey, type TraceSubject } from '../src/traces/subjects.ts';
import { CHANNELS } from '../src/traces/channels.ts';
import { fieldCounts } from '../src/traces/queries.ts';
import { freePort } from '../test/peers/mcp-servers.ts';
import { startChild, stopChild } from './processes.ts';
import { percentile, round } from './stats.ts';
import { seedLiveListings } from './seed-listings.ts';

const TRACES = Number(process.env.BENCH_TRACES ?? 100_000);
const LISTINGS = 1000;
const CAPABILITIES = 3000;
const PAIRS = 1000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 400);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const WORDS = ['translate', 'summarize', 'search', 'render', 'invoice', 'email', 'calendar', 'weather', 'payments', 'ocr', 'pdf', 'sql', 'graph', 'vector', 'audio', 'video', 'image', 'code', 'review', 'deploy'];

/** A deterministic generator (mulberry32), so every run seeds the same field. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function seed(dataDir: string) {
  const db = openDb({ dataDir });
  await migrateToLatest(db, schemaHistory(db));
  await seedLiveListings(db, LISTINGS, (i, kind) => `A ${WORDS[i % WORDS.length]} ${kind} seeded for the traces benchmark.`);
  const ids = [...(await activeOrder(db.kysely, 'agent')), ...(await activeOrder(db.kysely, 'mcp'))];
  const capabilities = Array.from({ length: CAPABILITIES }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} ${i}`);
  const subjects: TraceSubject[] = [
    ...ids.map((id): TraceSubject => ({ kind: 'listing', listing_id: id })),
    ...capabilities.map((c): TraceSubject => ({ kind: 'capability', capability: c })),
    ...Array.from({ length: PAIRS }, (_, i): TraceSubject => ({ kind: 'pair', listing_id: ids[i]!, partner_listing_id: ids[(i * 7 + 1) % ids.length]! })),
  ];
  const random = rng(12);
  const now = Date.now();
  const started = performance.now();
  for (let done = 0; done < TRACES; ) {
    await inTransaction(db.kysely, async (trx) => {
      for (let i = 0; i < 1000 && done < TRACES; i++, done++) {
        const subject = subjects[Math.floor(random() * subjects.length)]!;
        await deposit(trx, {
          channel: CHANNELS[Math.floor(random() * CHANNELS.length)]!,
          subject: subjectKey(subject),
          intensity: 1 + Math.floor(random() * 50),
          body: random() < 0.3 ? 'Seeded note for the benchmark.' : null,
          depositor: `addr:bench${Math.floor(random() * 500)}`,
          at: new Date(now - Math.floor(random() * 14 * 24 * 3_600_000)),
        });
      }
    });
  }
  const seedS = (performance.now() - started) / 1000;
  const fieldRows = Object.values(await fieldCounts(db.kysely)).reduce((a, b) => a + b, 0);
  await db.close();
  return { seedS, ids, capabilities, subjects: subjects.length, fieldRows };
}

async function latency(url: string, body: string): Promise<{ p50_ms: number; p99_ms: number; count: number }> {
  const post = () => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
  const first = (await (await post()).json()) as { result?: { isError?: boolean; structuredContent: { count: number } } };
  if (!first.result || first.result.isError) throw new Error(`sense_traces failed: ${JSON.stringify(first)}`);
  for (let i = 0; i < 20; i++) await (await post()).arrayBuffer(); // warm up
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await (await post()).arrayBuffer();
    times.push(performance.now() - t);
  }
  return { p50_ms: round(percentile(times, 50), 2), p99_ms: round(percentile(times, 99), 2), count: first.result.structuredContent.count };
}

export async function benchSenseTraces() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-traces-'));
  const { seedS, ids, capabilities, subjects, fieldRows } = await seed(dataDir);
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', JOB_TICK_S: '0', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', METRICS_PORT: '0' };
  const server = await startChild(['--import', 'tsx', 'src/main.ts', 'serve'], env, `http://127.0.0.1:${port}/healthz`);
  const url = `http://127.0.0.1:${port}/api/mcp`;
  const call = (args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sense_traces', arguments: args } });
  const filters: Record<string, Record<string, unknown>> = {
    listing: { listing_id: ids[17] },
    pair: { listing_id: ids[3], partner_listing_id: ids[22] },
    capability: { capability: capabilities[123] },
    'text (q)': { q: 'invoice', limit: 10 },
    'text, no match': { q: 'underwater basket' },
    'whole field': { limit: 10 },
    'whole field, one channel': { kind: 'demand', limit: 50 },
  };
  try {
    const perFilter: Record<string, { p50_ms: number; p99_ms: number; count: number }> = {};
    for (const [name, args] of Object.entries(filters)) perFilter[name] = await latency(url, call(args));
    const mixed = await autocannon({
      url,
      connections: 10,
      duration: DURATION_S,
      requests: Object.values(filters).map((args) => ({ method: 'POST' as const, body: call(args), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } })),
    });
    return {
      traces: TRACES,
      subjects,
      field_rows: fieldRows,
      seed_s: round(seedS, 1),
      samples_per_filter: SAMPLES,
      worst_p99_ms_concurrency_1: Math.max(...Object.values(perFilter).map((v) => v.p99_ms)),
      per_filter: perFilter,
      rps_concurrency_10_mixed: round(mixed.requests.average, 0),
      errors: mixed.errors + mixed.non2xx,
    };
  } finally {
    await stopChild(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
