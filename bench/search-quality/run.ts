// Search quality on two catalogs: the MCP registry seed (queries.ts, the set the engine was built
// on) and the community dev catalog (dev-queries.ts, judged before any tuning on it). Every query
// runs through the engine, through MiniSearch BM25+ with the engine's text processing
// (minisearch-baseline.ts, the baseline) and through a plain substring match (what registries do
// today), scored against graded judgments made by reading the catalog. Runs alone (`node --import
// tsx bench/search-quality/run.ts [--set seed|dev] [--verbose] [--split t|h] [--ablate] [--scale N]`;
// the flags look at one set, the seed by default) or from bench/run.ts as 'search-quality'.
//
// Metrics per kind and overall, for the tuning half, the held-out half and both:
//   nDCG@10  gain 2^grade - 1, log2 discount, ideal ranking from the judgments;
//   recall@10  judged entries (grade >= 1) in the top 10 / min(10, judged entries);
//   MRR  1 / rank of the first entry of grade >= 2 within the top 10 (0 if none);
//   two-needs kind also: share of queries with a best entry of each need in the top 10;
//   no-match kind: share of queries with at most 2 hits, and the mean hit count (limit 10);
//   the answers' `match`: no-match queries answered with no hit or only weak ones, good answers called weak.
// And both sets once more with the vocabulary's seed-only words taken out (seed-only.ts).
import { performance } from 'node:perf_hooks';
import { type EngineOptions, SearchEngine, type SearchDoc, type SearchHit, WEAK_COVERAGE } from '../../src/search/engine.ts';
import { isStopWord } from '../../src/search/text.ts';
import { CONCEPTS } from '../../src/search/concepts.ts';
import { useConceptDefinitions } from '../../src/search/vocabulary.ts';
import { withoutSeedOnly } from './seed-only.ts';
import { type JudgedQuery, QUERIES, type QueryKind } from './queries.ts';
import { DEV_QUERIES } from './dev-queries.ts';
import { miniSearchBaseline } from './minisearch-baseline.ts';
import { loadDev, loadSeed } from './seed.ts';

const K = 10;
const KINDS: QueryKind[] = ['keyword', 'task', 'paraphrase', 'asked', 'described', 'misspelling', 'two-needs', 'no-match'];
const SETS = {
  seed: { load: loadSeed, queries: QUERIES },
  dev: { load: loadDev, queries: DEV_QUERIES },
};
const PREFIX = 'io.github.';

type Ranker = (text: string) => string[];

/** A case-insensitive substring match of the whole query and of each query word against name + description, ranked by matched words. */
export function substringBaseline(docs: SearchDoc[]): Ranker {
  const hay = docs.map((d) => ({ id: d.id, text: `${d.name} ${d.description}`.toLowerCase() }));
  return (text) => {
    const q = text.toLowerCase().trim();
    const words = [...new Set(q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0 && !isStopWord(w)))];
    const scored: { id: string; score: number; i: number }[] = [];
    hay.forEach((h, i) => {
      let score = h.text.includes(q) ? words.length + 1 : 0;
      for (const w of words) if (h.text.includes(w)) score++;
      if (score > 0) scored.push({ id: h.id, score, i });
    });
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, K).map((s) => s.id);
  };
}

function grades(q: JudgedQuery): Map<string, number> {
  return new Map(Object.entries(q.judgments).map(([k, g]) => [PREFIX + k, g]));
}

function ndcg(ranked: string[], g: Map<string, number>): number {
  const dcg = ranked.slice(0, K).reduce((s, id, i) => s + (2 ** (g.get(id) ?? 0) - 1) / Math.log2(i + 2), 0);
  const ideal = [...g.values()].sort((a, b) => b - a).slice(0, K);
  const idcg = ideal.reduce((s, grade, i) => s + (2 ** grade - 1) / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

function recall(ranked: string[], g: Map<string, number>): number {
  const found = ranked.slice(0, K).filter((id) => (g.get(id) ?? 0) >= 1).length;
  return g.size > 0 ? found / Math.min(K, g.size) : 0;
}

function rr(ranked: string[], g: Map<string, number>): number {
  const i = ranked.slice(0, K).findIndex((id) => (g.get(id) ?? 0) >= 2);
  return i < 0 ? 0 : 1 / (i + 1);
}

interface PerQuery {
  q: JudgedQuery;
  ranked: string[];
  ndcg: number;
  recall: number;
  rr: number;
}

function evaluate(rank: Ranker, queries: JudgedQuery[]): PerQuery[] {
  return queries.map((q) => {
    const ranked = rank(q.text);
    const g = grades(q);
    return { q, ranked, ndcg: ndcg(ranked, g), recall: recall(ranked, g), rr: rr(ranked, g) };
  });
}

/** Each need of a two-needs query has one of its best entries in the top 10. */
function bothNeeds(r: PerQuery): boolean {
  const top = new Set(r.ranked.slice(0, K));
  return (r.q.needs ?? []).every((need) => need.some((name) => top.has(PREFIX + name)));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function summarize(rows: PerQuery[]) {
  const out: Record<string, unknown> = {};
  for (const kind of KINDS) {
    const rs = rows.filter((r) => r.q.kind === kind);
    if (rs.length === 0) continue;
    if (kind === 'no-match') {
      out[kind] = { queries: rs.length, atMost2Hits: r3(mean(rs.map((r) => (r.ranked.length <= 2 ? 1 : 0)))), meanHits: r3(mean(rs.map((r) => r.ranked.length))) };
    } else {
      const row: Record<string, number> = { queries: rs.length, ndcg10: r3(mean(rs.map((r) => r.ndcg))), recall10: r3(mean(rs.map((r) => r.recall))), mrr: r3(mean(rs.map((r) => r.rr))) };
      if (kind === 'two-needs') row.bothNeedsTop10 = r3(mean(rs.map((r) => (bothNeeds(r) ? 1 : 0))));
      out[kind] = row;
    }
  }
  const judged = rows.filter((r) => r.q.kind !== 'no-match');
  out.overall = { queries: judged.length, ndcg10: r3(mean(judged.map((r) => r.ndcg))), recall10: r3(mean(judged.map((r) => r.recall))), mrr: r3(mean(judged.map((r) => r.rr))) };
  return out;
}

function engineRanker(docs: SearchDoc[], options?: EngineOptions): { rank: Ranker; engine: SearchEngine; indexMs: number } {
  const engine = new SearchEngine(options);
  const t0 = performance.now();
  engine.index(docs);
  const indexMs = performance.now() - t0;
  return { engine, indexMs, rank: (text) => engine.query(text, {}, K).map((h) => h.id) };
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Latency at registry scale: `n` synthetic entries made of the seed's words (each a made-up
 * name plus two seed descriptions and tags mixed), every query of the set run 5 times after a warm-up.
 */
function scaleCheck(seed: SearchDoc[], n: number) {
  const rand = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const syllables = ['ka', 'lo', 'mi', 'zen', 'tor', 'vex', 'qua', 'ri', 'sol', 'dex', 'nu', 'pra', 'gly', 'orb', 'tek'];
  const docs: SearchDoc[] = [];
  for (let i = 0; i < n; i++) {
    const a = pick(seed);
    const b = pick(seed);
    const made = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(syllables)).join('');
    docs.push({
      id: `io.github.synthetic${i}/${made}-${a.title}`,
      kind: rand() < 0.5 ? 'mcp' : 'agent',
      source: rand() < 0.8 ? 'catalog' : 'listing',
      name: `io.github.synthetic${i}/${made}-${a.title}`,
      title: `${made} ${a.title}`,
      description: `${a.description} ${b.description}`.trim(),
      capabilities: [],
      tags: [...a.tags.slice(0, 2), ...b.tags.slice(0, 1)],
    });
  }
  const engine = new SearchEngine();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  engine.index(docs);
  const indexS = (performance.now() - t0) / 1000;
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
  for (const q of QUERIES) engine.query(q.text, {}, K);
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const q of QUERIES) {
      const t = performance.now();
      engine.query(q.text, {}, K);
      times.push(performance.now() - t);
    }
  }
  times.sort((x, y) => x - y);
  return {
    entries: n,
    indexS: r3(indexS),
    heapMb: Math.round(heapMb),
    queryMs: { p50: r3(times[Math.floor(times.length * 0.5)]!), p99: r3(times[Math.floor(times.length * 0.99)]!), max: r3(times[times.length - 1]!) },
  };
}

function checkJudgments(docs: SearchDoc[], queries: JudgedQuery[], set: string): void {
  const ids = new Set(docs.map((d) => d.id));
  for (const q of queries) {
    for (const name of [...Object.keys(q.judgments), ...(q.needs ?? []).flat()]) {
      if (!ids.has(PREFIX + name)) throw new Error(`query "${q.text}": judged entry ${name} is not in the ${set} catalog`);
    }
  }
}

/**
 * How the answers' `match` reads (the doors say `weak` when every hit covers less than
 * WEAK_COVERAGE of the query): of the no-match queries, the share answered with no hit or only weak
 * ones; of the others whose top 3 hold an entry of grade 2 or more, the share wrongly called weak.
 */
function matchShares(engine: SearchEngine, queries: JudgedQuery[]) {
  const answers = queries.map((q) => ({ q, hits: engine.query(q.text, {}, K) }));
  const weak = (hits: SearchHit[]) => hits.every((h) => h.coverage < WEAK_COVERAGE);
  const nothing = answers.filter((a) => a.q.kind === 'no-match');
  const good = answers.filter((a) => a.q.kind !== 'no-match' && a.hits.slice(0, 3).some((h) => (grades(a.q).get(h.id) ?? 0) >= 2));
  return { noMatchNoneOrWeak: r3(mean(nothing.map((a) => (weak(a.hits) ? 1 : 0)))), goodAnswersCalledWeak: r3(mean(good.map((a) => (weak(a.hits) ? 1 : 0)))) };
}

/** One catalog's figures: the engine and both baselines on the tuning half, the held-out half and both. */
function measureSet(docs: SearchDoc[], queries: JudgedQuery[], rank: Ranker, indexMs: number, engine: SearchEngine) {
  const mini = miniSearchBaseline(docs, K);
  const base = substringBaseline(docs);
  const splits = { tuning: queries.filter((q) => q.split === 't'), heldOut: queries.filter((q) => q.split === 'h'), all: queries };
  const result: Record<string, unknown> = { entries: docs.length, queries: queries.length, indexMs: Math.round(indexMs) };
  for (const [name, qs] of Object.entries(splits)) {
    result[name] = { engine: { ...summarize(evaluate(rank, qs)), match: matchShares(engine, qs) }, minisearch: summarize(evaluate(mini, qs)), substring: summarize(evaluate(base, qs)) };
  }
  return result;
}

/**
 * The engine on both sets with the vocabulary's seed-only words taken out (seed-only.ts): how much
 * of each set's score the table owes to words only the seed uses.
 */
function seedOnlyAblation() {
  const seed = loadSeed();
  const dev = loadDev();
  const { defs, removed } = withoutSeedOnly(CONCEPTS, seed, dev, DEV_QUERIES.map((q) => q.text));
  useConceptDefinitions(defs);
  try {
    const score = (docs: SearchDoc[], queries: JudgedQuery[]) => {
      const { rank } = engineRanker(docs);
      const overall = (qs: JudgedQuery[]) => (summarize(evaluate(rank, qs)).overall as { ndcg10: number }).ndcg10;
      return { tuning: overall(queries.filter((q) => q.split === 't')), heldOut: overall(queries.filter((q) => q.split === 'h')), all: overall(queries) };
    };
    return { wordsRemoved: removed.length, seed: score(seed, QUERIES), dev: score(dev, DEV_QUERIES) };
  } finally {
    useConceptDefinitions(CONCEPTS);
  }
}

export async function benchSearchQuality(argv: string[] = []): Promise<unknown> {
  const chosen = argv.includes('--set') ? (argv[argv.indexOf('--set') + 1] as keyof typeof SETS) : 'seed';
  if (!(chosen in SETS)) throw new Error(`--set is one of ${Object.keys(SETS).join(', ')}`);
  const result: Record<string, unknown> = {};
  for (const [set, { load, queries }] of Object.entries(SETS)) {
    const setDocs = load();
    checkJudgments(setDocs, queries, set);
    const ranked = engineRanker(setDocs);
    result[set] = measureSet(setDocs, queries, ranked.rank, ranked.indexMs, ranked.engine);
  }
  result.withoutSeedOnlyWords = seedOnlyAblation();
  const docs = SETS[chosen].load();
  const chosenQueries = SETS[chosen].queries;
  const { rank, engine } = engineRanker(docs);
  const splits = { tuning: chosenQueries.filter((q) => q.split === 't'), heldOut: chosenQueries.filter((q) => q.split === 'h') };
  // Latency of the engine on the chosen catalog (every query 20 times).
  for (const q of chosenQueries) engine.query(q.text, {}, K);
  const times: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const q of chosenQueries) {
      const t = performance.now();
      engine.query(q.text, {}, K);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  result.latencyMs = { set: chosen, p50: r3(times[Math.floor(times.length * 0.5)]!), p99: r3(times[Math.floor(times.length * 0.99)]!) };

  if (argv.includes('--scale')) result.scale = scaleCheck(docs, Number(argv[argv.indexOf('--scale') + 1] ?? 100_000));

  if (argv.includes('--ablate')) {
    const variants: Record<string, EngineOptions> = {
      'no concepts': { concepts: false },
      'no spelling': { spelling: false },
      'no prefix': { prefix: false },
      'no floor': { floor: false },
      'no need split': { needs: false },
      'no weak words': { weak: false },
      'lexical only': { concepts: false, spelling: false, prefix: false },
    };
    const ablation: Record<string, unknown> = {};
    for (const [name, options] of Object.entries(variants)) {
      const v = engineRanker(docs, options);
      ablation[name] = { tuning: summarize(evaluate(v.rank, splits.tuning)), heldOut: summarize(evaluate(v.rank, splits.heldOut)) };
    }
    result.ablation = ablation;
  }

  if (argv.includes('--verbose')) {
    const only = argv.includes('--split') ? argv[argv.indexOf('--split') + 1] : undefined;
    for (const r of evaluate(rank, chosenQueries)) {
      if (only && r.q.split !== only) continue;
      const g = grades(r.q);
      const hits = engine.query(r.q.text, {}, K);
      console.error(`\n[${r.q.kind}/${r.q.split}] "${r.q.text}"  nDCG ${r3(r.ndcg)}  R ${r3(r.recall)}  RR ${r3(r.rr)}  hits ${hits.length}`);
      for (const h of hits) console.error(`  ${g.get(h.id) ?? '-'} ${String(h.score).padStart(3)} ${h.id.replace(PREFIX, '')}  [${h.why.join('; ')}]`);
      const missing = [...g.entries()].filter(([id, grade]) => grade >= 2 && !r.ranked.includes(id)).map(([id, grade]) => `${grade}:${id.replace(PREFIX, '')}`);
      if (missing.length) console.error(`  missing: ${missing.join(', ')}`);
    }
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ bench: 'search-quality', node: process.version, cpus: 2, at: new Date().toISOString(), results: await benchSearchQuality(process.argv.slice(2)) }, null, 2));
}
