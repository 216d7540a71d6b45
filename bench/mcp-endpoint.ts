// The MCP endpoint in req/s: tools/call of a cheap read tool (check_status) in both
// protocol eras as a ratio to the same operation over REST, and to the official SDK's own stateless
// server answering the same call; tools/list with the whole catalog, both eras. Every figure is
// measured with autocannon with the same settings in the same run, alternating between targets.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../src/platform/db/dialect.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { insertListingIfNew } from '../src/listings/store.ts';
import { funnelRankPart, NO_FUNNEL } from '../src/funnel/store.ts';
import { round } from './stats.ts';
import { startChild, stopChild as stop } from './processes.ts';
import { freePort } from '../test/peers/mcp-servers.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 6);
const CONNECTIONS = 10;
const ROUNDS = 2;
const MODERN = '2026-07-28';


interface Target {
  url: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
}

async function cannon(t: Target) {
  const result = await autocannon({
    url: t.url,
    method: t.method ?? 'GET',
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { accept: 'application/json, text/event-stream', ...(t.body ? { 'content-type': 'application/json' } : {}), ...t.headers },
    ...(t.body ? { body: JSON.stringify(t.body) } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${t.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  // Bytes per answer (headers included): on loopback each byte written costs, so a door whose
  // answers are larger pays for it in req/s whatever its code does.
  return { rps: result.requests.average, bytes: result.throughput.total / result.requests.total };
}

const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' } };
const call = (id: string, modern: boolean) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'check_status', arguments: { id }, ...(modern ? { _meta: envelope } : {}) },
});
const modernHeaders = (method: string, name?: string) => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });

export async function benchMcpEndpoint() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-mcp-'));
  const db = openDb({ dataDir });
  await migrateToLatest(db, schemaHistory(db));
  const { row } = await insertListingIfNew(
    db.kysely,
    { url: 'https://bench.invalid/mcp', kind: 'mcp', name: 'Bench MCP', submittedName: null, contactEmail: null, source: 'bench', rankParts: funnelRankPart(NO_FUNNEL) },
    new Date().toISOString(),
  );
  await db.close();

  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', JOB_TICK_S: '0', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', METRICS_PORT: '0' };
  const port = await freePort();
  const server = await startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...env, PORT: String(port) }, `http://127.0.0.1:${port}/healthz`);
  const sdkPort = await freePort();
  const sdk = await startChild(['--import', 'tsx', 'bench/sdk-stateless-server.ts', String(sdkPort)], env, `http://127.0.0.1:${sdkPort}/healthz`);
  const mcp = `http://127.0.0.1:${port}/api/mcp`;
  const targets: Record<string, Target> = {
    rest_status: { url: `http://127.0.0.1:${port}/api/listings/status?id=${row.id}` },
    mcp_call_legacy: { url: mcp, method: 'POST', body: call(row.id, false) },
    mcp_call_modern: { url: mcp, method: 'POST', body: call(row.id, true), headers: modernHeaders('tools/call', 'check_status') },
    sdk_call: { url: `http://127.0.0.1:${sdkPort}/`, method: 'POST', body: call(row.id, false) },
    mcp_list_legacy: { url: mcp, method: 'POST', body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
    mcp_list_modern: { url: mcp, method: 'POST', body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope } }, headers: modernHeaders('tools/list') },
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  const bytes: Record<string, number> = {};
  try {
    for (const t of Object.values(targets)) await autocannon({ url: t.url, duration: 1, connections: 2, method: t.method ?? 'GET', ...(t.body ? { body: JSON.stringify(t.body), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...t.headers } } : {}) });
    for (let r = 0; r < ROUNDS; r++) for (const [name, t] of Object.entries(targets)) {
      const measured = await cannon(t);
      samples[name]!.push(measured.rps);
      bytes[name] = Math.round(measured.bytes);
    }
    const mean = (name: string) => samples[name]!.reduce((a, x) => a + x, 0) / samples[name]!.length;
    const rps = Object.fromEntries(Object.keys(targets).map((k) => [k, round(mean(k), 0)]));
    return {
      connections: CONNECTIONS,
      duration_s: DURATION_S,
      rounds: ROUNDS,
      rps,
      bytes_per_answer: bytes,
      ratio_call_legacy_to_rest: round(mean('mcp_call_legacy') / mean('rest_status'), 2),
      ratio_call_modern_to_rest: round(mean('mcp_call_modern') / mean('rest_status'), 2),
      ratio_call_legacy_to_sdk: round(mean('mcp_call_legacy') / mean('sdk_call'), 1),
      ratio_call_modern_to_sdk: round(mean('mcp_call_modern') / mean('sdk_call'), 1),
      // Each answer's cost beyond the operation itself (REST is the operation plus the thinnest door):
      // what the MCP door adds against what the SDK's per-request server adds, per request.
      door_overhead_ms: {
        mcp_legacy: round(1000 / mean('mcp_call_legacy') - 1000 / mean('rest_status'), 3),
        mcp_modern: round(1000 / mean('mcp_call_modern') - 1000 / mean('rest_status'), 3),
        sdk: round(1000 / mean('sdk_call') - 1000 / mean('rest_status'), 3),
      },
      samples,
    };
  } finally {
    await stop(sdk);
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
