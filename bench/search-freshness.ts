// Live to findable: how long after a listing turns Live it is in search results, on the instance
// a listing was published to and on another instance of the same database. Two Rollcall
// instances share one SQLite file (either may run the probe); @a2a-js/sdk agents, each on a
// loopback address of its own (127.0.0.10, .11, ...), are published one after another. As soon as
// the instance a listing was published to answers lane `active`, `ard_search` is asked there once
// (it must already find the listing: a search catches up with the change feed before it runs),
// then asked on the other instance until it finds it.
// The baseline, measured in the same run, is one `ard_search` round trip on the second instance
// for a listing it already has, so the ratio says how many plain searches the wait costs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { startA2aAgent } from '../test/peers/a2a-agent.ts';
import { median, percentile, round } from './stats.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const QUERY = 'translate short texts into french';

interface Hit {
  listing_id?: string;
}

async function searchFinds(base: string, id: string): Promise<boolean> {
  const res = await fetch(`${base}/api/ard/search?q=${encodeURIComponent(QUERY)}&limit=100`);
  const body = (await res.json()) as { hits: Hit[] };
  return body.hits.some((h) => h.listing_id === id);
}

async function waitLive(base: string, id: string): Promise<void> {
  for (;;) {
    const s = (await (await fetch(`${base}/api/listings/status?id=${id}`)).json()) as { lane: string; lane_reason: string };
    if (s.lane === 'active') return;
    if (s.lane === 'failed') throw new Error(`listing failed: ${s.lane_reason}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

export async function benchSearchFreshness() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollcall-bench-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PROBE_ALLOW_PRIVATE: '1', RATE_LIMIT_READ_PER_MIN: '0', RATE_LIMIT_WRITE_PER_MIN: '0', PROBE_HOST_PER_HOUR: '0', PUBLISH_HOST_PER_DAY: '0', PROBE_RATE_PER_MIN: '0', REPUBLISH_MIN_INTERVAL_S: '0', PORT: '0' };
  const config = loadConfig(env);
  const one = await buildApp({ config });
  const two = await buildApp({ config });
  const bases: string[] = [];
  for (const app of [one, two]) {
    await app.http.listen({ port: 0, host: '127.0.0.1' });
    bases.push(`http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`);
  }
  const [publishedTo, other] = bases as [string, string];
  const agents = await Promise.all(Array.from({ length: RUNS }, (_, i) => startA2aAgent({ host: `127.0.0.${10 + i}` })));
  const foundAtOnce: boolean[] = [];
  const otherMs: number[] = [];
  const otherSearches: number[] = [];
  const baselineMs: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const res = await fetch(`${publishedTo}/api/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: agents[i]!.cardUrl }) });
      const id = ((await res.json()) as { listing_id: string }).listing_id;
      await waitLive(publishedTo, id);
      const live = performance.now();
      foundAtOnce.push(await searchFinds(publishedTo, id));
      let searches = 0;
      for (;;) {
        searches++;
        if (await searchFinds(other, id)) break;
      }
      otherMs.push(performance.now() - live);
      otherSearches.push(searches);
      const t = performance.now();
      await searchFinds(other, id);
      baselineMs.push(performance.now() - t);
    }
  } finally {
    await Promise.all(agents.map((a) => a.close()));
    await two.http.close();
    await one.http.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const base = median(baselineMs);
  return {
    runs: RUNS,
    search_poll_ms: config.searchPollMs,
    found_at_once_on_instance_published_to: `${foundAtOnce.filter(Boolean).length}/${RUNS}`,
    other_instance_live_to_found_ms: { median: round(median(otherMs)), p90: round(percentile(otherMs, 90)), max: round(Math.max(...otherMs)) },
    other_instance_searches_until_found: { median: median(otherSearches), max: Math.max(...otherSearches) },
    baseline_search_round_trip_ms: round(base),
    ratio_live_to_found_over_search: round(median(otherMs) / base),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ bench: 'search-freshness', node: process.version, at: new Date().toISOString(), results: await benchSearchFreshness() }, null, 2));
}
