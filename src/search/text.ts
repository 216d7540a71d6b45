// Text analysis shared by indexing and querying: normalisation, word splitting, compound
// splitting, stop words and stemming. Pure and deterministic.
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

const STOP = new Set<string>(eng);
for (const w of ["i'm", 'im', "i'd", "i've", 'ive', 'etc', 'eg', 'ie', 'via', 'also', 'like']) STOP.add(w);

/**
 * Query filler: words that say nothing about the need ("I need a tool to ...") or that every
 * entry of an MCP / agent registry matches. They are dropped from queries (not from documents).
 */
const FILLER = new Set<string>(
  (
    'need needs needed want wants wanted wanna looking look find finding help helps please something someone anything ' +
    'way ways able allow allows let lets use uses using used get gets getting make makes thing things stuff ' +
    'mcp mcps server servers tool tools toolkit protocol context integration integrations ' +
    'good best great simple easy quick quickly kind sort type can could would should will'
  ).split(/\s+/),
);

/**
 * Weak words: verbs and nouns that nearly every tool description uses ("create", "manage",
 * "data", "app"), and everyday words that say how or when but not what ("open", "keep", "right",
 * "tomorrow", "cheap"). Kept in queries but with a small weight, so a name that happens to contain
 * one ("mcp-create", "openapi", "mcp-compass ... find the right server") does not outrank what the
 * rest of the query asks for.
 */
const WEAK = new Set<string>(
  (
    'create creates creating manage manages managing management build builds building run runs running ' +
    'update updates updating add adds delete deletes remove list lists show check work works working do does handle ' +
    'access interact interacts connect connects connecting integrate integrates enable enables provide provides support supports ' +
    'data app apps application applications service services platform platforms system systems information info ' +
    'new existing different various multiple every all one two first ai agent agents assistant assistants llm llms claude ' +
    'open opens opened opening see sees seeing take takes taking keep keeps kept tell tells told read reads reading ' +
    'go goes going put puts give gives come comes start starts stop stops change changes changed turn turns try tries ' +
    'ask asks know knows known say says said right now back just found last next much many worth whole real lot lots ' +
    'own sure still already time times day days week weeks month months year years today tomorrow yesterday later ' +
    'cheap natural bunch line lines'
  ).split(/\s+/),
);

export function isWeak(word: string): boolean {
  return WEAK.has(word);
}

/** Affixes glued onto names ("ynabmcpserver", "greptimedb", "mcpxcodebuild"): split off when the rest is long enough. */
const AFFIXES = ['mcp', 'server', 'db', 'api', 'sdk', 'ai', 'hq', 'io', 'js', 'py', 'app', 'dev'];

/** Words the Porter stemmer mangles into something common ("news" -> "new"). */
const STEM_EXCEPTIONS: Record<string, string> = { news: 'news', ios: 'ios', aws: 'aws', analytics: 'analytic', data: 'data', media: 'media' };

const stemCache = new Map<string, string>();

/** Stem of one lower-case word; words with digits and very short words stay as they are. */
export function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const out = STEM_EXCEPTIONS[word] ?? (word.length <= 3 || /\d/.test(word) ? word : stemmer(word));
  if (stemCache.size > 200_000) stemCache.clear();
  stemCache.set(word, out);
  return out;
}

export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

export function isFiller(word: string): boolean {
  return FILLER.has(word);
}

/** Lower case, diacritics removed, apostrophes dropped ("company's" -> "companys" is avoided: the s goes too). */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/([\p{L}\p{N}])['’]s\b/gu, '$1')
    .replace(/['’]/g, '')
    .toLowerCase();
}

/**
 * Words of a text in order, lower case, each followed by its camelCase parts ("MongoDB" ->
 * "mongodb", "mongo", "db"). Results per chunk are cached (descriptions repeat their words).
 */
export function rawWords(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{N}'’]+/u)) {
    if (!chunk) continue;
    let words = chunkCache.get(chunk);
    if (!words) {
      words = [];
      const whole = normalize(chunk).replace(/['’]/g, '');
      if (whole) {
        words.push(whole);
        // camelCase boundaries, read before lower-casing
        if (/[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u.test(chunk)) {
          const camel = chunk
            .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
            .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
            .split(' ');
          for (const p of camel) if (p.length >= 2) words.push(normalize(p));
        }
      }
      if (chunkCache.size > 200_000) chunkCache.clear();
      chunkCache.set(chunk, words);
    }
    for (const w of words) out.push(w);
  }
  return out;
}

const chunkCache = new Map<string, string[]>();

/** Plain words of a text in order (no camelCase parts): for phrases and queries. */
export function plainWords(text: string): string[] {
  return normalize(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Splits a glued compound into known pieces: affixes at either end ("ynabmcpserver" -> ynab, mcp,
 * server) and, for the rest, two words of `lexicon` ("homeassistant" -> home, assistant) or a
 * word of `heads` and a rest. Returns [] when nothing splits.
 */
export function splitCompound(word: string, lexicon: ReadonlySet<string>, heads: ReadonlySet<string> = lexicon): string[] {
  if (word.length < 5 || /^\d+$/.test(word)) return [];
  const parts: string[] = [];
  let rest = word;
  let changed = true;
  while (changed && rest.length >= 5) {
    changed = false;
    for (const a of AFFIXES) {
      if (rest.length - a.length < 3) continue;
      if (rest.startsWith(a) && !lexicon.has(rest)) {
        parts.push(a);
        rest = rest.slice(a.length);
        changed = true;
      } else if (rest.endsWith(a) && !lexicon.has(rest)) {
        parts.push(a);
        rest = rest.slice(0, -a.length);
        changed = true;
      }
    }
  }
  if (rest.length >= 7) {
    // Two known words ("homeassistant" -> home, assistant), or a head word of 5+ letters (a
    // concept's own name) and a rest of 4+ ("cryptopanic" -> crypto, panic). Any known word is
    // not enough: "clickhouse" is not about clicking, "community" not about Unity.
    for (let i = 3; i <= rest.length - 3; i++) {
      const a = rest.slice(0, i);
      const b = rest.slice(i);
      const known = (lexicon.has(a) && lexicon.has(b)) || (a.length >= 5 && b.length >= 4 && heads.has(a));
      if (known) {
        parts.push(a, b);
        rest = '';
        break;
      }
    }
  }
  if (parts.length === 0) return [];
  if (rest) parts.push(rest);
  return parts;
}

/** Damerau-Levenshtein (optimal string alignment) distance, capped: returns max+1 past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = a.length;
  const m = b.length;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const cur: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[m]!;
}
