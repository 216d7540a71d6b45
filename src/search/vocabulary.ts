// The concept table compiled for lookups (built once per process), and the light plural folding
// that concept words and phrases are matched with.
import SearchableMap from 'minisearch/SearchableMap';
import { CONCEPTS, type ConceptDef } from './concepts.ts';
import { plainWords } from './text.ts';

/** Plural folding for concept lookups ("databases" -> "database", "libraries" -> "library"). */
export function lightKey(word: string): string {
  if (word.length <= 4) return word;
  let key = keyCache.get(word);
  if (key === undefined) {
    key = fold(word);
    if (keyCache.size > 200_000) keyCache.clear();
    keyCache.set(word, key);
  }
  return key;
}

const keyCache = new Map<string, string>();

function fold(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

export interface ConceptLink {
  id: string;
  /** true when the word is one of the concept's names, false when it is a related word */
  same: boolean;
}

export interface PhraseNode {
  next: Map<string, PhraseNode>;
  /** the concepts of the phrase that ends here */
  links?: ConceptLink[];
}

export interface CompiledConcepts {
  /** light key of a single word -> concepts it belongs to */
  words: Map<string, ConceptLink[]>;
  /** the phrases as a tree of their words' light keys, to find the longest phrase at a word without building strings */
  phrases: Map<string, PhraseNode>;
  /** concept -> its ancestors with their distance (1 = parent) */
  ancestors: Map<string, { id: string; depth: number }[]>;
  /**
   * every member of the table that is one word (for compound splitting and spelling). Not the words
   * of its phrases: "python-pptx" would make "python" known only while a product is in the table,
   * and without it "python" split into py + thon.
   */
  lexicon: Set<string>;
  /** single words that name a concept (its `same` words): heads of compounds ("cryptopanic") */
  heads: Set<string>;
  /** the same words in a radix tree, for fuzzy lookups */
  lexiconTree: SearchableMap<number>;
  /** glued compounds already split with this table (engine.ts compoundParts) */
  parts: Map<string, readonly string[]>;
}

function add(map: Map<string, ConceptLink[]>, key: string, link: ConceptLink): void {
  const list = map.get(key);
  if (!list) map.set(key, [link]);
  else if (!list.some((l) => l.id === link.id)) list.push(link);
  else if (link.same) for (const l of list) if (l.id === link.id) l.same = true;
}

function compile(definitions: readonly ConceptDef[]): CompiledConcepts {
  const words = new Map<string, ConceptLink[]>();
  const phrases = new Map<string, ConceptLink[]>();
  const lexicon = new Set<string>();
  const heads = new Set<string>();
  const parents = new Map<string, string[]>();
  for (const c of definitions) {
    parents.set(c.id, c.up ?? []);
    for (const [list, same] of [
      [c.same, true],
      [c.rel ?? '', false],
    ] as const) {
      for (const member of list.split(',')) {
        const parts = plainWords(member);
        if (parts.length === 0) continue;
        if (parts.length === 1 && parts[0]!.length >= 3) lexicon.add(parts[0]!);
        const keys = parts.map(lightKey);
        if (keys.length === 1) {
          add(words, keys[0]!, { id: c.id, same });
          if (same) heads.add(parts[0]!);
        }
        else add(phrases, keys.join(' '), { id: c.id, same });
      }
    }
  }
  const ancestors = new Map<string, { id: string; depth: number }[]>();
  for (const c of definitions) {
    const out: { id: string; depth: number }[] = [];
    const seen = new Set([c.id]);
    let frontier = parents.get(c.id) ?? [];
    for (let depth = 1; frontier.length > 0 && depth <= 3; depth++) {
      const next: string[] = [];
      for (const p of frontier) {
        if (seen.has(p)) continue;
        if (!parents.has(p)) throw new Error(`concept ${c.id}: unknown parent ${p}`);
        seen.add(p);
        out.push({ id: p, depth });
        next.push(...(parents.get(p) ?? []));
      }
      frontier = next;
    }
    ancestors.set(c.id, out);
  }
  const lexiconTree = new SearchableMap<number>();
  for (const w of lexicon) lexiconTree.set(w, 1);
  const tree = new Map<string, PhraseNode>();
  for (const [phrase, links] of phrases) {
    let level = tree;
    let node: PhraseNode | undefined;
    for (const key of phrase.split(' ')) {
      node = level.get(key);
      if (!node) {
        node = { next: new Map() };
        level.set(key, node);
      }
      level = node.next;
    }
    node!.links = links;
  }
  return { words, phrases: tree, ancestors, lexicon, heads, lexiconTree, parts: new Map() };
}

let definitions: readonly ConceptDef[] = CONCEPTS;
let compiled: CompiledConcepts | undefined;

/**
 * Compiles these definitions instead of CONCEPTS from now on in this process: for the benches and
 * tests that measure what the table itself adds. Engines built before keep what they indexed.
 */
export function useConceptDefinitions(defs: readonly ConceptDef[]): void {
  definitions = defs;
  compiled = undefined;
}

export function concepts(): CompiledConcepts {
  compiled ??= compile(definitions);
  return compiled;
}

export interface ConceptHit {
  id: string;
  same: boolean;
  /** index of the first word and number of words (phrases span several) */
  start: number;
  length: number;
}

/**
 * Concepts named in a sequence of plain words: phrases first (longest wins), then single
 * words. `extra` gives more forms for a word (compound parts) looked up as single words.
 */
export function findConcepts(seq: readonly string[], extra?: (i: number) => readonly string[]): ConceptHit[] {
  const c = concepts();
  const keys = seq.map(lightKey);
  const hits: ConceptHit[] = [];
  for (let i = 0; i < keys.length; i++) {
    // The longest phrase that starts here.
    let node = c.phrases.get(keys[i]!);
    let longest: PhraseNode | undefined;
    let length = 0;
    for (let j = i + 1; node && j < keys.length; j++) {
      node = node.next.get(keys[j]!);
      if (node?.links) {
        longest = node;
        length = j - i + 1;
      }
    }
    for (const l of longest?.links ?? []) hits.push({ id: l.id, same: l.same, start: i, length });
  }
  const single = (key: string, i: number) => {
    for (const l of c.words.get(key) ?? []) hits.push({ id: l.id, same: l.same, start: i, length: 1 });
  };
  for (let i = 0; i < keys.length; i++) {
    single(keys[i]!, i);
    if (extra) for (const form of extra(i)) single(lightKey(form), i);
  }
  return hits;
}
