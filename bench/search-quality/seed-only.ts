// The vocabulary's words (src/search/concepts.ts) that the seed catalog uses and the dev catalog and
// its queries never do: what a table written while reading the seed could know that another catalog
// does not need. The table without them shows whether the engine's answers elsewhere lean on the seed.
import type { ConceptDef } from '../../src/search/concepts.ts';
import type { SearchDoc } from '../../src/search/engine.ts';
import { plainWords } from '../../src/search/text.ts';
import { lightKey } from '../../src/search/vocabulary.ts';

/** A word or phrase as the table matches it: its plain words' light keys. */
const keysOf = (text: string) => plainWords(text).map(lightKey).join(' ');

/** Every document's text as one string of light keys, documents apart, for word and phrase lookups. */
function keyedText(docs: SearchDoc[]): string {
  return ` ${docs.map((d) => keysOf([d.name, d.title ?? '', d.description, ...d.capabilities, ...d.tags].join(' '))).join(' | ')} `;
}

const members = (list: string | undefined) => (list ?? '').split(',').map((m) => m.trim()).filter((m) => keysOf(m) !== '');

/**
 * The table without the words and phrases `seed` uses and neither `other` nor the queries asked of
 * it (`otherQueries`: a word its users type is not the seed's alone), and what was taken out.
 */
export function withoutSeedOnly(defs: readonly ConceptDef[], seed: SearchDoc[], other: SearchDoc[], otherQueries: readonly string[] = []): { defs: ConceptDef[]; removed: string[] } {
  const inSeed = keyedText(seed);
  const inOther = `${keyedText(other)}| ${otherQueries.map(keysOf).join(' | ')} `;
  const removed = new Set<string>();
  const keep = (m: string) => {
    const k = ` ${keysOf(m)} `;
    if (inSeed.includes(k) && !inOther.includes(k)) {
      removed.add(m);
      return false;
    }
    return true;
  };
  const out = defs.map((d) => ({ ...d, same: members(d.same).filter(keep).join(', '), ...(d.rel !== undefined ? { rel: members(d.rel).filter(keep).join(', ') } : {}) }));
  return { defs: out, removed: [...removed].sort() };
}
