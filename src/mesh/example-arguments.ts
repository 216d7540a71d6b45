// Example arguments for a tool's input schema (pure): the required properties filled with values
// the schema accepts, so a demo's ready call is valid as given. The server's own suggestions come
// first (const, the first enum value, default, the first of examples), then a value built from the
// constraints (a format's canonical example, a number within the bounds, a string drawn from the
// property's description or name within its lengths). What cannot be built without guessing (a
// string pattern with no example, an unresolvable $ref, contradictory bounds) is a placeholder
// named in `needs`. Optional properties are left out: the smallest valid call is the clearest.
// The schema is the server's (untrusted): its patterns are never run, and a walk is bounded in
// depth, in the branches of a choice or merge it follows and in its steps all told, so no schema
// (a self-referencing allOf, fractional lengths, a malformed pointer) can hold or break a demo.

type Schema = Record<string, unknown>;

export interface ExampleArguments {
  arguments: Record<string, unknown>;
  /** Paths (`a.b`) of values the caller must write: the schema constrains them in ways not filled here. */
  needs: string[];
}

/** Nesting followed at most ($ref hops included): deeper required values are left to the caller. */
const MAX_DEPTH = 8;
/** Array items built at most for a minItems. */
const MAX_ITEMS = 5;
/** Characters of a string drawn from a description or name. */
const MAX_DRAWN = 60;
/** Branches of an allOf, anyOf or oneOf followed at most. */
const MAX_BRANCHES = 10;
/** Schema nodes one call visits at most: past it, the caller writes the arguments. */
const MAX_STEPS = 5000;

/** Thrown when a walk has spent its steps; exampleArguments answers a placeholder. */
class WalkTooLong extends Error {}

let stepsLeft = MAX_STEPS;
const step = () => {
  if (--stepsLeft < 0) throw new WalkTooLong();
};

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

const FORMATS: Record<string, string> = {
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': 'https://example.com',
  iri: 'https://example.com',
  'iri-reference': 'https://example.com',
  'uri-template': 'https://example.com',
  email: 'someone@example.com',
  'idn-email': 'someone@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  'date-time': '2026-01-01T12:00:00Z',
  date: '2026-01-01',
  time: '12:00:00Z',
  duration: 'PT1M',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '/example',
  regex: 'example',
};

/** Strings for common property names, matched on the name's last word (`base_url`: url; first match wins). */
const BY_NAME: [RegExp, string][] = [
  [/\b(url|uri|link|href|endpoint|website)\b/, 'https://example.com'],
  [/\bemail\b/, 'someone@example.com'],
  [/\b(lang|language|locale)\b/, 'en'],
  [/\b(city|location|place|address)\b/, 'Paris'],
  [/\bcountry\b/, 'FR'],
  [/\bdate\b/, '2026-01-01'],
  [/\b(path|file|filename)\b/, 'example.txt'],
  [/\b(message|text|prompt|content|input|body|question|query|q|search|comment)\b/, 'Hello from Rollcall'],
];

/** A JSON pointer into the schema's root (`#/$defs/x`), or undefined. */
function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(1).split('/').filter((p) => p !== '')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // a malformed escape points nowhere
    }
    if (!isSchema(at)) return undefined;
    at = at[key];
  }
  return isSchema(at) ? at : at === true ? {} : undefined;
}

/** The property's words (camelCase, snake_case and kebab-case split), lower-case. */
const wordsOf = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase()
    .trim();

/** An example a description gives in words: `e.g. "x"`, `such as 'x'`, `for example x`, or a quoted value. */
function fromDescription(description: unknown): string | undefined {
  if (typeof description !== 'string') return undefined;
  const d = description.slice(0, 1000);
  const m =
    /(?:e\.g\.,?|for example,?|such as|example:)\s*["'`\u201c]([^"'`\u201d\n]{1,60})["'`\u201d]/i.exec(d) ??
    /(?:e\.g\.,?|for example,?|such as|example:)\s*([^\s,;)]{1,60})/i.exec(d);
  return m?.[1]?.trim() || undefined;
}

function drawnString(name: string, s: Schema): string {
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  if (format) return format;
  const described = fromDescription(s.description);
  if (described) return described;
  const words = wordsOf(name);
  const last = words.split(' ').pop() ?? '';
  const known = BY_NAME.find(([re]) => re.test(last));
  if (known) return known[1];
  return `example ${words || 'value'}`.slice(0, MAX_DRAWN).trim();
}

/** The string fitted to minLength/maxLength (counted in code points, as JSON Schema counts). */
function fitLength(value: string, s: Schema): string | undefined {
  // Whole lengths only: a fractional bound is read as the nearest whole length inside it.
  const min = typeof s.minLength === 'number' && Number.isFinite(s.minLength) ? Math.max(0, Math.ceil(s.minLength)) : 0;
  const max = typeof s.maxLength === 'number' && Number.isFinite(s.maxLength) ? Math.max(0, Math.floor(s.maxLength)) : Number.POSITIVE_INFINITY;
  if (min > max || min > 1000) return undefined;
  let chars = [...value];
  if (chars.length > max) chars = chars.slice(0, max);
  if (chars.length < min) chars = chars.concat(Array(min - chars.length).fill('x'));
  return chars.join('');
}

/** A number the bounds accept: 1 when allowed, else the nearest bound inside them. */
function boundedNumber(s: Schema, integer: boolean): number | undefined {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  // Draft 4 writes an exclusive bound as a boolean beside minimum/maximum; later drafts as a number.
  const exMin = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : s.exclusiveMinimum === true ? min : undefined;
  const exMax = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : s.exclusiveMaximum === true ? max : undefined;
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  const ok = (x: number) =>
    Number.isFinite(x) &&
    (!integer || Number.isInteger(x)) &&
    (min === undefined || x >= min) &&
    (max === undefined || x <= max) &&
    (exMin === undefined || x > exMin) &&
    (exMax === undefined || x < exMax) &&
    (step === undefined || Math.abs(x / step - Math.round(x / step)) < 1e-9);
  const low = exMin ?? min;
  const high = exMax ?? max;
  const candidates = [1, 0, 2, 10];
  for (const b of [low, high]) if (b !== undefined) candidates.push(b, b + 1, b - 1, Math.ceil(b), Math.floor(b), Math.ceil(b) + 1, Math.floor(b) - 1);
  if (low !== undefined && high !== undefined) candidates.push((low + high) / 2, Math.round((low + high) / 2));
  if (step !== undefined) {
    candidates.push(step);
    if (low !== undefined) candidates.push(step * Math.ceil(low / step), step * (Math.floor(low / step) + 1));
  }
  return candidates.find(ok);
}

/** The type the value takes: the schema's (the first non-null of a list), else what its keywords imply. */
function typeOf(s: Schema): string | undefined {
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null') ?? (t.includes('null') ? 'null' : undefined);
  if (isSchema(s.properties) || Array.isArray(s.required)) return 'object';
  if (s.items !== undefined || s.prefixItems !== undefined) return 'array';
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => typeof s[k] === 'number')) return 'number';
  return undefined;
}

/** Whether a value given by the server (default, an example) fits the type asked for. */
function fitsType(v: unknown, type: string | undefined): boolean {
  switch (type) {
    case undefined:
      return v !== undefined;
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isSchema(v);
    default:
      return false;
  }
}

/** allOf's branches merged into one schema: properties and required joined, other keywords the later's. */
function mergeAllOf(s: Schema, root: Schema, depth: number): Schema {
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...rest } = s;
  let merged: Schema = { ...rest };
  for (const raw of allOf.slice(0, MAX_BRANCHES)) {
    step();
    const branch = isSchema(raw) ? deref(raw, root, depth) : undefined;
    if (!branch) continue;
    const inner = mergeAllOf(branch, root, depth + 1);
    merged = {
      ...inner,
      ...merged,
      properties: { ...(isSchema(inner.properties) ? inner.properties : {}), ...(isSchema(merged.properties) ? merged.properties : {}) },
      required: [...(Array.isArray(inner.required) ? inner.required : []), ...(Array.isArray(merged.required) ? merged.required : [])],
    };
  }
  return merged;
}

/** The schema a $ref points at (its siblings kept), following at most MAX_DEPTH hops; undefined when unresolvable. */
function deref(s: Schema, root: Schema, depth: number): Schema | undefined {
  let at = s;
  for (let hop = depth; typeof at.$ref === 'string'; hop++) {
    step();
    if (hop > MAX_DEPTH) return undefined;
    const target = resolveRef(root, at.$ref);
    if (!target) return undefined;
    const { $ref: _ref, ...siblings } = at;
    at = { ...target, ...siblings };
  }
  return at;
}

interface Built {
  value: unknown;
  needs: string[];
}

function build(raw: unknown, name: string, path: string, root: Schema, depth: number): Built {
  const placeholder = (): Built => ({ value: `<${path}>`, needs: [path] });
  step();
  if (raw === true) return { value: drawnString(name, {}), needs: [] };
  if (!isSchema(raw) || depth > MAX_DEPTH) return placeholder();
  const resolved = deref(raw, root, depth);
  if (!resolved) return placeholder();
  const s = mergeAllOf(resolved, root, depth);
  if ('const' in s) return { value: s.const, needs: [] };
  const type = typeOf(s);
  if (Array.isArray(s.enum) && s.enum.length) {
    const first = s.enum.find((v) => fitsType(v, type)) ?? s.enum[0];
    return { value: first, needs: [] };
  }
  // OpenAPI-style schemas write one `example`; JSON Schema a list of `examples`.
  for (const v of [s.default, Array.isArray(s.examples) ? s.examples[0] : undefined, s.example]) {
    if (v !== undefined && fitsType(v, type)) return { value: v, needs: [] };
  }
  // A choice: the first branch that builds a value without the caller's help.
  for (const key of ['anyOf', 'oneOf']) {
    const branches = s[key];
    if (!Array.isArray(branches) || !branches.length) continue;
    const { [key]: _branches, ...rest } = s;
    let fallback: Built | undefined;
    for (const branch of branches.slice(0, MAX_BRANCHES)) {
      const built = build(isSchema(branch) ? { ...rest, ...branch } : branch, name, path, root, depth + 1);
      if (!built.needs.length) return built;
      fallback ??= built;
    }
    return fallback ?? placeholder();
  }
  switch (type) {
    case 'null':
      return { value: null, needs: [] };
    case 'boolean':
      return { value: false, needs: [] };
    case 'integer':
    case 'number': {
      const n = boundedNumber(s, type === 'integer');
      return n === undefined ? placeholder() : { value: n, needs: [] };
    }
    case 'array':
      return buildArray(s, name, path, root, depth);
    case 'object':
      return buildObject(s, path, root, depth);
    default: {
      // A pattern is never run here (it is the server's): without an example of its own, the caller writes the value.
      if (typeof s.pattern === 'string') return placeholder();
      const text = fitLength(drawnString(name, s), s);
      return text === undefined ? placeholder() : { value: text, needs: [] };
    }
  }
}

function buildArray(s: Schema, name: string, path: string, root: Schema, depth: number): Built {
  const min = typeof s.minItems === 'number' ? Math.max(0, Math.floor(s.minItems)) : 0;
  if (min === 0) return { value: [], needs: [] };
  if (min > MAX_ITEMS) return { value: `<${path}>`, needs: [path] };
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  const out: unknown[] = [];
  const needs: string[] = [];
  for (let i = 0; i < min; i++) {
    const item = tuple ? (tuple[i] ?? (tuple === s.items ? s.additionalItems : s.items) ?? {}) : (s.items ?? {});
    const built = build(item, name, `${path}.${i}`, root, depth + 1);
    // Unique items: a drawn string gets its index, so equal examples do not make the array invalid.
    const value = s.uniqueItems === true && typeof built.value === 'string' && out.includes(built.value) ? `${built.value} ${i + 1}` : built.value;
    out.push(value);
    needs.push(...built.needs);
  }
  return { value: out, needs };
}

function buildObject(s: Schema, path: string, root: Schema, depth: number): Built {
  const properties = isSchema(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
  const names = [...new Set(required)];
  // minProperties beyond the required ones: the declared optional properties, in order.
  const minProps = typeof s.minProperties === 'number' ? s.minProperties : 0;
  for (const name of Object.keys(properties)) if (names.length < minProps && !names.includes(name)) names.push(name);
  const value: Record<string, unknown> = {};
  const needs: string[] = [];
  for (const name of names) {
    const propSchema = name in properties ? properties[name] : isSchema(s.additionalProperties) ? s.additionalProperties : {};
    const built = build(propSchema, name, path ? `${path}.${name}` : name, root, depth + 1);
    value[name] = built.value;
    needs.push(...built.needs);
  }
  if (names.length < minProps) needs.push(path || '(arguments)');
  return { value, needs };
}

/** The smallest valid arguments for a tool's input schema (an object schema; anything else takes {}). */
export function exampleArguments(inputSchema: unknown): ExampleArguments {
  if (!isSchema(inputSchema)) return { arguments: {}, needs: [] };
  stepsLeft = MAX_STEPS;
  try {
    const built = buildObject(mergeAllOf(deref(inputSchema, inputSchema, 0) ?? {}, inputSchema, 0), '', inputSchema, 0);
    return { arguments: built.value as Record<string, unknown>, needs: built.needs };
  } catch (err) {
    if (!(err instanceof WalkTooLong)) throw err;
    return { arguments: {}, needs: ['(arguments)'] };
  }
}
