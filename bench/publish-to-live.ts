// Publish to Live: seconds from POST /api/publish to lane `active` for a local MCP server
// (server-everything) and a local A2A agent, through real HTTP on loopback. The baseline, measured
// in the same run, is the bare protocol exchange alone (the prober's probe() without the service),
// so the ratio shows what listing adds on top of the handshake itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createProber } from '../src/probe/factory.ts';
import { startEverything } from '../test/peers/mcp-servers.ts';
import { startA2aAgent } from '../test/peers/a2a-agent.ts';
import { median, percentile, round } from './stats.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

export async function benchPublishToLive() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PROBE_ALLOW_PRIVATE: '1', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', PORT: '0' });
  const { http } = await buildApp({ config });
  await http.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(http.server.address() as { port: number }).port}`;
  const [everything, agent] = await Promise.all([startEverything(), startA2aAgent()]);
  const prober = createProber(config);
  const results: Record<string, { publishToLiveS: number[]; handshakeS: number[] }> = {};
  try {
    for (const [label, target] of [['mcp (server-everything)', everything.url], ['agent (@a2a-js/sdk)', agent.cardUrl]] as const) {
      const publishToLive: number[] = [];
      const handshake: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        // A distinct query makes a distinct listing; both peers ignore it.
        const url = `${target}?run=${i}`;
        let t = performance.now();
        await prober.probe(url, { hint: label.startsWith('agent') ? 'agent' : 'mcp' });
        handshake.push((performance.now() - t) / 1000);

        t = performance.now();
        const res = await fetch(`${base}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
        const { id } = (await res.json()) as { id: string };
        for (;;) {
          const s = (await (await fetch(`${base}/api/listings/status?id=${id}`)).json()) as { lane: string; lane_reason: string };
          if (s.lane === 'active') break;
          if (s.lane === 'failed') throw new Error(`${label} failed: ${s.lane_reason}`);
          await new Promise((r) => setTimeout(r, 5));
        }
        publishToLive.push((performance.now() - t) / 1000);
      }
      results[label] = { publishToLiveS: publishToLive, handshakeS: handshake };
    }
  } finally {
    await prober.close();
    await http.close();
    await Promise.all([everything.close(), agent.close()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return Object.entries(results).map(([label, r]) => ({
    label,
    runs: RUNS,
    median_publish_to_live_s: round(median(r.publishToLiveS)),
    p90_publish_to_live_s: round(percentile(r.publishToLiveS, 90)),
    median_bare_probe_s: round(median(r.handshakeS)),
    ratio_to_bare_probe: round(median(r.publishToLiveS) / median(r.handshakeS), 2),
    ratio_to_reference_6min: round(median(r.publishToLiveS) / 360, 5),
  }));
}
