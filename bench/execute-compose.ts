// execute_compose overhead per step: a composition of BENCH_STEPS steps, each an MCP
// tools/call to a 2026-07-28 loopback partner, run through Rollcall's MCP door (metering, the
// guarded client, recording), against the same call (the request a step sends, its answer checked)
// made directly to the partner (undici, no Rollcall) in the same process and run, interleaved.
// Reports p50 latencies and the ratio direct / per-step (1 = no overhead; the aim is >= 0.8), both
// for the step as the runner timed it and for the whole tools/call divided by its steps. Not part
// of the test suite.
import { request } from 'undici';
import { startApp } from '../test/helpers/app.ts';
import { setListingState } from '../test/helpers/state.ts';
import { startModernMcp } from '../test/peers/mcp-servers.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { insertListingIfNew } from '../src/listings/store.ts';
import { saveProbeState } from '../src/probe/store.ts';
import { insertComposition } from '../src/mesh/store.ts';
import { MODERN_VERSION } from '../src/probe/mcp-handshake.ts';
import { modernToolCall } from '../src/mesh/partner-call.ts';
import { percentile, round } from './stats.ts';
import { DAY_MS, type ManualClock } from '../src/platform/clock.ts';

const STEPS = Number(process.env.BENCH_STEPS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = 5;

export async function benchExecuteCompose() {
  const peer = await startModernMcp();
  const app = await startApp({ env: { PROBE_ALLOW_PRIVATE: '1', SEARCH_POLL_MS: '0', LOG_LEVEL: 'silent' } });
  const base = await app.listen();
  try {
    const now = app.clock.now().toISOString();
    // One listing per step (a plan never repeats a partner), all answering at the same peer.
    const listingIds: string[] = [];
    for (let i = 0; i < STEPS; i++) {
      const { row } = await inTransaction(app.services.db.kysely, (trx) => insertListingIfNew(trx, { url: `${peer.url}?step=${i + 1}`, kind: 'mcp', name: 'Weather', submittedName: null, contactEmail: null, source: 'bench', rankParts: {} }, now));
      await setListingState(app, row.id, { lane: 'active', kind: 'mcp', live_since: now, checks_clean: 1, probe_ok: 1, probe_score: 80, probed_at: now }, now);
      await saveProbeState(app.services.db.kysely, row.id, { target: peer.url, protocol: MODERN_VERSION });
      listingIds.push(row.id);
    }
    const call = { protocol: 'mcp' as const, endpoint: peer.url, method: 'tools/call' as const, params: { name: 'current_weather', arguments: { city: '<city>' } }, parameters: [{ name: 'city', required: true }] };
    await insertComposition(app.services.db.kysely, {
      composition_id: 'cmp_bench',
      owner: 'bench',
      listing_id: null,
      goal: null,
      capabilities: ['current weather'],
      steps: listingIds.map((id, i) => ({ step: i + 1, listing_id: id, kind: 'mcp' as const, name: 'Weather', endpoint: peer.url, covers: ['current weather'], calls: [call], trail_strength: 0, probe_score: 80 })),
      gaps: [],
      created_at: now,
    });

    // The direct call is the request a step sends (the full 2026-07-28 envelope), and its answer is
    // checked: a partner that refuses the envelope answers faster than one that runs its tool.
    const directCall = modernToolCall('current_weather', { city: 'Lisbon' });
    const directBody = JSON.stringify(directCall.message);
    const direct = async () => {
      const started = performance.now();
      const res = await request(peer.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...directCall.headers },
        body: directBody,
      });
      const text = await res.body.text();
      const ms = performance.now() - started;
      if (!text.includes('Sunny in Lisbon')) throw new Error(`the direct call did not run the tool: ${text.slice(0, 300)}`);
      return ms;
    };
    const viaRollcall = async (i: number) => {
      // A new UTC day per run: the free allowance (2 a day) never runs out mid-bench.
      (app.clock as ManualClock).advance(DAY_MS);
      const started = performance.now();
      const res = await request(`${base}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute_compose', arguments: { composition_id: 'cmp_bench', input: 'Lisbon', agent_name: 'bench' } } }),
      });
      const body = JSON.parse(await res.body.text());
      const total = performance.now() - started;
      const s = body.result.structuredContent;
      if (s.status !== 'completed') throw new Error(`run ${i}: ${JSON.stringify(s)}`);
      return { total, steps: s.steps.map((x: { ms: number }) => x.ms) as number[] };
    };

    const directMs: number[] = [];
    const stepMs: number[] = [];
    const perStepOfCall: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // Interleaved: the direct calls and the run see the same machine at the same moment.
      const d = [];
      for (let k = 0; k < STEPS; k++) d.push(await direct());
      const v = await viaRollcall(i);
      if (i < WARMUP) continue;
      directMs.push(...d);
      stepMs.push(...v.steps);
      perStepOfCall.push(v.total / STEPS);
    }
    const p50 = (xs: number[]) => percentile(xs, 50);
    return {
      steps_per_run: STEPS,
      runs: RUNS,
      direct_call_ms: { p50: round(p50(directMs)), p99: round(percentile(directMs, 99)) },
      step_ms_as_timed_by_runner: { p50: round(p50(stepMs)), p99: round(percentile(stepMs, 99)) },
      execute_compose_ms_per_step_whole_call: { p50: round(p50(perStepOfCall)), p99: round(percentile(perStepOfCall, 99)) },
      // Steps are timed in tenths of a millisecond: a p50 of 0 would mean no measurable step at all.
      ratio_direct_to_step: round(p50(directMs) / Math.max(0.1, p50(stepMs))),
      ratio_direct_to_whole_call_per_step: round(p50(directMs) / p50(perStepOfCall)),
    };
  } finally {
    await app.close();
    await peer.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ bench: 'execute-compose', node: process.version, at: new Date().toISOString(), results: await benchExecuteCompose() }, null, 2));
  process.exit(0);
}
