// The search engine: BM25+ (MiniSearch's formula, src/search/postings.ts) over name, title, capabilities, tags and description
// with field boosts, English stemming and stop words, plus what a registry's users need beyond
// that: query filler dropped, spelling correction (transpositions included), prefix completion
// of unknown words, and the field's vocabulary (src/search/concepts.ts) matched through hidden
// concept terms computed at index time. OR semantics with a floor relative to the query (a hit
// must match a share of its meaningful words, or of one of its needs), so a need nothing serves
// gets few or no hits. Pure: no database, no clock, no I/O. Choices and figures:
// docs/decisions/search-engine.md, docs/performance.md "Search quality".
import { createHash } from 'node:crypto';
import { PostingIndex, type Touched } from './postings.ts';
import { type DocHealth, type HealthFilter, type ShownDoc, ShownDocs } from './shown.ts';
import { SlotLists } from './slot-lists.ts';
import { SurfaceWords } from './surface-words.ts';
import { editDistance, isFiller, isStopWord, isWeak, plainWords, rawWords, splitCompound, stem } from './text.ts';
import { concepts, findConcepts, lightKey } from './vocabulary.ts';

/** A document to index: what a hit shows, and what is only searched. */
export interface SearchDoc extends ShownDoc {
  /** the whole description (a hit shows its start) */
  description: string;
  tags: string[];
  /** What is measured of its health, for narrowing; not searched, and a change of it alone re-indexes nothing. */
  health?: DocHealth;
}

export interface SearchFilter {
  kind?: 'agent' | 'mcp';
  source?: 'listing' | 'catalog';
  ids?: ReadonlySet<string>;
  health?: HealthFilter;
  /**
   * Score and floor as the unfiltered query would, then keep what passes: a hit's score, its floor
   * and its need's best are those of the whole index (search_active's Live listings rank as they
   * do in ard_search, instead of a weak match scoring 100 because nothing better passed).
   */
  againstAll?: boolean;
}

export interface SearchHit {
  id: string;
  /** what the index keeps to show (src/search/shown.ts): not the tags, the description's start only */
  doc: ShownDoc;
  /** 0-100: relevance relative to the best hit of the same query (of the same need, when a query names several) */
  score: number;
  /** the raw engine score: BM25+ with boosts and expansions, times the share of the query the hit covers */
  relevance: number;
  /** the idf-weighted share of the query (or of its best-served need) the hit matched, 0-1 */
  coverage: number;
  /** matched query terms, and what a spelling, prefix or concept expansion matched instead */
  why: string[];
}

// ---------------------------------------------------------------- tuning constants (docs/decisions/search-engine.md)
const TEXT_FIELDS = ['name', 'title', 'capabilities', 'tags', 'description'] as const;
const FIELDS = [...TEXT_FIELDS, 'concepts'] as const;
type Field = (typeof FIELDS)[number];
type TextField = (typeof TEXT_FIELDS)[number];
const TEXT_FIELD_IDS = TEXT_FIELDS.map((_, i) => i);
const CONCEPT_FIELD_IDS = [FIELDS.length - 1];
/** name > capabilities > tags > description; concepts are matched with their own weight. */
const BOOST: Record<Field, number> = { name: 3, title: 2, capabilities: 2, tags: 1.5, description: 1, concepts: 2 };
const BOOSTS = FIELDS.map((f) => BOOST[f]);
const WEIGHT = {
  exact: 1,
  /** a word of a phrase the table knows ("home assistant"), matched on its own */
  phraseWord: 0.3,
  spelling1: 0.8,
  spelling2: 0.6,
  prefix: 0.5,
  conceptSame: 0.9,
  conceptRel: 0.5,
  /** per level up from the concept a query word names */
  ancestorDecay: 0.6,
  /** weak words ("create", "manage", "data"): their score and their share of the query */
  weak: 0.3,
  /** words the catalog and the vocabulary do not know, in a query that has words they know */
  unknown: 0.1,
};
/** A hit must match at least this share of the query's meaningful (idf-weighted) words. */
const MIN_COVERAGE = 0.3;
/** ...unless it scores this many times the best hit that does (aboveFloor). */
const FLOOR_OUTWEIGHED = 3;
/**
 * Below this coverage a hit is a guess (the doors say `match: "weak"`). Chosen on the tuning halves
 * of both judged sets; over both halves, the no-match queries answered with no hit or only weak
 * ones: seed 12 of 12, dev 6 of 8; answers with a good entry in their top 3 called weak: seed 13%,
 * dev 10% (docs/decisions/search-engine.md).
 */
export const WEAK_COVERAGE = 0.45;
/** Hits whose relevance is within this share of each other are near-ties that tieBreak may order. */
export const NEAR_TIE = 0.05;
const MAX_GROUPS = 24;
/** Candidates (best raw scores) that the coverage floor and the need split look at, first and at most. */
const CANDIDATES = 200;
const MAX_CANDIDATES = 200 * 64;
const MAX_QUERY_CHARS = 500;
const PREFIX_COMPLETIONS = 3;
/** A word in at most this many documents may be their misspelling of a word COMMON_OVER_RARE times as frequent. */
const RARE_WORD_DOCS = 2;
const COMMON_OVER_RARE = 10;
const CONCEPT_PREFIX = '\u00a7';

/** Leading namespace labels of registry names that say nothing ("io.github.owner/repo"). */
const NAMESPACE_NOISE = new Set(['io', 'com', 'org', 'net', 'dev', 'ai', 'app', 'co', 'www', 'github', 'gitlab', 'bitbucket', 'codeberg']);

interface Alternative {
  term: string;
  concept: boolean;
  /** multiplies the field boosts when scoring */
  weight: number;
  /** credit toward the group in the coverage share; words of a phrase add up (1/n each) */
  cover: number;
  /** true for the single words of a phrase group, whose credits add up */
  part: boolean;
  group: number;
  label: string;
}

interface Group {
  text: string;
  /** idf-like weight in the coverage share */
  weight: number;
  /** which need of the query it belongs to ("github issues and slack messages": two needs) */
  need: number;
  /** the word is in the index, the vocabulary or the weak words (not only a spelling or prefix guess) */
  known: boolean;
}

interface Plan {
  groups: Group[];
  alternatives: Alternative[];
  /** number of needs (groups carry their need's index) */
  needs: number;
}

/** "io.github.owner/repo" -> "owner/repo"; "com.example.team/agent" -> "example team/agent". */
export function readableName(name: string): string {
  const m = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)\/(.+)$/i.exec(name);
  if (!m) return name;
  const labels = m[1]!.split('.').filter((l) => !NAMESPACE_NOISE.has(l.toLowerCase()));
  return `${labels.join(' ')} ${m[2]}`.trim();
}

const conceptTermCache = new Map<string, string>();

/** The hidden term of a concept (one string per concept, not one per document that names it). */
function conceptTerm(id: string): string {
  let term = conceptTermCache.get(id);
  if (term === undefined) {
    term = CONCEPT_PREFIX + id;
    conceptTermCache.set(id, term);
  }
  return term;
}

function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** Why a query cannot be searched (for a clear 400), or undefined when it can. */
export function queryProblem(text: string): string | undefined {
  if (typeof text !== 'string') return 'the query must be a string';
  if (text.trim().length === 0) return 'the query is empty';
  if (text.length > MAX_QUERY_CHARS) return `the query is longer than ${MAX_QUERY_CHARS} characters`;
  if (plainWords(text).length === 0) return 'the query has no letters or digits';
  const words = plainWords(stripNoise(text));
  if (!words.some((w) => meaningful(w))) {
    return 'the query has only common words (like "the", "mcp", "server", "tool"): say what the agent or server should do or name a product';
  }
  return undefined;
}

function meaningful(w: string): boolean {
  return (w.length >= 2 || /\d/.test(w)) && !isStopWord(w) && !isFiller(w);
}

/** Switches for measuring what each part adds (bench/search-quality); everything is on by default. */
export interface EngineOptions {
  concepts?: boolean;
  spelling?: boolean;
  prefix?: boolean;
  floor?: boolean;
  /** serve each need of a multi-need query in turn */
  needs?: boolean;
  /** weak words get a small weight */
  weak?: boolean;
}

export class SearchEngine {
  private readonly postings = new PostingIndex(FIELDS.length);
  private readonly options: Required<EngineOptions>;
  /** per slot (the postings' slots): what a hit shows */
  private readonly shown = new ShownDocs();
  /** surface words -> documents, for spelling fixes and completions */
  private readonly words = new SurfaceWords();
  /** per slot: its surface words' ids, to take them out of `words` when it leaves */
  private readonly slotWords = new SlotLists();
  /**
   * per slot: a digest of what the document says (docDigest), so an unchanged one is not analysed
   * again; NaN for a document indexed once, so building the index at start digests nothing
   */
  private digests = new Float64Array(0);
  /** Scratch buffers reused by every query (queries are synchronous). */
  private scores = new Float64Array(0);
  private touched: Touched = { slots: new Int32Array(0), length: 0 };

  constructor(options: EngineOptions = {}) {
    this.options = { concepts: true, spelling: true, prefix: true, floor: true, needs: true, weak: true, ...options };
  }

  get size(): number {
    return this.postings.size;
  }

  /**
   * Adds documents; a document whose id is already indexed replaces it, unless it says exactly what
   * the version it replaced said (a listing re-probed again with the same card): then it is left as
   * it is. Only replacements are digested, so the first one of a document is always analysed (a
   * document indexed once has no digest) and the index built at start costs no digests. Returns how
   * many documents were analysed and added.
   */
  index(docs: SearchDoc[]): number {
    let added = 0;
    for (const doc of docs) {
      const existing = this.postings.slot(doc.id);
      let digest = Number.NaN;
      if (existing !== undefined) {
        digest = docDigest(doc);
        if (this.digests[existing] === digest) {
          this.shown.setHealth(existing, doc.health);
          continue;
        }
        this.removeOne(doc.id);
      }
      const { fields, surfaces } = analyze(doc);
      const slot = this.postings.add(doc.id, fields);
      this.shown.set(slot, doc);
      this.slotWords.set(slot, surfaces.map((w) => this.words.add(w)));
      if (slot >= this.digests.length) {
        const next = new Float64Array(Math.max(1024, slot + 1, this.digests.length * 2)).fill(Number.NaN);
        next.set(this.digests);
        this.digests = next;
      }
      this.digests[slot] = digest;
      added++;
    }
    return added;
  }

  remove(ids: string[]): void {
    for (const id of ids) if (this.postings.slot(id) !== undefined) this.removeOne(id);
  }

  private removeOne(id: string): void {
    const slot = this.postings.slot(id)!;
    const words = this.slotWords.data(slot);
    for (let i = this.slotWords.begin(slot), end = this.slotWords.end(slot); i < end; i++) this.words.release(words[i]!);
    this.slotWords.clear(slot);
    this.shown.clear(slot);
    this.digests[slot] = Number.NaN; // equal to nothing, until the slot is used again
    this.postings.remove(id);
  }

  /** Every surface word with the number of documents that contain it, sorted (to check that two indexes agree). */
  surfaceCounts(): [string, number][] {
    return this.words.entries().sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  query(text: string, filter: SearchFilter, limit: number, tieBreak?: (id: string) => number): SearchHit[] {
    if (limit <= 0 || this.postings.size === 0 || queryProblem(text)) return [];
    const plan = this.plan(text);
    if (plan.alternatives.length === 0) return [];

    // Score every document that matches any alternative (OR), in one flat pass per term.
    if (this.scores.length < this.postings.capacity) {
      const size = Math.max(1024, this.postings.capacity * 2);
      this.scores = new Float64Array(size);
      this.touched = { slots: new Int32Array(size), length: 0 };
    }
    const scores = this.scores;
    const touched = this.touched;
    touched.length = 0;
    for (const a of plan.alternatives) {
      this.postings.accumulate(a.term, a.concept ? CONCEPT_FIELD_IDS : TEXT_FIELD_IDS, BOOSTS, a.weight, scores, touched);
    }
    const passes = (slot: number): boolean =>
      (!filter.kind || this.shown.kind(slot) === filter.kind) &&
      (!filter.source || this.shown.source(slot) === filter.source) &&
      (!filter.ids || filter.ids.has(this.postings.idAt(slot)!)) &&
      (!filter.health || this.shown.healthPasses(slot, filter.health));
    /** term id -> the alternatives that name it */
    const byTerm = new Map<number, Alternative[]>();
    for (const a of plan.alternatives) {
      const term = this.postings.termId(a.term);
      if (term === undefined) continue;
      const list = byTerm.get(term);
      if (list) list.push(a);
      else byTerm.set(term, [a]);
    }
    // Long sentences name more words than a hit needs to match: the floor eases past 3 groups.
    const minCoverage = MIN_COVERAGE * Math.sqrt(Math.min(1, 3 / Math.max(1, plan.groups.length)));
    const collect = (top: number[]): Candidate[] => {
      const found: Candidate[] = [];
      for (const slot of top) {
        const matched = new Map<number, Alternative[]>();
        const terms = this.postings.termData(slot);
        for (let i = this.postings.termsBegin(slot), end = this.postings.termsEnd(slot); i < end; i++) {
          for (const a of byTerm.get(terms[i]!) ?? []) {
            const list = matched.get(a.group);
            if (list) list.push(a);
            else matched.set(a.group, [a]);
          }
        }
        const cov = coverage(plan, matched);
        const why = [...matched.entries()].sort((x, y) => x[0] - y[0]).map(([, alts]) => explain(alts));
        found.push({ id: this.postings.idAt(slot)!, slot, relevance: scores[slot]! * cov.best, why, perNeed: cov.perNeed, coverage: cov.best });
      }
      return found;
    };
    // The floor is checked on the best raw scores only; when a large catalog fills that window with
    // documents that fail it (many near-copies matching one word strongly), the window widens.
    let candidates: Candidate[] = [];
    // Against the whole index: the unfiltered best candidates join the pool, so they set the floor
    // and the scale; they are dropped once scored.
    const reference = filter.againstAll ? topSlots(touched, scores, CANDIDATES, () => true) : [];
    let kept = 0;
    for (let window = Math.max(CANDIDATES, limit * 20); ; window *= 8) {
      const top = topSlots(touched, scores, window, passes);
      const pool = reference.length ? [...new Set([...top, ...reference])] : top;
      candidates = this.options.floor ? aboveFloor(collect(pool), minCoverage) : collect(pool);
      kept = reference.length ? candidates.filter((c) => passes(c.slot)).length : candidates.length;
      if (kept >= limit || top.length < window || window >= MAX_CANDIDATES) break;
    }
    for (let i = 0; i < touched.length; i++) scores[touched.slots[i]!] = 0;
    if (kept === 0) return [];
    candidates.sort(byRelevance);
    // Several needs: each need's best in turn, so one need's many matches do not hide the other's.
    // (Only when the best hit does not serve every need: "rows and columns in my sheets" is one need.)
    const separate = this.options.needs && plan.needs >= 2 && candidates[0]!.perNeed.some((x) => x < SERVES_NEED);
    const lists = separate ? splitByNeed(candidates, plan.needs) : [candidates];
    const ordered = lists.map((list) => {
      const best = list[0]?.relevance ?? 1;
      const sorted = tieBreak ? orderNearTies(list, tieBreak) : list;
      const scored = sorted.map((c) => ({ c, score: Math.round((100 * c.relevance) / best) }));
      return reference.length ? scored.filter(({ c }) => passes(c.slot)) : scored;
    });
    return interleave(ordered)
      .slice(0, limit)
      .map(({ c, score }) => ({ id: c.id, doc: this.shown.get(c.slot, c.id), score, relevance: c.relevance, coverage: c.coverage, why: c.why }));
  }

  /**
   * The query as groups of alternatives: each group is one meaningful word or a phrase the
   * vocabulary knows, with its exact stem, spelling fixes and completions (unknown words only)
   * and concepts. Groups are split into needs at "and", "or", "plus", ...
   */
  private plan(text: string): Plan {
    const c = concepts();
    const n = Math.max(this.postings.size, 1);
    const seq = plainWords(stripNoise(text)).slice(0, 64);
    const groups: Group[] = [];
    const alternatives: Alternative[] = [];
    const alt = (group: number, term: string, concept: boolean, weight: number, label: string, part = false, cover = weight) =>
      alternatives.push({ term, concept, weight, cover, part, group, label });
    /** `from` is what the user typed (and what it was read as); `word` the word that names the concepts. */
    const addConcepts = (group: number, from: string, word: string, links: readonly { id: string; same: boolean }[], scale: number) => {
      if (!this.options.concepts) return;
      for (const l of links) {
        const base = (l.same ? WEIGHT.conceptSame : WEIGHT.conceptRel) * scale;
        const how = l.same ? 'synonym' : 'related';
        // "k8s → kubernetes (synonym)"; a word that names its own concept: "postgres (synonym)".
        const label = l.id === lightKey(word) ? `${from} (${how})` : `${from} → ${l.id} (${how})`;
        alt(group, conceptTerm(l.id), true, base, label);
        for (const a of c.ancestors.get(l.id) ?? []) {
          // A broader concept counts less toward the floor than toward the score: "redis" may find
          // other key-value stores, not every database.
          const weight = base * WEIGHT.ancestorDecay ** a.depth;
          alt(group, conceptTerm(a.id), true, weight, `${from} → ${a.id} (broader)`, false, weight * WEIGHT.ancestorDecay);
        }
      }
    };

    // Needs: split at conjunctions.
    const needAt: number[] = [];
    let need = 0;
    for (const w of seq) {
      if (CONJUNCTIONS.has(w)) need++;
      needAt.push(need);
    }
    // Phrases the vocabulary knows ("second brain", "home assistant"), longest first.
    const phraseAt = new Map<number, { length: number; links: { id: string; same: boolean }[] }>();
    if (this.options.concepts) {
      for (const h of findConcepts(seq)) {
        if (h.length < 2) continue;
        const cur = phraseAt.get(h.start);
        if (!cur) phraseAt.set(h.start, { length: h.length, links: [{ id: h.id, same: h.same }] });
        else if (cur.length === h.length) cur.links.push({ id: h.id, same: h.same });
      }
    }
    const seen = new Set<string>();
    for (let i = 0; i < seq.length && groups.length < MAX_GROUPS; i++) {
      const phrase = phraseAt.get(i);
      if (phrase) {
        const words = seq.slice(i, i + phrase.length);
        const g = groups.length;
        groups.push({ text: words.join(' '), weight: idf(0, n), need: needAt[i]!, known: true });
        const parts = words.filter(meaningful);
        for (const w of parts) alt(g, stem(w), false, WEIGHT.phraseWord, w, true, 1 / parts.length);
        addConcepts(g, words.join(' '), words.join(' '), phrase.links, 1);
        i += phrase.length - 1;
        continue;
      }
      const w = seq[i]!;
      if (!meaningful(w)) continue;
      const s = stem(w);
      if (seen.has(s)) continue;
      seen.add(s);
      const g = groups.length;
      const df = this.postings.df(s);
      const links = this.options.concepts ? (c.words.get(lightKey(w)) ?? []) : [];
      const weak = this.options.weak && isWeak(w) ? WEIGHT.weak : 1;
      groups.push({ text: w, weight: idf(df, n) * weak, need: needAt[i]!, known: df > 0 || links.length > 0 || weak < 1 });
      alt(g, s, false, WEIGHT.exact * weak, w, false, 1);
      addConcepts(g, w, w, links, weak);
      if (links.length > 0 || /\d/.test(w)) continue;
      // Documents with the word or its stem.
      const docs = Math.max(df, this.words.count(w));
      const unknown = docs === 0;
      // A word only a document or two use may be their typo of a common word ("postgress"): the
      // common word is tried beside it.
      if (docs > RARE_WORD_DOCS) continue;
      // An unknown word: a misspelling of a known one, or the start of one.
      const fixes = this.options.spelling ? this.corrections(w).filter((f) => unknown || f.df >= COMMON_OVER_RARE * Math.max(1, docs)) : [];
      for (const fix of fixes) {
        const weight = fix.distance === 1 ? WEIGHT.spelling1 : WEIGHT.spelling2;
        alt(g, stem(fix.word), false, weight, `${w} → ${fix.word} (spelling)`);
        addConcepts(g, `${w} → ${fix.word}`, fix.word, c.words.get(lightKey(fix.word)) ?? [], weight);
      }
      for (const done of this.options.prefix && unknown ? this.completions(w) : []) {
        alt(g, stem(done), false, WEIGHT.prefix, `${w} → ${done} (prefix)`);
        addConcepts(g, `${w} → ${done}`, done, c.words.get(lightKey(done)) ?? [], WEIGHT.prefix);
      }
    }
    // Within a group keep each term once, at its best weight.
    const best = new Map<string, Alternative>();
    for (const a of alternatives) {
      const key = `${a.group}\u0000${a.term}`;
      const cur = best.get(key);
      if (!cur || a.weight > cur.weight) best.set(key, a);
    }
    discountUnknown(groups, alternatives);
    return { groups, alternatives: [...best.values()], needs: mergeLightNeeds(groups) };
  }

  /** Known words within one edit (a transposition counts as one), or two for long words. */
  private corrections(w: string): { word: string; distance: number; df: number }[] {
    // Short words: from 4 letters a transposition or a missing letter ("slak"), any single edit from
    // 5 ("near" is not "fear").
    if (w.length < 4) return [];
    const lex = concepts().lexicon;
    const dfOf = (x: string) => Math.max(this.words.count(x), lex.has(x) ? 1 : 0);
    const found = new Map<string, number>();
    forEachEdit(w, w.length >= 5 ? 'all' : 'insert', (v) => {
      if (dfOf(v) > 0) found.set(v, 1);
    });
    if (found.size === 0 && w.length >= 9) {
      // Two edits for long words, keeping the first letter (searched under it in the radix trees).
      for (const tree of [this.words.tree, concepts().lexiconTree]) {
        for (const [rest] of tree.atPrefix(w[0]!).fuzzyGet(w.slice(1), 2)) {
          const cand = w[0] + rest;
          if (cand !== w && editDistance(w, cand, 2) <= 2) found.set(cand, 2);
        }
      }
    }
    return [...found.entries()]
      .map(([word, distance]) => ({ word, distance, df: dfOf(word) }))
      .sort((a, b) => a.distance - b.distance || b.df - a.df || (a.word < b.word ? -1 : 1))
      .slice(0, 2);
  }

  /** The most frequent known words that start with an unknown word ("kube" -> "kubernetes"). */
  private completions(w: string): string[] {
    if (w.length < 3) return [];
    const out: [string, number][] = [];
    let seen = 0;
    for (const tree of [this.words.tree, concepts().lexiconTree]) {
      for (const [word] of tree.atPrefix(w)) {
        // A table word counts as one document; a catalog word as the documents that contain it.
        if (word !== w) out.push([word, tree === this.words.tree ? this.words.count(word) : 1]);
        if (++seen >= 200) break;
      }
    }
    out.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const picked: string[] = [];
    for (const [word] of out) {
      if (!picked.some((p) => stem(p) === stem(word))) picked.push(word);
      if (picked.length >= PREFIX_COMPLETIONS) break;
    }
    return picked;
  }
}

/**
 * Words that neither the catalog nor the vocabulary knows ("find a cheap flight to *Tokyo*",
 * "translate this *paragraph* into Spanish") name what the task is about, not which tool does
 * it: when they are fewer than half of the query, they weigh WEIGHT.unknown of a known word in the
 * coverage floor, and spelling or prefix guesses made from them score that much less. A query
 * made mostly of such words ("order pizza delivery") keeps them at full weight, so a need the
 * catalog does not serve still finds little.
 */
function discountUnknown(groups: Group[], alternatives: Alternative[]): void {
  const unknown = groups.filter((g) => !g.known).length;
  if (unknown === 0 || unknown * 2 >= groups.length) return;
  groups.forEach((g, i) => {
    if (g.known) return;
    g.weight *= WEIGHT.unknown;
    for (const a of alternatives) {
      if (a.group !== i) continue;
      a.weight *= WEIGHT.unknown;
      a.cover *= WEIGHT.unknown;
    }
  });
}

/** Words that join two needs in one query. */
const CONJUNCTIONS = new Set(['and', 'or', 'plus', 'also', 'then', 'while']);
/** A need lighter than this share of the query joins its neighbour ("create and update issues"). */
const MIN_NEED_SHARE = 0.25;

/** Renumbers the groups' needs 0..k-1 after folding light needs into a neighbour; returns k. */
function mergeLightNeeds(groups: Group[]): number {
  const total = groups.reduce((s, g) => s + g.weight, 0);
  for (;;) {
    const ids = [...new Set(groups.map((g) => g.need))].sort((a, b) => a - b);
    if (ids.length <= 1) break;
    const weightOf = (id: number) => groups.filter((g) => g.need === id).reduce((s, g) => s + g.weight, 0);
    const light = ids.find((id) => weightOf(id) < total * MIN_NEED_SHARE);
    if (light === undefined) break;
    const k = ids.indexOf(light);
    const into = k + 1 < ids.length ? ids[k + 1]! : ids[k - 1]!;
    for (const g of groups) if (g.need === light) g.need = into;
  }
  const ids = [...new Set(groups.map((g) => g.need))].sort((a, b) => a - b);
  for (const g of groups) g.need = ids.indexOf(g.need);
  return ids.length;
}

/** How much of a group a document matched: the best alternative, or the words of a phrase added up. */
function groupCredit(alts: readonly Alternative[]): number {
  let best = 0;
  let parts = 0;
  for (const a of alts) {
    if (a.part) parts += a.cover;
    else if (a.cover > best) best = a.cover;
  }
  return Math.min(1, Math.max(best, parts));
}

interface Candidate {
  id: string;
  slot: number;
  relevance: number;
  why: string[];
  /** coverage of each need of the query */
  perNeed: number[];
  coverage: number;
}

/**
 * The candidates that cover enough of the query; and those that do not but score FLOOR_OUTWEIGHED
 * times the best that does: one rare word of a sentence ("due next Friday") must not outrank the
 * product it names ("my Todoist") only by being rarer.
 */
function aboveFloor(found: Candidate[], minCoverage: number): Candidate[] {
  let best = 0;
  for (const c of found) if (c.coverage >= minCoverage && c.relevance > best) best = c.relevance;
  if (best === 0) return [];
  return found.filter((c) => c.coverage >= minCoverage || c.relevance >= FLOOR_OUTWEIGHED * best);
}

function byRelevance(a: Candidate, b: Candidate): number {
  return b.relevance - a.relevance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A hit serves a need when it covers this share of it. */
const SERVES_NEED = 0.5;

/** Each hit under the need it covers best (the first on a tie), lists in order of their best hit. */
function splitByNeed(sorted: Candidate[], needs: number): Candidate[][] {
  const per: Candidate[][] = Array.from({ length: needs }, () => []);
  for (const c of sorted) {
    let k = 0;
    for (let i = 1; i < needs; i++) if (c.perNeed[i]! > c.perNeed[k]!) k = i;
    per[k]!.push(c);
  }
  return per.filter((l) => l.length > 0).sort((a, b) => b[0]!.relevance - a[0]!.relevance);
}

/** One from each list in turn. */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]!);
  return out;
}

/** The idf-weighted share of the query a document matched: of each need, and the best of the whole query and its needs. */
function coverage(plan: Plan, matched: ReadonlyMap<number, readonly Alternative[]>): { best: number; perNeed: number[] } {
  const total = new Array<number>(plan.needs + 1).fill(0);
  const got = new Array<number>(plan.needs + 1).fill(0);
  plan.groups.forEach((g, i) => {
    const credit = g.weight * groupCredit(matched.get(i) ?? []);
    total[g.need] = total[g.need]! + g.weight;
    got[g.need] = got[g.need]! + credit;
    total[plan.needs] = total[plan.needs]! + g.weight;
    got[plan.needs] = got[plan.needs]! + credit;
  });
  const share = got.map((x, k) => (total[k]! > 0 ? x / total[k]! : 0));
  return { best: Math.max(...share), perNeed: share.slice(0, plan.needs) };
}

/** One line of `why` for a group: the best alternative's label, or the phrase words matched. */
function explain(alts: readonly Alternative[]): string {
  const whole = alts.filter((a) => !a.part).sort((a, b) => b.cover - a.cover)[0];
  const parts = alts.filter((a) => a.part);
  const partsCover = parts.reduce((s, a) => s + a.cover, 0);
  if (whole && whole.cover >= partsCover) return whole.label;
  return parts.map((a) => a.label).join(' ');
}

/** Registry boilerplate that every entry shares ("Model Context Protocol server"). */
function stripNoise(text: string): string {
  return text.replace(/model[\s-]*context[\s-]*protocol/gi, ' ');
}

/** Hits whose relevance is within NEAR_TIE of the first of their run are ordered by the trust signal. */
function orderNearTies<T extends { id: string; relevance: number }>(sorted: T[], tieBreak: (id: string) => number): T[] {
  const out: T[] = [];
  let i = 0;
  while (i < sorted.length) {
    const head = sorted[i]!.relevance;
    let j = i + 1;
    while (j < sorted.length && sorted[j]!.relevance >= head * (1 - NEAR_TIE)) j++;
    const run = sorted.slice(i, j);
    if (run.length > 1) {
      const trust = new Map(run.map((h) => [h.id, tieBreak(h.id)]));
      run.sort((a, b) => trust.get(b.id)! - trust.get(a.id)! || b.relevance - a.relevance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
    out.push(...run);
    i = j;
  }
  return out;
}


const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Calls `fn` with every string one edit away from `w`: transpositions and insertions (a letter the
 * word misses) always, and with `all` also deletions and substitutions (Damerau-Levenshtein distance 1).
 */
function forEachEdit(w: string, edits: 'insert' | 'all', fn: (v: string) => void): void {
  for (let i = 0; i + 1 < w.length; i++) if (w[i] !== w[i + 1]) fn(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
  for (let i = 0; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (edits === 'all' && b.length > 0) fn(a + b.slice(1));
    for (const ch of ALPHABET) {
      if (edits === 'all' && b.length > 0 && ch !== b[0]) fn(a + ch + b.slice(1));
      fn(a + ch + b);
    }
  }
}

/** The `n` slots with the highest score among those `keep` accepts (a bounded min-heap). */
function topSlots(touched: Touched, scores: Float64Array, n: number, keep: (slot: number) => boolean): number[] {
  const heap: number[] = [];
  const less = (a: number, b: number) => scores[a]! < scores[b]!;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = 0; i < touched.length; i++) {
    const s = touched.slots[i]!;
    if (heap.length === n && !less(heap[0]!, s)) continue;
    if (!keep(s)) continue;
    if (heap.length < n) {
      heap.push(s);
      for (let i = heap.length - 1; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!less(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else {
      heap[0] = s;
      down(0);
    }
  }
  return heap;
}

/**
 * 48 bits of a SHA-1 of everything a document says but its id, as a number (exact in a double):
 * a changed document matching its old digest by chance is a 1 in 2^48 event.
 */
function docDigest(doc: SearchDoc): number {
  const said = JSON.stringify([doc.kind, doc.source, doc.name, doc.title ?? null, doc.description, doc.url ?? null, doc.capabilities, doc.tags]);
  return createHash('sha1').update(said).digest().readUIntBE(0, 6);
}

/** A document's terms per field (stems, and concept terms last) and its unique surface words. */
function analyze(doc: SearchDoc): { fields: string[][]; surfaces: string[] } {
  const c = concepts();
  const surfaces = new Set<string>();
  const conceptTerms: string[] = [];
  const text: Record<TextField, string[]> = { name: [], title: [], capabilities: [], tags: [], description: [] };
  const sources: [TextField, string][] = [
    ['name', readableName(doc.name)],
    ['title', doc.title ?? ''],
    ...doc.capabilities.map((s) => ['capabilities', s] as [TextField, string]),
    ...doc.tags.map((s) => ['tags', s] as [TextField, string]),
    ['description', doc.description],
  ];
  for (const [field, value] of sources) {
    if (!value) continue;
    const out = text[field];
    const clean = stripNoise(value);
    for (const w of rawWords(clean)) {
      if (w.length < 2 && !/\d/.test(w)) continue;
      if (isStopWord(w)) continue;
      out.push(stem(w));
      surfaces.add(w);
      for (const part of compoundParts(w)) {
        out.push(stem(part));
        surfaces.add(part);
      }
    }
    // Concepts from phrases and words (compound parts included).
    const seq = plainWords(clean);
    // A glued word's parts name concepts only when the word names none itself: "ticketmaster"
    // is about events, not about tickets of an issue tracker.
    const partsOf = (i: number) => (c.words.has(lightKey(seq[i]!)) ? [] : compoundParts(seq[i]!));
    for (const h of findConcepts(seq, partsOf)) {
      conceptTerms.push(conceptTerm(h.id));
      for (const a of c.ancestors.get(h.id) ?? []) conceptTerms.push(conceptTerm(a.id));
    }
  }
  return { fields: [...TEXT_FIELDS.map((f) => text[f]), conceptTerms], surfaces: [...surfaces] };
}

/** A glued compound's parts ("homeassistant" -> home, assistant), or none; cached with the table. */
function compoundParts(w: string): readonly string[] {
  const c = concepts();
  let parts = c.parts.get(w);
  if (!parts) {
    parts = splitCompound(w, c.lexicon, c.heads);
    if (c.parts.size > 200_000) c.parts.clear();
    c.parts.set(w, parts);
  }
  return parts;
}
