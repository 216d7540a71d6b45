// The shell examples of the documents, read the way test/doc-examples.test.ts runs them. A fenced
// `sh` (or `bash`) block is one of three kinds, told by its first line:
//   `# not run by the tests: <why>`   shown only; the reason is visible in the document;
//   `# terminal N, runs until Ctrl-C: <what>`   a server the reader starts in a terminal of its own:
//       the test starts it in the background and waits until its port answers;
//   `# needs <program> on the PATH: <what>`   run like any other where the program is installed
//       (CI installs it: a missing one fails there); elsewhere left out, said in the test's output;
//   anything else   run in order in one bash session per document, each command required to exit 0.
// A `# -> ...` line after a command says what it prints (on stdout; `# stderr: ...` on stderr).
// When it holds `"key": value` pairs, each pair whose value is written out in full is looked for in
// the JSON printed; otherwise the line is matched as text. `...` stands for anything, in both.

export type BlockKind = 'run' | 'background' | 'skipped';

export interface Expectation {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** A stretch of a block that ends after the lines saying what it printed. */
export interface Unit {
  line: number;
  code: string;
  expect: Expectation[];
}

export interface Block {
  file: string;
  line: number;
  kind: BlockKind;
  /** The block's text, common indentation removed. */
  text: string;
  /** For a skipped block, why; for a background block, what it starts. */
  note: string;
  /** A program the block runs that a machine may lack (`# needs <program> on the PATH: ...`). */
  needs?: string;
  units: Unit[];
}

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
const SKIP = /^#\s*not run by the tests:\s*(.*)$/;
const BACKGROUND = /^#\s*terminal \d+, runs until Ctrl-C:\s*(.*)$/;
const EXPECT = /^#\s*(->|stderr:)\s?(.*)$/;
const NEEDS = /^#\s*needs (\S+) on the PATH:\s*(.*)$/;

/** The fenced shell blocks of a Markdown document. */
export function shellBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    let end = i + 1;
    while (end < lines.length && !(lines[end]!.trim().startsWith(fence) && lines[end]!.trim().replace(/[`~]/g, '') === '')) end++;
    const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()));
    if (SHELL.has(lang.toLowerCase())) blocks.push(classify(file, i + 2, body));
    i = end;
  }
  return blocks;
}

function classify(file: string, line: number, body: string[]): Block {
  const text = body.join('\n');
  const first = body[0]?.trim() ?? '';
  const skip = SKIP.exec(first);
  if (skip) return { file, line, kind: 'skipped', text, note: skip[1]!.trim(), units: [] };
  const background = BACKGROUND.exec(first);
  if (background) return { file, line, kind: 'background', text, note: background[1]!.trim(), units: [] };
  const needs = NEEDS.exec(first);
  return { file, line, kind: 'run', text, note: needs?.[2]?.trim() ?? '', ...(needs ? { needs: needs[1]! } : {}), units: units(line, body) };
}

/** Splits a block after each run of `# ->` lines, so each expectation is checked on what its commands printed. */
function units(line: number, body: string[]): Unit[] {
  const out: Unit[] = [];
  let code: string[] = [];
  let expect: Expectation[] = [];
  let start = line;
  const flush = (at: number) => {
    if (code.some((l) => l.trim() && !l.trim().startsWith('#'))) out.push({ line: start, code: code.join('\n'), expect });
    code = [];
    expect = [];
    start = at;
  };
  body.forEach((l, k) => {
    const e = EXPECT.exec(l.trim());
    if (e) {
      expect.push({ stream: e[1] === '->' ? 'stdout' : 'stderr', text: e[2]!.trim() });
      return;
    }
    if (expect.length) flush(line + k);
    code.push(l);
  });
  flush(line + body.length);
  return out;
}

/** The commands a background block runs (comments dropped). */
export const commandOf = (block: Block): string =>
  block.text
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .join('\n');

// ---------------------------------------------------------------- what was printed

const PAIR = /"([^"\\]+)":\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/g;

/** The `"key": value` pairs an expectation states in full (a value holding `...` is a pattern). */
export function statedPairs(text: string): { key: string; value: unknown; pattern?: RegExp }[] {
  const pairs: { key: string; value: unknown; pattern?: RegExp }[] = [];
  for (const m of text.matchAll(PAIR)) {
    const value = JSON.parse(m[2]!) as unknown;
    if (typeof value === 'string' && value.includes('...')) pairs.push({ key: m[1]!, value, pattern: wildcard(value, true) });
    else pairs.push({ key: m[1]!, value });
  }
  return pairs;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `...` as anything; whole: the pattern must cover the whole text. */
export function wildcard(text: string, whole = false): RegExp {
  const body = text.split('...').map(escapeRegExp).join('[\\s\\S]*');
  return new RegExp(whole ? `^${body}$` : body);
}

/** The JSON values printed one after another (curl prints no newline after a body). */
export function jsonValues(out: string): unknown[] {
  const values: unknown[] = [];
  let i = 0;
  while (i < out.length) {
    while (i < out.length && /\s/.test(out[i]!)) i++;
    if (i >= out.length) break;
    const end = valueEnd(out, i);
    if (end < 0) return values;
    try {
      values.push(JSON.parse(out.slice(i, end)));
    } catch {
      return values;
    }
    i = end;
  }
  return values;
}

function valueEnd(s: string, from: number): number {
  const open = s[from];
  if (open !== '{' && open !== '[') {
    const m = /^("(?:[^"\\]|\\.)*"|[^\s{}[\]"]+)/.exec(s.slice(from));
    return m ? from + m[0].length : -1;
  }
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Every key and value anywhere in the printed JSON. */
function pairsIn(value: unknown, into: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(value)) for (const v of value) pairsIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.push([k, v]);
      pairsIn(v, into);
    }
  }
  return into;
}

// A `# ->` line that is JSON, with `...` for "and more" (in an object, an array, or a string), is
// matched by shape: the printed JSON (or a value inside it) must have the keys and values written,
// and, where no `...` says more, no others.

type Shape =
  | { t: 'object'; open: boolean; members: [string, Shape][] }
  | { t: 'array'; open: boolean; items: Shape[] }
  | { t: 'any' }
  | { t: 'text'; pattern: RegExp }
  | { t: 'value'; value: unknown };

/** The shape an expectation writes, or undefined when it is not JSON with `...`. */
export function shapeOf(text: string): Shape | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const value = (): Shape => {
    ws();
    if (text.startsWith('...', i)) {
      i += 3;
      return { t: 'any' };
    }
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      let open = false;
      const members: [string, Shape][] = [];
      const items: Shape[] = [];
      ws();
      while (text[i] !== close) {
        ws();
        if (text.startsWith('...', i)) {
          i += 3;
          open = true;
        } else if (c === '{') {
          const key = value();
          if (key.t !== 'value' || typeof key.value !== 'string') throw new Error('key');
          ws();
          if (text[i++] !== ':') throw new Error(':');
          members.push([key.value, value()]);
        } else items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== close) throw new Error(close);
        ws();
      }
      i++;
      return c === '{' ? { t: 'object', open, members } : { t: 'array', open, items };
    }
    const m = /^("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!m) throw new Error('value');
    i += m[0].length;
    const v = JSON.parse(m[0]) as unknown;
    return typeof v === 'string' && v.includes('...') ? { t: 'text', pattern: wildcard(v, true) } : { t: 'value', value: v };
  };
  try {
    const shape = value();
    ws();
    return i === text.length && (shape.t === 'object' || shape.t === 'array') ? shape : undefined;
  } catch {
    return undefined;
  }
}

function fits(shape: Shape, v: unknown): boolean {
  switch (shape.t) {
    case 'any':
      return true;
    case 'text':
      return typeof v === 'string' && shape.pattern.test(v);
    case 'value':
      return JSON.stringify(v) === JSON.stringify(shape.value);
    case 'array': {
      if (!Array.isArray(v)) return false;
      if (!shape.open) return v.length === shape.items.length && shape.items.every((s, k) => fits(s, v[k]));
      let k = 0;
      for (const s of shape.items) {
        while (k < v.length && !fits(s, v[k])) k++;
        if (k++ >= v.length) return false;
      }
      return true;
    }
    case 'object': {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
      const o = v as Record<string, unknown>;
      if (!shape.open && Object.keys(o).length !== shape.members.length) return false;
      return shape.members.every(([key, s]) => key in o && fits(s, o[key]));
    }
  }
}

function anywhere(shape: Shape, v: unknown): boolean {
  if (fits(shape, v)) return true;
  if (v && typeof v === 'object') return Object.values(v).some((x) => anywhere(shape, x));
  return false;
}

/** What an expectation found missing in what was printed (empty when it holds). */
export function unmet(expectation: Expectation, printed: string): string[] {
  const shape = shapeOf(expectation.text);
  if (shape) return jsonValues(printed).some((v) => anywhere(shape, v)) ? [] : [`nothing printed has the shape ${expectation.text}`];
  const stated = statedPairs(expectation.text);
  if (stated.length === 0) return wildcard(expectation.text).test(printed) ? [] : [`no match for: ${expectation.text}`];
  const found = jsonValues(printed).flatMap((v) => pairsIn(v));
  return stated
    .filter(({ key, value, pattern }) => !found.some(([k, v]) => k === key && (pattern ? typeof v === 'string' && pattern.test(v) : JSON.stringify(v) === JSON.stringify(value))))
    .map(({ key, value }) => `no "${key}": ${JSON.stringify(value)} in what was printed`);
}
