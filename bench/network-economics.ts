// network_value and hyper_index at scale: 10,000 Live listings (BENCH_LISTINGS) with
// capability sets, 1,000 stored compositions and 100,000 traces (BENCH_TRACES: outcome records,
// what network_value's Q sums) seeded through the owners' stores on SQLite, then each tool run
// in-process through runOperation as the MCP door runs it: p50/p99 over BENCH_SAMPLES calls.
// Not part of the suite: `node --import tsx bench/network-economics.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { Metrics } from '../src/platform/metrics.ts';
import { UsageCounters } from '../src/platform/usage/counters.ts';
import { runOperation, type Ctx } from '../src/platform/operation.ts';
import { activeOrder, updateListing } from '../src/listings/store.ts';
import { insertComposition } from '../src/mesh/store.ts';
import { recordOutcome } from '../src/traces/outcomes.ts';
import { networkValue } from '../src/economics/operations.ts';
import { hyperIndex } from '../src/economics/hyper.ts';
import { percentile, round } from './stats.ts';
import { seedLiveListings } from './seed-listings.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 10_000);
const TRACES = Number(process.env.BENCH_TRACES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);
const WORDS = ['translate', 'summarize', 'search', 'render', 'invoice', 'email', 'calendar', 'weather', 'payments', 'ocr', 'pdf', 'sql', 'graph', 'vector', 'audio', 'video', 'image', 'code', 'review', 'deploy'];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-econ-bench-'));
const db = openDb({ dataDir });
await migrateToLatest(db, schemaHistory(db));
let t = performance.now();
await seedLiveListings(db, LISTINGS, (i, kind) => `A ${WORDS[i % WORDS.length]} ${kind} seeded for the economics benchmark.`);
const ids = [...(await activeOrder(db.kysely, 'agent')), ...(await activeOrder(db.kysely, 'mcp'))];
const now = new Date().toISOString();
await inTransaction(db.kysely, async (trx) => {
  for (let i = 0; i < ids.length; i++) {
    const names = [WORDS[i % 20]!, WORDS[(i * 7) % 20]!, WORDS[(i * 13 + 3) % 20]!, `tool ${i % 500}`];
    await updateListing(trx, ids[i]!, { capabilities: JSON.stringify({ names, items: [] }) }, now);
  }
  for (let c = 0; c < 1000; c++) {
    const steps = [1, 2, 3].map((k) => ({ step: k, listing_id: ids[(c * 31 + k * 97) % ids.length]!, kind: 'mcp' as const, name: 'x', endpoint: 'https://x.example.org', covers: [], calls: [], trail_strength: 0, probe_score: 50 }));
    await insertComposition(trx, { composition_id: `cmp_b${c}`, owner: 'bench', listing_id: ids[c % ids.length]!, goal: null, capabilities: [], steps, gaps: [], created_at: now });
  }
});
for (let done = 0; done < TRACES; ) {
  await inTransaction(db.kysely, async (trx) => {
    for (let i = 0; i < 2000 && done < TRACES; i++, done++) {
      await recordOutcome(trx, { listing_id: ids[done % ids.length]!, ok: true, quality: (done % 10) / 10, body: null, from: 'mesh_compose', depositor: `name:bench${done % 300}`, at: now });
    }
  });
}
console.log(`seeded ${ids.length} Live listings, 1000 compositions, ${TRACES} outcome traces in ${round((performance.now() - t) / 1000, 1)} s`);

const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const { default: pino } = await import('pino');
const ctx = { config, db, clock: systemClock, log: pino({ level: 'silent' }), metrics: new Metrics(false), usage: new UsageCounters(db.kysely, systemClock), caller: { address: 'bench' }, requestId: 'bench' } as unknown as Ctx;
for (const [name, op, input] of [
  ['network_value', networkValue, { days: 30 }],
  ['hyper_index', hyperIndex, { limit: 20 }],
  ['hyper_index capability', hyperIndex, { capability: 'search', limit: 20 }],
] as const) {
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES + 3; i++) {
    t = performance.now();
    await runOperation(op as never, ctx as never, input, 'mcp');
    if (i >= 3) ms.push(performance.now() - t);
  }
  console.log(`${name}: p50 ${round(percentile(ms, 50), 1)} ms, p99 ${round(percentile(ms, 99), 1)} ms (${SAMPLES} calls)`);
}
await db.close();
fs.rmSync(dataDir, { recursive: true, force: true });
