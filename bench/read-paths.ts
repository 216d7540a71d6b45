// The three read paths every visitor uses: the active list, a listing's status and search, in req/s
// on each engine. With BENCH_BASELINE_DIR (a checkout of an earlier commit, with node_modules) the
// same data is served by that checkout and by this one in turn, BENCH_RUNS times each, the order
// alternating, and each path's median is reported as a ratio to the baseline's: a change to a write
// path shows here whether it made a read slower.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openDb, type Db } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { checkUpstreamItem } from '../src/catalog/entry.ts';
import { upsertCatalogEntries } from '../src/catalog/write.ts';
import { seedItems } from '../test/peers/upstream-registry.ts';
import { freePort } from '../test/peers/mcp-servers.ts';
import { startChild, stopChild } from './processes.ts';
import { median, round } from './stats.ts';
import { seedLiveListings } from './seed-listings.ts';
import { benchDatabase } from './pg-database.ts';
import { QUERIES } from './search-scale.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
const RUNS = Number(process.env.BENCH_RUNS ?? (BASELINE_DIR ? 5 : 1));
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const LISTINGS = 1000;
const CONNECTIONS = 10;
const STATUS_IDS = 100;

type Side = { name: 'baseline' | 'current'; dir: string };
type PathName = 'active_list' | 'status' | 'search';

async function seed(db: Db): Promise<string[]> {
  await migrateToLatest(db, schemaHistory(db));
  const entries = seedItems()
    .map((item) => checkUpstreamItem(item))
    .flatMap((c) => (c.ok ? [c.entry] : []));
  await inTransaction(db.kysely, (trx) => upsertCatalogEntries(trx, entries, new Date().toISOString()));
  const topics = ['translation', 'email', 'calendar', 'weather', 'payments'];
  await seedLiveListings(db, LISTINGS, (i, kind) => `A ${topics[i % 5]} ${kind} seeded for the benchmark.`);
  const rows = await sql<{ id: string }>`select id from listings order by id limit ${STATUS_IDS}`.execute(db.kysely);
  return rows.rows.map((r) => String(r.id));
}

/** One engine's seeded data: the environment a server needs to serve it, and how to drop it. */
async function seededStore(engine: 'sqlite' | 'postgres'): Promise<{ ids: string[]; env: Record<string, string>; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-read-'));
  if (engine === 'sqlite') {
    const db = openDb({ dataDir });
    const ids = await seed(db);
    await db.close();
    return { ids, env: { DATA_DIR: dataDir }, close: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const database = await benchDatabase(`rc_bench_read_${process.pid}`);
  const db = openDb({ dataDir, databaseUrl: database.url });
  const ids = await seed(db);
  await db.close();
  return {
    ids,
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    async close() {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Serves the store from `side`'s checkout and measures each path for DURATION_S after a warm-up. */
async function measure(side: Side, env: Record<string, string>, ids: string[]): Promise<Record<PathName, number>> {
  const port = await freePort();
  const server = await startChild(
    ['--import', 'tsx', 'src/main.ts', 'serve'],
    { ...env, PORT: String(port), LOG_LEVEL: 'warn', JOB_TICK_S: '0', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', METRICS_PORT: '0' },
    `http://127.0.0.1:${port}/healthz`,
    side.dir,
  );
  const requests: Record<PathName, Array<{ method: 'GET'; path: string }>> = {
    active_list: [{ method: 'GET', path: '/api/listings/active' }],
    status: ids.map((id) => ({ method: 'GET', path: `/api/listings/status?id=${id}` })),
    search: QUERIES.map((q) => ({ method: 'GET', path: `/api/ard/search?q=${encodeURIComponent(q)}&limit=10` })),
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    const out = {} as Record<PathName, number>;
    for (const [name, list] of Object.entries(requests) as Array<[PathName, typeof requests.status]>) {
      await autocannon({ url, connections: CONNECTIONS, duration: 1, requests: list });
      const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, requests: list });
      if (r.non2xx || r.errors) throw new Error(`${side.name} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      out[name] = r.requests.average;
    }
    return out;
  } finally {
    await stopChild(server);
  }
}

export async function benchReadPaths() {
  const sides: Side[] = [{ name: 'current', dir: process.cwd() }];
  if (BASELINE_DIR) sides.unshift({ name: 'baseline', dir: path.resolve(BASELINE_DIR) });
  const report: Record<string, unknown> = { listings: LISTINGS, connections: CONNECTIONS, duration_s: DURATION_S, runs: RUNS };
  for (const engine of ENGINES) {
    const store = await seededStore(engine);
    const rps: Record<Side['name'], Record<PathName, number[]>> = {
      baseline: { active_list: [], status: [], search: [] },
      current: { active_list: [], status: [], search: [] },
    };
    try {
      for (let run = 0; run < RUNS; run++) {
        // Alternating the order spreads a warming or cooling machine over both sides alike.
        for (const side of run % 2 ? [...sides].reverse() : sides) {
          const got = await measure(side, store.env, store.ids);
          for (const p of Object.keys(got) as PathName[]) rps[side.name][p].push(round(got[p], 0));
          process.stderr.write(`read-paths ${engine} run ${run + 1}/${RUNS} ${side.name}: ${JSON.stringify(got)}\n`);
        }
      }
    } finally {
      await store.close();
    }
    const paths = {} as Record<PathName, unknown>;
    for (const p of ['active_list', 'status', 'search'] as PathName[]) {
      const current = median(rps.current[p]);
      paths[p] = BASELINE_DIR
        ? { current_median_rps: current, baseline_median_rps: median(rps.baseline[p]), ratio: round(current / median(rps.baseline[p]), 3), current_runs: rps.current[p], baseline_runs: rps.baseline[p] }
        : { rps: current, runs: rps.current[p] };
    }
    report[engine] = paths;
  }
  return report;
}
