// Every next_step an answer suggests must be a call that works: it names a tool that exists, and
// its args pass that tool's input schema once the fields its `needs` names are filled in. Every
// test app checks every JSON answer it sends (REST, MCP, A2A) as it sends it; close() fails the test
// that made an app whose answers suggested a call that could not run.
import type { FastifyInstance } from 'fastify';
import { operations } from '../../src/catalog.ts';
import type { AnyOperation } from '../../src/platform/operation.ts';

const byTool = new Map<string, AnyOperation>(operations.flatMap((op) => [op.name, ...(op.aliases ?? [])].map((name) => [name, op] as const)));

/** What a caller writes for each field a next_step may leave to it. */
const WRITTEN: Record<string, unknown> = {
  rating: 4,
  body: 'It did what I asked and said plainly what it could not do.',
  goals: ['answer each support request in two sentences'],
  goal: 'echo a message back',
  ok: true,
  quality: 0.8,
  url: 'https://written-by-the-caller.example.org/mcp',
  result: 'The step is done: three sources compared in a short table.',
  agent_name: 'caller-agent',
  input: 'The text the caller sends to the first step.',
};

/** A need that names a place inside an argument (`arguments.<step>.<parameter>` of execute_compose): the caller writes a value there. */
const NESTED = /^(arguments)\.([^.]+)\.(.+)$/;

function fillNested(args: Record<string, unknown>, need: string): boolean {
  const m = NESTED.exec(need);
  if (!m) return false;
  const [, field, key, param] = m as unknown as [string, string, string, string];
  const outer = { ...((args[field] as Record<string, Record<string, unknown>> | undefined) ?? {}) };
  outer[key] = { ...(outer[key] ?? {}), [param]: 2 };
  args[field] = outer;
  return true;
}

export interface Step {
  tool: string;
  args: Record<string, unknown>;
  needs?: string[];
  /** The MCP endpoint that serves the tool, when the answer came from one that does not. */
  endpoint?: string;
}

/** Every next_step inside an answer, at any depth. */
export function stepsIn(value: unknown, out: Step[] = [], depth = 0): Step[] {
  if (depth > 12) return out;
  if (Array.isArray(value)) for (const v of value) stepsIn(v, out, depth + 1);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.tool === 'string' && o.args && typeof o.args === 'object' && !Array.isArray(o.args) && typeof o.why === 'string') out.push(o as unknown as Step);
    for (const v of Object.values(o)) stepsIn(v, out, depth + 1);
  }
  return out;
}

/** A step's args with what its `needs` leave to the caller written in (the owner token is a header, not an arg). */
export function filledArgs(step: Step): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...step.args };
  for (const need of step.needs ?? []) {
    if (need === 'owner_token' || fillNested(filled, need)) continue;
    if (need in WRITTEN) filled[need] = WRITTEN[need];
  }
  return filled;
}

/** Why a step cannot run as suggested, or undefined when it can. */
export function stepProblem(step: Step): string | undefined {
  if (step.tool === 'find_tools') return undefined;
  const op = byTool.get(step.tool);
  if (!op) return `next_step names ${step.tool}, which is no tool`;
  const unknown = (step.needs ?? []).find((need) => need !== 'owner_token' && !NESTED.test(need) && !(need in WRITTEN));
  if (unknown) return `next_step ${step.tool} needs ${unknown}, which no caller is told how to write`;
  const filled = filledArgs(step);
  const parsed = (op.toolInput ?? op.input).safeParse(filled);
  return parsed.success ? undefined : `next_step ${step.tool} ${JSON.stringify(step.args)} (needs ${JSON.stringify(step.needs ?? [])}) is refused by its input schema: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
}

/** Checks every JSON answer of `http`; returns the problems found so far. */
export function checkNextSteps(http: FastifyInstance): string[] {
  const problems: string[] = [];
  http.addHook('onSend', async (request, _reply, payload) => {
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) && payload.length < 4_000_000 ? payload.toString('utf8') : undefined;
    if (text === undefined || !(text.startsWith('{') || text.startsWith('['))) return payload;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return payload;
    }
    for (const step of stepsIn(body)) {
      const problem = stepProblem(step);
      if (problem) problems.push(`${request.method} ${request.url.split('?')[0]}: ${problem}`);
    }
    return payload;
  });
  return problems;
}
