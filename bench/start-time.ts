// Start time: from the start command to the first 200 of /readyz, for the build (`node
// --enable-source-maps dist/main.mjs serve`, what `npm start` execs) and for the sources through
// tsx (what the command line and the tests run), on an empty SQLite database and, on each engine,
// on one holding 1,000 Live listings and the catalog synced from the seed file. The baseline, in
// the same run, is a bare node:http server from spawn to its first answer: the part of a start no
// server code can remove. The build is made once before (its time is not a start's). Runs
// alternate commands, so machine noise hits them alike; the median of RUNS is reported.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { openDb, type Db } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { createCatalogClient } from '../src/catalog/client.ts';
import { syncCatalog } from '../src/catalog/sync.ts';
import { countCatalog } from '../src/catalog/store.ts';
import { seedLiveListings } from './seed-listings.ts';
import { freePort } from '../test/peers/mcp-servers.ts';
import { startUpstreamRegistry } from '../test/peers/upstream-registry.ts';
import { median, round } from './stats.ts';
import { benchDatabase } from './pg-database.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const LISTINGS = 1000;
const ENV = { LOG_LEVEL: 'warn', JOB_TICK_S: '0', SEARCH_POLL_MS: '0', METRICS_PORT: '0' };

const COMMANDS: Record<string, string[]> = {
  build: ['--enable-source-maps', 'dist/main.mjs', 'serve'],
  tsx: ['--import', 'tsx', 'src/main.ts', 'serve'],
};

/** Milliseconds from spawn to the first 200 of `path` (then the process is stopped). */
async function timeToReady(argsFor: (port: number) => string[], env: Record<string, string>, path: string): Promise<number> {
  const port = await freePort();
  const args = argsFor(port);
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}${path}`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (performance.now() - started > 60_000) throw new Error(`${args.join(' ')} not ready in 60 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

/** 1,000 Live listings and the seed catalog (464 servers stored) in a migrated database. */
async function seed(db: Db): Promise<{ servers: number; versions: number }> {
  await migrateToLatest(db, schemaHistory(db));
  await seedLiveListings(db, LISTINGS, (i) => `Listing number ${i}, seeded for the start-time benchmark.`);
  const upstream = await startUpstreamRegistry();
  const client = createCatalogClient(loadConfig({ PROBE_ALLOW_PRIVATE: '1' }));
  try {
    await syncCatalog({ db: db.kysely, clock: systemClock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300 });
  } finally {
    await client.destroy();
    await upstream.close();
  }
  return countCatalog(db.kysely);
}

async function measure(cases: Record<string, Record<string, string>>) {
  const samples: Record<string, number[]> = { bare: [] };
  const bareServer = path.join(os.tmpdir(), `rollcall-bench-bare-${process.pid}.json`);
  fs.writeFileSync(bareServer, '{"ok":true}');
  for (let run = 0; run < RUNS; run++) {
    samples.bare!.push(await timeToReady((port) => ['bench/bare-server.mjs', bareServer, String(port)], {}, '/'));
    for (const [name, env] of Object.entries(cases)) {
      for (const [command, args] of Object.entries(COMMANDS)) {
        const key = `${name}/${command}`;
        samples[key] ??= [];
        samples[key].push(await timeToReady(() => args, { ...ENV, ...env }, '/readyz'));
      }
    }
  }
  fs.rmSync(bareServer, { force: true });
  const bare = median(samples.bare!);
  return Object.fromEntries(Object.entries(samples).map(([key, xs]) => [key, { median_ms: round(median(xs)), max_ms: round(Math.max(...xs)), ratio_to_bare: round(median(xs) / bare) }]));
}

export async function benchStartTime() {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-start-empty-'));
  const full = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-start-full-'));
  const sqlite = openDb({ dataDir: full });
  const catalog = await seed(sqlite);
  await sqlite.close();
  const database = await benchDatabase(`rc_bench_start_${process.pid}`);
  const postgres = openDb({ databaseUrl: database.url, dataDir: os.tmpdir() });
  await seed(postgres);
  await postgres.close();
  try {
    const results = await measure({
      'sqlite-empty': { DATA_DIR: empty },
      'sqlite-1000': { DATA_DIR: full },
      'postgres-1000': { DATABASE_URL: database.url, DATA_DIR: full },
    });
    return { runs: RUNS, listings: LISTINGS, catalog_servers: catalog, ...results };
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
    fs.rmSync(full, { recursive: true, force: true });
    await database.drop();
  }
}
