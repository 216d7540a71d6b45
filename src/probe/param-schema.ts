// What a probe keeps of one tool parameter's JSON Schema: enough for search and the score (name,
// description), and for execute_compose to know what a value must be before it calls anyone: the
// type, the choices (`enum`, a `const`, or an anyOf/oneOf of them), a `format`, a `pattern`. A
// parameter that has any of these does not take free text (src/mesh/arguments.ts). Untrusted JSON:
// every kept string is cleaned and capped, and the choices are at most MAX_CHOICES.
import { cleanText } from '../listings/text.ts';

export type Choice = string | number | boolean;

export interface ToolParam {
  name: string;
  description?: string;
  required: boolean;
  /** The JSON Schema type it names ("string" when a string is one of several, else them joined: "number|boolean"; from anyOf/oneOf branches too). */
  type?: string;
  /** The values it takes, when its schema lists them. */
  enum?: Choice[];
  /** Some listed values were not kept (too many, too long, not text, a number or a boolean): `enum` is not the whole list. */
  enum_partial?: true;
  format?: string;
  /** The regular expression its schema names, kept as text to show (never run here). */
  pattern?: string;
}

export const MAX_CHOICES = 50;
const MAX_CHOICE_CHARS = 200;
const MAX_FORMAT_CHARS = 60;
const MAX_PATTERN_CHARS = 300;
/** Nested single-branch anyOf/oneOf followed this deep (untrusted JSON). */
const MAX_DEPTH = 4;

// biome-ignore lint/suspicious/noExplicitAny: untrusted JSON, narrowed field by field where it is read
const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One type for the types a value may have (null aside): "string" when a string is one of them (text
 * fits), the type when there is one, else the types joined ("number|boolean"); undefined when any
 * type goes (an untyped branch, or none named).
 */
function oneType(types: readonly (string | undefined)[]): string | undefined {
  const named = types.filter((t) => t !== 'null');
  if (named.length === 0 || named.includes(undefined)) return undefined;
  const distinct = [...new Set(named as string[])];
  return distinct.includes('string') ? 'string' : distinct.join('|');
}

/** A JSON Schema `type`: the type it names, or one for a list of them. */
const schemaType = (type: unknown): string | undefined =>
  typeof type === 'string' ? type : Array.isArray(type) ? oneType(type.filter((t): t is string => typeof t === 'string')) : undefined;

const isNullBranch = (b: unknown) => isObj(b) && (b.type === 'null' || (Array.isArray(b.enum) && b.enum.every((v: unknown) => v === null)) || ('const' in b && b.const === null));
const listsValues = (b: unknown) => isObj(b) && (Array.isArray(b.enum) || 'const' in b);

/** The values of `enum`/`const` lists as kept: primitives only, strings that cleaning leaves as they are; null (absent) dropped. */
function choicesOf(values: unknown[]): { enum: Choice[]; partial: boolean } {
  const kept: Choice[] = [];
  let partial = false;
  for (const v of values) {
    if (v === null) continue;
    const ok = typeof v === 'number' ? Number.isFinite(v) : typeof v === 'boolean' || (typeof v === 'string' && v.length <= MAX_CHOICE_CHARS && cleanText(v, MAX_CHOICE_CHARS) === v);
    if (!ok || kept.length >= MAX_CHOICES) partial = true;
    else if (!kept.includes(v as Choice)) kept.push(v as Choice);
  }
  return { enum: kept, partial };
}

/** The schema facts of one parameter's schema `p`. */
function factsOf(p: Record<string, unknown>, depth = 0): Omit<ToolParam, 'name' | 'required' | 'description'> {
  const branches = Array.isArray(p.anyOf) ? p.anyOf : Array.isArray(p.oneOf) ? p.oneOf : undefined;
  const live = branches?.filter((b) => !isNullBranch(b)) ?? [];
  // One branch besides null (an optional or nullable value): that branch is the parameter.
  if (live.length === 1 && isObj(live[0]) && depth < MAX_DEPTH) return factsOf({ ...live[0], ...(p.type !== undefined ? { type: p.type } : {}) }, depth + 1);
  const out: Omit<ToolParam, 'name' | 'required' | 'description'> = {};
  let type = schemaType(p.type);
  let values: unknown[] | undefined = Array.isArray(p.enum) ? p.enum : 'const' in p ? [p.const] : undefined;
  if (!values && live.length > 1 && live.every(listsValues)) values = live.flatMap((b) => (Array.isArray(b.enum) ? b.enum : [b.const]));
  // Branches of several types: text fits only when one of them takes a string (or anything).
  if (type === undefined && live.length > 1) type = oneType(live.map((b) => (isObj(b) ? schemaType(b.type) : undefined)));
  if (type) out.type = cleanText(type, 20);
  if (values) {
    const c = choicesOf(values);
    out.enum = c.enum;
    if (c.partial) out.enum_partial = true;
  }
  if (typeof p.format === 'string' && p.format.trim()) out.format = cleanText(p.format, MAX_FORMAT_CHARS);
  if (typeof p.pattern === 'string' && p.pattern.trim()) out.pattern = cleanText(p.pattern, MAX_PATTERN_CHARS);
  return out;
}

/** One property of a tool's input schema as kept. */
export function toolParam(name: string, schema: unknown, required: boolean): ToolParam {
  const p = isObj(schema) ? schema : {};
  return {
    name,
    description: typeof p.description === 'string' ? p.description : undefined,
    required,
    ...factsOf(p),
  };
}
