// The arguments of a composition's MCP calls (execute_compose): what the caller gives, what the
// text running through the chain fills, and what is still missing. The caller's values are keyed
// by step number ("1") or tool name ("get-sum"); a tool's key wins over its step's. The text (the
// run's `input` for the first call, then each answer) fills one open required parameter that
// takes free text: a string or untyped one with no enum or const, no format and no pattern,
// text-like names first. Any other parameter (a choice, a number, an integer, a boolean, a
// formatted or patterned string, an array or object) is never filled with text: only the caller
// can give it, and its value is checked against the schema the probe recorded (type, choices,
// well-known formats) before anything is charged. Pure: the checks before a run is charged, the
// run itself and the hints that lead to it all read these, so what a hint asks for is exactly what
// the run needs.
import type { Choice, StoredParam } from './coverage.ts';
import type { CompositionStep, PlannedCall } from './store.ts';

export type ArgValue = string | number | boolean;
/** The caller's values: step number or tool name -> parameter -> value. */
export type GivenArguments = Record<string, Record<string, ArgValue>>;

/** A parameter the caller must give, as the partner's input schema describes it (its choices, format or pattern when it has them). */
export interface ParamNeed {
  name: string;
  type?: string;
  description?: string;
  enum?: Choice[];
  enum_partial?: boolean;
  format?: string;
  pattern?: string;
}

/** One call's missing parameters. */
export interface CallNeeds {
  step: number;
  listing_id: string;
  tool: string;
  needs: ParamNeed[];
}

/** What a run needs before it can start: text for its first call, and parameters per call. */
export interface RunNeeds {
  input: boolean;
  calls: CallNeeds[];
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Parameter names that usually take the text a tool works on, most likely first. */
const TEXT_PARAMS = ['text', 'message', 'input', 'query', 'prompt', 'content', 'body', 'document', 'q'];

export const toolOf = (call: PlannedCall): string => String((call.params as { name?: unknown }).name ?? '');

const isPlaceholder = (v: unknown, name: string) => v === `<${name}>`;
/** Whether the text may fill the parameter: free text only (a plain string, or untyped, with no choices, format or pattern). */
export const takesFreeText = (p: StoredParam | undefined): boolean =>
  p === undefined || ((p.type === undefined || p.type === 'string') && p.enum === undefined && p.format === undefined && p.pattern === undefined);
const textRank = (name: string) => {
  const i = TEXT_PARAMS.indexOf(name.toLowerCase());
  return i < 0 ? TEXT_PARAMS.length : i;
};
/** What the caller is told of a parameter it must give: its schema's type, description, choices, format and pattern. */
export const needOf = (name: string, p: StoredParam | undefined): ParamNeed => ({
  name,
  ...(p?.type ? { type: p.type } : {}),
  ...(p?.description ? { description: p.description } : {}),
  ...(p?.enum ? { enum: p.enum } : {}),
  ...(p?.enum_partial ? { enum_partial: true } : {}),
  ...(p?.format ? { format: p.format } : {}),
  ...(p?.pattern ? { pattern: p.pattern } : {}),
});

const choiceList = (choices: readonly Choice[], partial?: boolean) => `${choices.map((c) => JSON.stringify(c)).join(', ')}${partial ? ', ...' : ''}`;

/** A parameter in words: `"a" (number: "First number")`, `"messageType" (string, one of "error", "success": "Type of message")`. */
function paramInWords(n: ParamNeed): string {
  const wants = [
    n.type,
    n.enum ? `one of ${choiceList(n.enum, n.enum_partial)}` : undefined,
    n.format ? `format ${n.format}` : undefined,
    n.pattern ? `matching the pattern ${JSON.stringify(n.pattern)}` : undefined,
  ].filter(Boolean);
  const parts = [wants.join(', '), n.description && JSON.stringify(n.description)].filter(Boolean);
  return `${JSON.stringify(n.name)}${parts.length ? ` (${parts.join(': ')})` : ''}`;
}

/** The caller's values for one call of `step`: the step's, then the tool's over them; only parameters the tool declares, when it declares any. */
export function valuesFor(call: PlannedCall, step: number, given: GivenArguments): Record<string, ArgValue> {
  const merged = { ...(given[String(step)] ?? {}), ...(given[toolOf(call)] ?? {}) };
  const declared = call.parameters ?? [];
  if (!declared.length) return merged;
  return Object.fromEntries(Object.entries(merged).filter(([name]) => declared.some((p) => p.name === name)));
}

export type Filled = { args: Record<string, unknown> } | { missing: ParamNeed[]; wantsText: boolean };

/**
 * A call's arguments: the plan's, the caller's over them, then `text` in the open text parameter.
 * `text` undefined: no text reaches this call (the first call of a run without input); a call that
 * would take it then `wantsText`. Anything else still open is `missing`.
 */
export function fillArguments(call: PlannedCall, values: Record<string, ArgValue>, text: string | undefined): Filled {
  const planned = ((call.params as { arguments?: Record<string, unknown> }).arguments ?? {}) as Record<string, unknown>;
  const args: Record<string, unknown> = { ...planned, ...values };
  const declared = call.parameters ?? [];
  const param = (name: string) => declared.find((p) => p.name === name);
  const required = declared.filter((p) => p.required).map((p) => p.name);
  for (const name of Object.keys(planned)) if (!required.includes(name)) required.push(name);
  const open = required.filter((n) => args[n] === undefined || isPlaceholder(args[n], n));
  const textParam = open.filter((n) => takesFreeText(param(n))).sort((a, b) => textRank(a) - textRank(b))[0];
  const missing = open.filter((n) => n !== textParam).map((n) => needOf(n, param(n)));
  const wantsText = textParam !== undefined && text === undefined;
  if (missing.length || wantsText) return { missing, wantsText };
  if (textParam !== undefined) args[textParam] = text;
  return { args };
}

/**
 * What a run of `steps` needs before it starts, with `given` values and with or without `input`.
 * Only the steps `runs` keeps are looked at (a partner no longer Live is skipped, not called).
 * The first call gets the input; every later one gets the answer before it.
 */
export function runNeeds(steps: readonly CompositionStep[], given: GivenArguments, hasInput: boolean, runs: (s: CompositionStep) => boolean = () => true): RunNeeds {
  const out: RunNeeds = { input: false, calls: [] };
  let first = true;
  for (const step of steps) {
    if (!runs(step)) continue;
    for (const call of step.calls) {
      const text = first && !hasInput ? undefined : 'text';
      if (call.protocol === 'a2a') {
        if (text === undefined) out.input = true;
      } else {
        const filled = fillArguments(call, valuesFor(call, step.step, given), text);
        if ('missing' in filled) {
          if (filled.wantsText) out.input = true;
          if (filled.missing.length) out.calls.push({ step: step.step, listing_id: step.listing_id, tool: toolOf(call), needs: filled.missing });
        }
      }
      first = false;
    }
  }
  return out;
}

/** The fields a caller writes for `needs` (next_step `needs`): `input` and `arguments.<step>.<parameter>`. */
export const neededFields = (needs: RunNeeds): string[] => [...(needs.input ? ['input'] : []), ...needs.calls.flatMap((c) => c.needs.map((n) => `arguments.${c.step}.${n.name}`))];

/** What the caller must write, in words (a partner's parameter descriptions quoted as data). */
export function needsInWords(needs: RunNeeds): string {
  const calls = needs.calls.map((c) => `step ${c.step}'s tool ${JSON.stringify(c.tool)} needs ${c.needs.map(paramInWords).join(', ')}`);
  return [...(needs.input ? ['the first step needs text: give input'] : []), ...calls].join('; ');
}

/** A value's place in `argumentsShape`: `<number>`, or its choices `<"error" | "success">` (the first few). */
const valueShape = (n: ParamNeed) =>
  n.enum?.length ? `<${n.enum.slice(0, 5).map((c) => JSON.stringify(c)).join(' | ')}${n.enum.length > 5 || n.enum_partial ? ' | ...' : ''}>` : `<${n.type ?? 'value'}>`;

/** The shape of `arguments` that supplies `needs`, in words: `{"1": {"a": <number>, "b": <number>}}`. */
export const argumentsShape = (needs: RunNeeds): string =>
  `{${[...new Set(needs.calls.map((c) => c.step))].map((step) => `"${step}": {${needs.calls.filter((c) => c.step === step).flatMap((c) => c.needs).map((n) => `"${n.name}": ${valueShape(n)}`).join(', ')}}`).join(', ')}}`;

/** The caller's value as the parameter's type takes it (a number written as text becomes the number), or why it cannot be. */
export function typedValue(value: ArgValue, type: string | undefined): { value: ArgValue } | { problem: string } {
  if (type === 'number' || type === 'integer') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) return { problem: `must be ${type === 'integer' ? 'a whole number' : 'a number'}` };
    return { value: n };
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return { value };
    if (value === 'true' || value === 'false') return { value: value === 'true' };
    return { problem: 'must be true or false' };
  }
  if (type === 'string') return { value: String(value) };
  return { value };
}

/** Formats whose shape is checked here (others are the partner's to check). */
const FORMATS: Record<string, (v: string) => boolean> = {
  uri: (v) => URL.canParse(v),
  url: (v) => URL.canParse(v),
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && Number.isFinite(Date.parse(v)),
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && Number.isFinite(Date.parse(v)),
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
};

/**
 * The caller's value as the parameter's schema takes it: its type, one of its choices (written as
 * text or not: "2" is the choice 2), a well-known format. A pattern is not run here (it is the
 * partner's, and a regular expression from elsewhere could take unbounded time): the partner checks
 * it, and refusing the value marks nobody.
 */
export function schemaValue(value: ArgValue, p: StoredParam | undefined): { value: ArgValue } | { problem: string } {
  const typed = typedValue(value, p?.type);
  if ('problem' in typed) return typed;
  if (p?.enum && !p.enum_partial) {
    const choice = p.enum.find((c) => c === typed.value) ?? p.enum.find((c) => String(c) === String(typed.value));
    if (choice === undefined) return { problem: `must be one of ${choiceList(p.enum)}` };
    return { value: choice };
  }
  const check = p?.format ? FORMATS[p.format.toLowerCase()] : undefined;
  if (check && !check(String(typed.value))) return { problem: `must be in the format ${p!.format}` };
  return typed;
}

/**
 * The caller's values checked against the composition: each key a step number or a tool name of
 * it, each parameter one its tool declares (when it declares any), each value as its schema takes
 * it (schemaValue: the type, the choices, a well-known format; numbers written as text become
 * numbers). Returns the values to use, or every problem.
 */
export function checkGiven(steps: readonly CompositionStep[], given: GivenArguments): { given: GivenArguments } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const out: GivenArguments = {};
  const mcpCalls = steps.flatMap((s) => s.calls.filter((c) => c.protocol === 'mcp').map((c) => ({ step: s, call: c })));
  const known = steps.map((s) => `${s.step} (${s.kind === 'agent' ? 'an agent: text only' : s.calls.map(toolOf).join(', ')})`).join('; ');
  for (const [key, values] of Object.entries(given)) {
    const byStep = steps.find((s) => String(s.step) === key);
    const calls = byStep ? mcpCalls.filter((c) => c.step === byStep) : mcpCalls.filter((c) => toolOf(c.call) === key);
    if (!calls.length) {
      problems.push({ field: `arguments.${key}`, message: byStep ? `step ${key} is an agent: it takes the text, not arguments` : `no step or tool ${JSON.stringify(key)} in this composition (steps: ${known})` });
      continue;
    }
    const declared = calls.flatMap((c) => c.call.parameters ?? []);
    const checked: Record<string, ArgValue> = {};
    for (const [name, value] of Object.entries(values)) {
      const field = `arguments.${key}.${name}`;
      const param = declared.find((p) => p.name === name);
      if (declared.length && !param) {
        problems.push({ field, message: `${calls.map((c) => JSON.stringify(toolOf(c.call))).join(', ')} take${calls.length === 1 ? 's' : ''} no ${JSON.stringify(name)}; parameters: ${[...new Set(declared.map((p) => p.name))].join(', ')}` });
        continue;
      }
      const typed = schemaValue(value, param);
      if ('problem' in typed) problems.push({ field, message: typed.problem });
      else checked[name] = typed.value;
    }
    out[key] = checked;
  }
  return problems.length ? { problems } : { given: out };
}
