// improve_kernel over MCP in req/s, against a real server process. Allowances are real:
// 3 free runs a day per caller, and at most 5 free-form agent names per address, so the success
// path spreads its calls over seeded listings (each listing is its own caller, with its card feeding
// the role) and uses each at most 3 times; every answer is checked, and the stored kernel versions
// must equal the successful calls. The refusal path (a caller past its allowance: quota_exhausted)
// is measured apart, and the baseline is tools/call of a cheap read (check_status) through the
// same door, in the same run, alternating with the others.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { insertListingIfNew, updateListing } from '../src/listings/store.ts';
import { funnelRankPart, NO_FUNNEL } from '../src/funnel/store.ts';
import { allTables } from '../test/helpers/tables.ts';
import { round } from './stats.ts';
import { startChild, stopChild } from './processes.ts';
import { freePort } from '../test/peers/mcp-servers.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 6);
const CONNECTIONS = 10;
const ROUNDS = 2;
/** Listings seeded as callers: 3 runs each, far more than the success rounds can use here. */
const CALLERS = Number(process.env.BENCH_KERNEL_CALLERS ?? 8000);
/** Runs that spend the refusal path's caller before the measured runs. */
const PRESPENT = 3;

const GOALS = [
  ['Summarize weekly invoices for the finance team', 'Flag duplicate payments before they are sent'],
  ['Triage support tickets by urgency', 'Route outages to the on-call engineer within a minute', 'Draft a polite first reply'],
  ['Write release notes from merged pull requests'],
];

const rpc = (name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Outcome {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  ok: number;
  refused: number;
}

/** One autocannon run of tools/call; `body(i)` makes the i-th request body; answers are classified. */
async function cannon(url: string, body: () => string): Promise<Outcome> {
  let ok = 0;
  let refused = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: HEADERS,
    requests: [
      {
        setupRequest: (req) => ({ ...req, method: 'POST', body: body() }),
        onResponse: (_status: number, text: string) => {
          const r = JSON.parse(text).result;
          if (r?.isError) refused++;
          else ok++;
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50_ms: result.latency.p50, p99_ms: result.latency.p99, ok, refused };
}

export async function benchImproveKernel() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-kernel-'));
  const db = openDb({ dataDir });
  await migrateToLatest(db, schemaHistory(db));
  const now = new Date().toISOString();
  const ids: string[] = [];
  await inTransaction(db.kysely, async (trx) => {
    for (let i = 0; i < CALLERS; i++) {
      const { row } = await insertListingIfNew(trx, { url: `https://kernel-${i}.invalid/mcp`, kind: 'mcp', name: `Kernel bench ${i}`, submittedName: null, contactEmail: null, source: 'bench', rankParts: funnelRankPart(NO_FUNNEL) }, now);
      await updateListing(trx, row.id, { description: `Bench MCP server ${i}: invoices, payments and ledgers.`, capabilities: JSON.stringify({ names: ['list_invoices', 'match_payments', `tool_${i % 50}`] }) }, now);
      ids.push(row.id);
    }
  });
  await db.close();

  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', JOB_TICK_S: '0', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', METRICS_PORT: '0' };
  const port = await freePort();
  const server = await startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...env, PORT: String(port) }, `http://127.0.0.1:${port}/healthz`);
  const url = `http://127.0.0.1:${port}/api/mcp`;

  // Success path: listing i gets calls 3i, 3i+1, 3i+2 (its whole free allowance), never a 4th.
  let next = 0;
  const improve = () => {
    const n = next++;
    const id = ids[Math.floor(n / 3) % ids.length]!;
    return rpc('improve_kernel', { agent_name: `kernel-bench-${Math.floor(n / 3)}`, listing_id: id, goals: GOALS[n % GOALS.length] });
  };
  // Refusal path: the last listing, spent before the runs.
  const spent = ids[ids.length - 1]!;
  const refusal = () => rpc('improve_kernel', { agent_name: 'spent', listing_id: spent, goals: GOALS[0] });
  const status = () => rpc('check_status', { id: ids[0] });
  const targets: Record<string, () => string> = { check_status: status, improve_kernel: improve, improve_kernel_refused: refusal };
  const samples: Record<string, Outcome[]> = { check_status: [], improve_kernel: [], improve_kernel_refused: [] };
  try {
    for (let i = 0; i < PRESPENT; i++) await fetch(url, { method: 'POST', headers: HEADERS, body: refusal() });
    await autocannon({ url, method: 'POST', duration: 1, connections: 2, headers: HEADERS, body: status() });
    for (let r = 0; r < ROUNDS; r++) for (const [name, body] of Object.entries(targets)) samples[name]!.push(await cannon(url, body));
  } finally {
    await stopChild(server);
  }
  if (next / 3 >= ids.length - 1) throw new Error(`the success rounds needed more than ${CALLERS} callers: raise BENCH_KERNEL_CALLERS`);
  const check = openDb({ dataDir });
  const versions = Number((await allTables(check).selectFrom('kernel_versions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  await check.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const mean = (name: string, f: (o: Outcome) => number) => samples[name]!.reduce((a, o) => a + f(o), 0) / samples[name]!.length;
  const sum = (name: string, f: (o: Outcome) => number) => samples[name]!.reduce((a, o) => a + f(o), 0);
  const okCalls = sum('improve_kernel', (o) => o.ok);
  if (sum('improve_kernel', (o) => o.refused) > 0) throw new Error('the success path was refused: it measured refusals');
  if (sum('improve_kernel_refused', (o) => o.ok) > 0) throw new Error('the refusal path succeeded');
  // Every counted success is a stored version; the 3 runs that spent the refusal caller and the
  // answers still in flight when a run stopped (at most one per connection) are stored uncounted.
  const uncounted = versions - PRESPENT - okCalls;
  if (uncounted < 0 || uncounted > CONNECTIONS * ROUNDS) throw new Error(`${versions} versions stored for ${okCalls} counted successes`);
  return {
    connections: CONNECTIONS,
    duration_s: DURATION_S,
    rounds: ROUNDS,
    rps: Object.fromEntries(Object.keys(samples).map((k) => [k, round(mean(k, (o) => o.rps), 0)])),
    latency_ms: Object.fromEntries(Object.keys(samples).map((k) => [k, { p50: round(mean(k, (o) => o.p50_ms), 1), p99: round(mean(k, (o) => o.p99_ms), 1) }])),
    ratio_improve_to_check_status: round(mean('improve_kernel', (o) => o.rps) / mean('check_status', (o) => o.rps), 2),
    ratio_refused_to_check_status: round(mean('improve_kernel_refused', (o) => o.rps) / mean('check_status', (o) => o.rps), 2),
    improve_kernel_ok_calls: okCalls,
    kernel_versions_stored: versions,
    stored_not_counted: uncounted,
    callers_used: Math.ceil(next / 3),
    samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map((o) => round(o.rps, 0))])),
  };
}
