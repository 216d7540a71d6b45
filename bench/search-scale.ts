// Search at catalog scale: the seed catalog imported under distinct names up to
// BENCH_CATALOG entries (default 100,000) plus 1,000 Live listings, served by a real Rollcall
// process. Reports the index build time at start, RSS after it, search latency p50/p99 at
// concurrency 1, and req/s at concurrency 32 as a ratio to a bare node:http server returning the
// same bytes (both in the same run), and the change-feed lag: a change written by another process
// to findable on the server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { activeOrder, updateListing } from '../src/listings/store.ts';
import { checkUpstreamItem, type UpstreamEntry } from '../src/catalog/entry.ts';
import { upsertCatalogEntries } from '../src/catalog/write.ts';
import { seedItems } from '../test/peers/upstream-registry.ts';
import { freePort } from '../test/peers/mcp-servers.ts';
import { startChild, stopChild } from './processes.ts';
import { median, round } from './stats.ts';
import { seedLiveListings } from './seed-listings.ts';

const CATALOG = Number(process.env.BENCH_CATALOG ?? 100_000);
const LISTINGS = 1000;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
/** Eight queries, one or more of every kind the search quality bench judges. */
export const QUERIES = [
  'kubernetes',
  'query my database from an agent',
  'keep my notes in a wiki',
  'kubernetse',
  'github issues and slack messages',
  'translate short texts',
  'send email',
  'underwater basket weaving',
];

async function seed(dataDir: string) {
  const db = openDb({ dataDir });
  await migrateToLatest(db, schemaHistory(db));
  const now = new Date().toISOString();
  const base = seedItems()
    .map((item) => checkUpstreamItem(item))
    .flatMap((c) => (c.ok ? [c.entry] : []));
  const started = performance.now();
  for (let done = 0; done < CATALOG; ) {
    const batch: UpstreamEntry[] = [];
    for (let i = 0; i < 1000 && done < CATALOG; i++, done++) {
      const e = base[done % base.length]!;
      const copy = Math.floor(done / base.length);
      batch.push(copy === 0 ? e : { ...e, name: `${e.name}-${copy}`, server: { ...e.server, name: `${e.name}-${copy}` } });
    }
    await inTransaction(db.kysely, (trx) => upsertCatalogEntries(trx, batch, now));
  }
  const importS = (performance.now() - started) / 1000;
  const topics = ['translation', 'email', 'calendar', 'weather', 'payments'];
  await seedLiveListings(db, LISTINGS, (i, kind) => `A ${topics[i % 5]} ${kind} seeded for the benchmark.`);
  await db.close();
  return { importS };
}

/**
 * From a change written to the database (here by another process, as another instance would) to
 * the server finding it: a Live listing's description gets a word nobody else has, and the
 * search is asked for that word until it answers. Five samples.
 */
async function freshnessLag(dataDir: string, base: string): Promise<{ median: number; max: number }> {
  const db = openDb({ dataDir });
  const samples: number[] = [];
  try {
    const ids = await activeOrder(db.kysely, 'mcp');
    for (let i = 0; i < 5; i++) {
      const word = `zqfresh${i}x${Date.now().toString(36)}`;
      const t = performance.now();
      await updateListing(db.kysely, ids[i]!, { description: `Now also ${word}.` }, new Date().toISOString());
      for (;;) {
        const found = ((await (await fetch(`${base}/api/ard/search?q=${word}`)).json()) as { count: number }).count;
        if (found > 0) break;
        if (performance.now() - t > 30_000) throw new Error('the change was not found within 30 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      samples.push(Math.round(performance.now() - t));
    }
  } finally {
    await db.close();
  }
  return { median: median(samples), max: Math.max(...samples) };
}

export async function benchSearchScale() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-search-'));
  const { importS } = await seed(dataDir);
  const port = await freePort();
  const metricsPort = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', JOB_TICK_S: '0', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', METRICS_PORT: String(metricsPort) };
  const startedAt = performance.now();
  const server = await startChild(['--import', 'tsx', 'src/main.ts', 'serve'], env, `http://127.0.0.1:${port}/healthz`);
  const startS = (performance.now() - startedAt) / 1000;
  const base = `http://127.0.0.1:${port}`;
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const rssMb = Number(/^rollcall_process_resident_memory_bytes (\d+)/m.exec(metrics)?.[1] ?? 0) / 2 ** 20;
  const buildS = Number(/^rollcall_search_index_build_seconds ([\d.e-]+)/m.exec(metrics)?.[1] ?? 0);
  const documents = Number(/^rollcall_search_index_documents (\d+)/m.exec(metrics)?.[1] ?? 0);
  const url = (q: string) => `${base}/api/ard/search?q=${encodeURIComponent(q)}&limit=10`;
  const sample = Buffer.from(await (await fetch(url(QUERIES[1]!))).arrayBuffer());
  const bodyFile = path.join(dataDir, 'answer.json');
  fs.writeFileSync(bodyFile, sample);
  const barePort = await freePort();
  const bare = await startChild(['bench/bare-server.mjs', bodyFile, String(barePort)], {}, `http://127.0.0.1:${barePort}/`);
  try {
    const perQuery: Record<string, { p50_ms: number; p99_ms: number; hits: number }> = {};
    for (const q of QUERIES) {
      const hits = ((await (await fetch(url(q))).json()) as { count: number }).count;
      const r = await autocannon({ url: url(q), connections: 1, duration: Math.max(2, DURATION_S / 4) });
      perQuery[q] = { p50_ms: r.latency.p50, p99_ms: r.latency.p99, hits };
    }
    const requests = QUERIES.map((q) => ({ method: 'GET' as const, path: new URL(url(q)).pathname + new URL(url(q)).search }));
    const ours = await autocannon({ url: base, connections: 32, duration: DURATION_S, requests });
    const baseline = await autocannon({ url: `http://127.0.0.1:${barePort}/`, connections: 32, duration: DURATION_S });
    const p99s = Object.values(perQuery).map((v) => v.p99_ms);
    const lagMs = await freshnessLag(dataDir, base);
    return {
      catalog_entries: CATALOG,
      live_listings: LISTINGS,
      import_s: round(importS, 1),
      start_to_ready_s: round(startS, 1),
      index_documents: documents,
      index_build_s: round(buildS, 2),
      rss_mb_after_start: round(rssMb, 0),
      worst_p99_ms_concurrency_1: Math.max(...p99s),
      per_query: perQuery,
      rps_concurrency_32: round(ours.requests.average, 0),
      bare_rps_same_bytes: round(baseline.requests.average, 0),
      ratio: round(ours.requests.average / baseline.requests.average, 2),
      freshness_lag_ms: lagMs,
      search_poll_ms: 1000,
    };
  } finally {
    await stopChild(bare);
    await stopChild(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
