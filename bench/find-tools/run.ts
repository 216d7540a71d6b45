// find_tools quality: every intent of intents.json (what an agent wants to do, in its own words,
// with the tools that serve it) is asked of the real find_tools, through the official MCP SDK
// client against a started Rollcall (`rollcall serve` in a child process, a fresh SQLite), and of
// the baseline (baseline.ts: the ranking before scores and intent weighing) in the same run.
// Runs alone (`node --import tsx bench/find-tools/run.ts [--verbose]`; --verbose prints the tune
// half's answers, `--split h` the held-out half's) or from bench/run.ts as 'find-tools'.
//
// Metrics for the tune half, the held-out half and both:
//   top1  share of intents whose first tool is one of the tools that serve it;
//   top3  share of intents with one of those tools in the first three.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { operations } from '../../src/catalog.ts';
import { freePort } from '../../test/peers/mcp-servers.ts';
import { startChild, stopChild } from '../processes.ts';
import { findToolsBaseline } from './baseline.ts';
import INTENTS from './intents.json' with { type: 'json' };

interface Intent {
  split: 't' | 'h';
  need: string;
  tools: string[];
}
interface Answered {
  intent: Intent;
  ranked: { tool: string; score?: number }[];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function summarize(rows: Answered[]) {
  const hit = (r: Answered, n: number) => (r.ranked.slice(0, n).some((t) => r.intent.tools.includes(t.tool)) ? 1 : 0);
  return { intents: rows.length, top1: r3(mean(rows.map((r) => hit(r, 1)))), top3: r3(mean(rows.map((r) => hit(r, 3)))) };
}

function bySplit(rows: Answered[]) {
  return { tune: summarize(rows.filter((r) => r.intent.split === 't')), heldOut: summarize(rows.filter((r) => r.intent.split === 'h')), all: summarize(rows) };
}

export async function benchFindTools(argv: string[] = []): Promise<unknown> {
  const intents = INTENTS.intents as Intent[];
  const known = new Set(operations.filter((o) => o.tool !== false).flatMap((o) => [o.name, ...(o.aliases ?? [])]));
  for (const i of intents) for (const t of i.tools) if (!known.has(t)) throw new Error(`intent "${i.need}": ${t} is not a tool`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-find-tools-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { DATA_DIR: dataDir, PUBLIC_BASE_URL: base, LOG_LEVEL: 'warn', JOB_TICK_S: '0', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', METRICS_PORT: '0' };
  const server = await startChild(['--import', 'tsx', 'src/main.ts', 'serve'], { ...env, PORT: String(port) }, `${base}/healthz`);
  const client = new Client({ name: 'find-tools-bench', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
    const found: Answered[] = [];
    for (const intent of intents) {
      const result = await client.callTool({ name: 'find_tools', arguments: { need: intent.need, limit: 5 } });
      const answer = result.structuredContent as { tools: { tool: string; score?: number }[] };
      found.push({ intent, ranked: answer.tools.map((t) => ({ tool: t.tool, score: t.score })) });
    }
    const baseline = findToolsBaseline(operations);
    const before: Answered[] = intents.map((intent) => ({ intent, ranked: baseline(intent.need).map((tool) => ({ tool })) }));

    if (argv.includes('--verbose')) {
      const only = argv.includes('--split') ? argv[argv.indexOf('--split') + 1] : 't';
      for (const [i, r] of found.entries()) {
        if (r.intent.split !== only) continue;
        const mark = (tool: string) => (tool === r.intent.tools[0] ? '**' : r.intent.tools.includes(tool) ? '+ ' : '  ');
        console.error(`\n"${r.intent.need}"  wants ${r.intent.tools.join(' | ')}`);
        console.error(`  find_tools: ${r.ranked.map((t) => `${mark(t.tool)}${t.tool} ${t.score ?? ''}`).join(', ')}`);
        console.error(`  baseline:   ${before[i]!.ranked.map((t) => `${mark(t.tool)}${t.tool}`).join(', ')}`);
      }
    }
    return { intents: intents.length, findTools: bySplit(found), baseline: bySplit(before) };
  } finally {
    await client.close();
    await stopChild(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ bench: 'find-tools', node: process.version, cpus: 2, at: new Date().toISOString(), results: await benchFindTools(process.argv.slice(2)) }, null, 2));
  process.exit(0);
}
