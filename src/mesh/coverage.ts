// Pure helpers of the mesh: the capabilities a caller asks for (cleaned, checked), the words of a
// capability, the rule that says whether a search hit on one of a listing's skills or tools
// really covers an asked capability, and the split of a goal into needs. Rules and why:
// docs/decisions/mesh-coverage.md.
import { badRequest } from '../platform/errors.ts';
import { cleanText } from '../listings/text.ts';
import { queryProblem } from '../search/engine.ts';
import { isFiller, isStopWord, plainWords, stem } from '../search/text.ts';

/** At most this many capabilities per call (each leaves a demand trace; each is one search). */
export const MAX_CAPABILITIES = 10;
export const MAX_CAPABILITY_CHARS = 200;

/** A skill (agents) or tool (MCPs) as the prober stored it on the listing. */
export interface StoredItem {
  name: string;
  title?: string;
  description?: string;
  tags?: string[];
  /** With what each parameter's schema says a value must be, as far as the probe recorded it. */
  params: StoredParam[];
}

export interface StoredParam {
  name: string;
  required: boolean;
  description?: string;
  type?: string;
  /** The values it takes (its schema's enum or const), as the probe kept them. */
  enum?: Choice[];
  /** `enum` is not the whole list (the probe kept at most 50 short values). */
  enum_partial?: boolean;
  format?: string;
  pattern?: string;
}

export type Choice = string | number | boolean;

const isChoice = (v: unknown): v is Choice => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** One stored parameter read back: what its schema says a value must be, when the probe recorded it. */
function storedParam(p: { name: string; required?: unknown; description?: unknown; type?: unknown; enum?: unknown; enum_partial?: unknown; format?: unknown; pattern?: unknown }): StoredParam {
  return {
    name: p.name,
    required: p.required === true,
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
    ...(typeof p.type === 'string' ? { type: p.type } : {}),
    ...(Array.isArray(p.enum) ? { enum: p.enum.filter(isChoice) } : {}),
    ...(p.enum_partial === true ? { enum_partial: true } : {}),
    ...(typeof p.format === 'string' ? { format: p.format } : {}),
    ...(typeof p.pattern === 'string' ? { pattern: p.pattern } : {}),
  };
}


/** What the demo shows of a tool or skill beyond search's fields, as the prober stored it. */
export interface StoredDetails {
  /** A tool's annotations (title and behaviour hints). */
  annotations?: Record<string, string | boolean>;
  /** A tool's input schema, exactly as served (absent when too large to keep, or stored before it was kept). */
  input_schema?: Record<string, unknown>;
  /** A skill's example requests. */
  examples?: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseItems(stored: string | null): { items?: Record<string, unknown>[]; names?: string[] } {
  if (!stored) return {};
  try {
    const parsed = JSON.parse(stored) as { names?: unknown; items?: unknown };
    if (Array.isArray(parsed.items)) return { items: parsed.items.filter((i): i is Record<string, unknown> => isRecord(i) && typeof i.name === 'string') };
    if (Array.isArray(parsed.names)) return { names: parsed.names.filter((n): n is string => typeof n === 'string') };
  } catch {
    // an unreadable row offers nothing
  }
  return {};
}

function itemOf(i: Record<string, unknown>): StoredItem {
  return {
    name: String(i.name),
    ...(typeof i.title === 'string' ? { title: i.title } : {}),
    ...(typeof i.description === 'string' ? { description: i.description } : {}),
    ...(Array.isArray(i.tags) ? { tags: i.tags.filter((t): t is string => typeof t === 'string') } : {}),
    params: Array.isArray(i.params) ? i.params.filter((p): p is Parameters<typeof storedParam>[0] => isRecord(p) && typeof p.name === 'string').map(storedParam) : [],
  };
}

/** The listing's stored skills or tools; bare names when only names were kept; [] when unprobed or unreadable. */
export function storedItems(stored: string | null): StoredItem[] {
  const { items, names } = parseItems(stored);
  return items ? items.map(itemOf) : (names ?? []).map((name) => ({ name, params: [] }));
}

/** The stored items with what the demo shows of each (annotations, input schema, examples). */
export function storedItemsWithDetails(stored: string | null): (StoredItem & StoredDetails)[] {
  const { items, names } = parseItems(stored);
  if (!items) return (names ?? []).map((name) => ({ name, params: [] }));
  return items.map((i) => {
    const annotations = isRecord(i.annotations)
      ? Object.fromEntries(Object.entries(i.annotations).filter((e): e is [string, string | boolean] => typeof e[1] === 'string' || typeof e[1] === 'boolean'))
      : undefined;
    const examples = Array.isArray(i.examples) ? i.examples.filter((e): e is string => typeof e === 'string' && e !== '') : [];
    return {
      ...itemOf(i),
      ...(annotations && Object.keys(annotations).length ? { annotations } : {}),
      ...(isRecord(i.input_schema) ? { input_schema: i.input_schema } : {}),
      ...(examples.length ? { examples } : {}),
    };
  });
}

/** The capability as compared everywhere (traces, dedupe): cleaned, lower-case, single spaces. */
export const canonicalCapability = (c: string): string => cleanText(c, MAX_CAPABILITY_CHARS).toLowerCase();

/**
 * The asked capabilities, cleaned and deduplicated in the caller's order. One string is split at
 * commas and semicolons. A capability the search engine cannot read (empty, only common words)
 * is a 400 naming its position; more than MAX_CAPABILITIES is a 400 too.
 */
export function askedCapabilities(raw: string | string[] | undefined, field = 'capabilities'): string[] {
  if (raw === undefined) return [];
  const list = typeof raw === 'string' ? raw.split(/[,;]/) : raw;
  const out: string[] = [];
  list.forEach((entry, i) => {
    const c = canonicalCapability(entry);
    const at = typeof raw === 'string' ? field : `${field}.${i}`;
    if (c === '') {
      if (typeof raw === 'string') return; // "a, , b": an empty piece of a list in one string says nothing
      throw badRequest('invalid_input', 'a capability is empty: name what the partner should do, e.g. "translate text"', at);
    }
    const problem = queryProblem(c);
    if (problem) throw badRequest('invalid_input', `capability ${JSON.stringify(c)}: ${problem}`, at);
    if (!out.includes(c)) out.push(c);
  });
  if (out.length === 0) throw badRequest('invalid_input', 'name at least one capability, e.g. ["translate text", "send email"]', field);
  if (out.length > MAX_CAPABILITIES) throw badRequest('invalid_input', `at most ${MAX_CAPABILITIES} capabilities per call (got ${out.length})`, field);
  return out;
}

const meaningful = (w: string) => (w.length >= 2 || /\d/.test(w)) && !isStopWord(w) && !isFiller(w);

/** The stems of a capability's meaningful words (what the search engine groups a query by). */
export function capabilityStems(capability: string): string[] {
  return [...new Set(plainWords(capability).filter(meaningful).map(stem))];
}

/** A text's meaningful words, one per stem, in order. */
export function meaningfulWords(text: string): string[] {
  const seen = new Set<string>();
  return plainWords(text).filter((w) => {
    if (!meaningful(w) || seen.has(stem(w))) return false;
    seen.add(stem(w));
    return true;
  });
}

/**
 * Stems of the query words a hit's `why` accounts for directly: the word itself, its spelling fix,
 * completion or synonym. A match only through a broader or related concept ("postgres -> sql
 * (broader)") accounts for nothing: such a partner does something else.
 */
export function accountedStems(why: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const line of why) {
    if (/\((broader|related)\)$/.test(line)) continue;
    const typed = line.split(' → ')[0]!.replace(/\s*\((synonym|spelling|prefix)\)$/, '');
    for (const w of plainWords(typed)) out.add(stem(w));
  }
  return out;
}

/**
 * Whether a hit covers the capability: the match accounts for every meaningful word, with one
 * miss allowed per three words ("translate text to french" is covered by a translator that does
 * not say "french"; "send email" is not covered by "send_sms").
 */
export function covers(capability: string, why: readonly string[]): boolean {
  const stems = capabilityStems(capability);
  if (stems.length === 0) return false;
  const got = accountedStems(why);
  const matched = stems.filter((s) => got.has(s)).length;
  return matched >= stems.length - Math.floor(stems.length / 3);
}

/**
 * A goal in needs: split at punctuation and at the words that join two needs ("and", "then", ...);
 * pieces the search engine cannot read (no meaningful word) are dropped. At most MAX_CAPABILITIES.
 */
export function goalNeeds(goal: string): string[] {
  const pieces = cleanText(goal, 2000)
    .split(/[,;.!?:\n]+|\s+(?:and|then|plus|also|or|while|after that|afterwards)\s+/i)
    .map((p) => p.trim())
    .filter((p) => p !== '' && queryProblem(p) === undefined);
  return [...new Set(pieces.map((p) => p.toLowerCase().slice(0, MAX_CAPABILITY_CHARS)))].slice(0, MAX_CAPABILITIES);
}
