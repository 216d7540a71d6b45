// The baseline search quality is measured against: MiniSearch 7.2.0 (BM25+, its default k, b and d)
// over name, description and tags, with the engine's own tokenizer (rawWords), stop words and
// stemmer, prefix matching and fuzzy 0.2: what a registry gets from a well-kept library with the
// same text processing and none of the engine's matching. Its configuration is this file.
import MiniSearch from 'minisearch';
import type { SearchDoc } from '../../src/search/engine.ts';
import { isStopWord, rawWords, stem } from '../../src/search/text.ts';

export const MINISEARCH_CONFIG = {
  fields: ['name', 'description', 'tags'],
  storeFields: [],
  searchOptions: { prefix: true, fuzzy: 0.2, combineWith: 'OR' as const },
} as const;

/** Lower-cased words with camelCase parts, stop words dropped, stemmed (the engine's own steps). */
const terms = (text: string) => rawWords(text).filter((w) => !isStopWord(w)).map(stem);

/** A ranker: query text -> ids, best first, at most `k`. */
export function miniSearchBaseline(docs: SearchDoc[], k = 10): (text: string) => string[] {
  // The tokenizer and term processing are the engine's; MiniSearch gets the terms ready-made.
  const prepared = docs.map((d) => ({ id: d.id, name: terms(d.name).join(' '), description: terms(d.description).join(' '), tags: terms(d.tags.join(' ')).join(' ') }));
  const split = (text: string) => text.split(' ').filter(Boolean);
  const engine = new MiniSearch<(typeof prepared)[number]>({
    fields: [...MINISEARCH_CONFIG.fields],
    storeFields: [],
    tokenize: split,
    searchOptions: { ...MINISEARCH_CONFIG.searchOptions, tokenize: split },
  });
  engine.addAll(prepared);
  return (text) => {
    const query = terms(text).join(' ');
    return query ? engine.search(query).slice(0, k).map((r) => String(r.id)) : [];
  };
}
