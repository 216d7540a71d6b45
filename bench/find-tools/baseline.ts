// The ranking find_tools had before it scored and weighed intents, kept as the bench's baseline:
// MiniSearch over each tool's name (in words), title, description and its toolset's purpose, stop
// words dropped and terms stemmed, name x3, title x2, purpose x0.5, fuzzy 0.1, OR. Its
// configuration is this file.
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import type { AnyOperation } from '../../src/platform/operation.ts';
import { TOOLSET_PURPOSE, type ToolsetName, toolsetOf } from '../../src/http/mcp-toolsets.ts';

const STOP = new Set<string>(eng);

/** A ranker: need -> tool names, best first, at most `k`. */
export function findToolsBaseline(catalog: readonly AnyOperation[], k = 5): (need: string) => string[] {
  const cards = catalog
    .filter((op) => op.tool !== false)
    .flatMap((op) => [op.name, ...(op.aliases ?? [])].map((tool) => ({ tool, title: op.title ?? tool, description: op.description, toolset: toolsetOf(tool) ?? '' })));
  const index = new MiniSearch<(typeof cards)[number] & { words: string; purpose: string }>({
    idField: 'tool',
    fields: ['words', 'title', 'description', 'purpose'],
    storeFields: [],
    processTerm: (term) => (STOP.has(term.toLowerCase()) ? null : stemmer(term.toLowerCase())),
    searchOptions: { boost: { words: 3, title: 2, purpose: 0.5 }, fuzzy: 0.1, combineWith: 'OR' },
  });
  index.addAll(cards.map((c) => ({ ...c, words: c.tool.replaceAll('_', ' '), purpose: c.toolset ? TOOLSET_PURPOSE[c.toolset as ToolsetName] : '' })));
  return (need) => index.search(need).slice(0, k).map((h) => String(h.id));
}
