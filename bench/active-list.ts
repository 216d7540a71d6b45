// GET /api/listings/active with 1,000 Active listings, in req/s, as a ratio to a bare node:http
// server returning the same bytes from memory, both measured with autocannon with the same
// settings in the same run (alternating, so machine noise hits both alike).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { round } from './stats.ts';
import { seedLiveListings } from './seed-listings.ts';
import { startChild, stopChild as stop } from './processes.ts';
import { freePort } from '../test/peers/mcp-servers.ts';

const LISTINGS = 1000;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = 10;
const ROUNDS = 2;


async function cannon(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return { rps: result.requests.average, p99_ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

export async function benchActiveList() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-active-'));
  const db = openDb({ dataDir });
  await migrateToLatest(db, schemaHistory(db));
  await seedLiveListings(db, LISTINGS, (i) => `Listing number ${i}, seeded for the benchmark.`);
  await db.close();

  const port = await freePort();
  // Request logs off (LOG_LEVEL=warn) on both sides: the baseline logs nothing either.
  const server = await startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', JOB_TICK_S: '0', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', METRICS_PORT: '0' }, `http://127.0.0.1:${port}/healthz`);
  const url = `http://127.0.0.1:${port}/api/listings/active`;
  const first = await fetch(url);
  const bytes = Buffer.from(await first.arrayBuffer());
  const etag = first.headers.get('etag') ?? '';
  const bodyFile = path.join(dataDir, 'active.json');
  fs.writeFileSync(bodyFile, bytes);
  const barePort = await freePort();
  const bare = await startChild(['bench/bare-server.mjs', bodyFile, String(barePort)], {}, `http://127.0.0.1:${barePort}/`);

  const ours: number[] = [];
  const baseline: number[] = [];
  const details: unknown[] = [];
  try {
    await cannon(url); // warm-up
    await cannon(`http://127.0.0.1:${barePort}/`);
    for (let r = 0; r < ROUNDS; r++) {
      const b = await cannon(`http://127.0.0.1:${barePort}/`);
      const o = await cannon(url);
      baseline.push(b.rps);
      ours.push(o.rps);
      details.push({ round: r, bare: b, rollcall: o });
    }
    const revalidate = await cannon(url, { 'if-none-match': etag });
    const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
    return {
      listings: LISTINGS,
      body_bytes: bytes.length,
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      rollcall_rps: round(mean(ours), 0),
      bare_node_http_rps: round(mean(baseline), 0),
      ratio: round(mean(ours) / mean(baseline), 2),
      revalidate_304_rps: round(revalidate.rps, 0),
      rounds: details,
    };
  } finally {
    await stop(bare);
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
