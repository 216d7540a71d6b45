// Validates a JSON value against a CDDL (RFC 8610) rule, for schemas published only as CDDL (the
// AI Catalog's). The `cddl` package parses; this walks its AST for what such schemas use: maps with
// required, optional (`?`) and repeated (`* text => any`) members, group choices (`a // b`),
// arrays (`[* Rule]`), rule references and the prelude types text, tdate, uint, int, number, bool
// and any. CDDL maps are closed: a member no rule names is an error. Anything else the AST holds
// fails loudly, so a newer schema cannot pass by being misread.
import { parse } from 'cddl';

type Occurrence = { n: number; m: number };
type Prop = { HasCut: boolean; Occurrence: Occurrence; Name: string; Type: unknown };
type Group = { Type: 'group'; Name: string; Properties: (Prop | Prop[])[] };
type Rules = Map<string, Group>;

const PRELUDE: Record<string, (v: unknown) => boolean> = {
  text: (v) => typeof v === 'string',
  tstr: (v) => typeof v === 'string',
  tdate: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
  uint: (v) => Number.isInteger(v) && (v as number) >= 0,
  int: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  bool: (v) => typeof v === 'boolean',
  any: () => true,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The problems of `value` against one type of a member (a list of alternatives: any may match). */
function checkTypes(types: unknown, value: unknown, rules: Rules, path: string): string[] {
  const alternatives = Array.isArray(types) ? types : [types];
  let first: string[] | undefined;
  for (const t of alternatives) {
    const problems = checkType(t, value, rules, path);
    if (!problems.length) return [];
    first ??= problems;
  }
  return first ?? [`${path}: no type`];
}

function checkType(t: unknown, value: unknown, rules: Rules, path: string): string[] {
  if (typeof t === 'string') {
    const prim = PRELUDE[t];
    if (!prim) throw new Error(`cddl helper: unsupported type ${t}`);
    return prim(value) ? [] : [`${path}: expected ${t}, got ${JSON.stringify(value)}`];
  }
  const node = t as { Type: string; Value?: string; Name?: string; Properties?: (Prop | Prop[])[]; Values?: Prop[] };
  if (node.Type === 'group' && node.Value !== undefined && PRELUDE[node.Value]) return checkType(node.Value, value, rules, path);
  if (node.Type === 'group' && node.Value !== undefined) {
    const rule = rules.get(node.Value);
    if (!rule) throw new Error(`cddl helper: unknown rule ${node.Value}`);
    return checkMap(rule.Properties, value, rules, path);
  }
  if (node.Type === 'group' && node.Properties) return checkMap(node.Properties, value, rules, path);
  if (node.Type === 'array' && node.Values) {
    if (!Array.isArray(value)) return [`${path}: expected an array`];
    const [item] = node.Values;
    if (node.Values.length !== 1 || !item || Number.isFinite(item.Occurrence.m)) throw new Error('cddl helper: only [* Rule] arrays are supported');
    return value.flatMap((v, i) => checkTypes(item.Type, v, rules, `${path}[${i}]`));
  }
  throw new Error(`cddl helper: unsupported node ${JSON.stringify(node).slice(0, 120)}`);
}

/** A map against its members; every key of the value must be claimed by one. */
function checkMap(props: (Prop | Prop[])[], value: unknown, rules: Rules, path: string): string[] {
  if (!isObject(value)) return [`${path}: expected a map`];
  const problems: string[] = [];
  const claimed = new Set<string>();
  let wildcard: Prop | undefined;
  const member = (p: Prop) => {
    if (!p.HasCut && !Number.isFinite(p.Occurrence.m) && PRELUDE[p.Name]) {
      wildcard = p; // `* text => any`: any further key of that type
      return;
    }
    claimed.add(p.Name);
    if (!(p.Name in value)) {
      if (p.Occurrence.n > 0) problems.push(`${path}: missing ${p.Name}`);
      return;
    }
    problems.push(...checkTypes(p.Type, value[p.Name], rules, `${path}.${p.Name}`));
  };
  const walk = (list: (Prop | Prop[])[]) => {
    for (const p of list) {
      if (Array.isArray(p)) {
        // A group choice: exactly one of its members.
        const present = p.filter((alt) => alt.Name in value);
        for (const alt of p) claimed.add(alt.Name);
        if (present.length !== 1) problems.push(`${path}: exactly one of ${p.map((a) => a.Name).join(', ')} (found ${present.length})`);
        for (const alt of present) problems.push(...checkTypes(alt.Type, value[alt.Name], rules, `${path}.${alt.Name}`));
      } else if (p.Name === '' && isObject(p.Type) && (p.Type as unknown as Group).Properties) {
        walk((p.Type as unknown as Group).Properties); // an inline group: its members are the map's
      } else {
        member(p);
      }
    }
  };
  walk(props);
  for (const key of Object.keys(value)) {
    if (claimed.has(key)) continue;
    if (wildcard && PRELUDE[wildcard.Name]!(key)) problems.push(...checkTypes(wildcard.Type, value[key], rules, `${path}.${key}`));
    else problems.push(`${path}: ${key} is not a member`);
  }
  return problems;
}

/** A validator for `rule` of the CDDL file at `file`: it answers the problems found, none when valid. */
export function cddlValidator(file: string, rule: string): (value: unknown) => string[] {
  const rules: Rules = new Map((parse(file) as unknown as Group[]).map((r) => [r.Name, r]));
  if (!rules.has(rule)) throw new Error(`cddl helper: no rule ${rule} in ${file}`);
  return (value) => checkType({ Type: 'group', Value: rule }, value, rules, '$');
}
