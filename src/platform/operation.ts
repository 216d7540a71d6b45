// "One operation, three doors" (DESIGN.md): an operation is a named, schema-checked piece of
// business logic. REST routes, the MCP dispatcher and (later) the A2A door only translate to it.
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from './clock.ts';
import type { Db } from './db/dialect.ts';
import type { ProbeScheduler } from '../probe/scheduler.ts';
import type { Prober } from '../probe/prober.ts';
import type { OnDemandProbes } from '../probe/budget.ts';
import type { Metrics } from './metrics.ts';
import { invalidInput } from './errors.ts';

/** What every operation may use: injected once per process. */
export interface Services {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  probes: ProbeScheduler;
  prober: Prober;
  onDemand: OnDemandProbes;
  metrics: Metrics;
}

/** Who is calling (DESIGN.md "Caller identity"); richer forms arrive with access tokens. */
export interface Caller {
  address: string;
}

export interface Ctx extends Services {
  caller: Caller;
  requestId: string;
}

export type Door = 'rest' | 'mcp';

export interface Operation<S extends z.ZodType = z.ZodType, R = unknown> {
  /** Tool name over MCP; also the operation's name in logs and docs. */
  name: string;
  /** Other tool names that run the same operation (SPEC.md 4.2 aliases). */
  aliases?: string[];
  description: string;
  input: S;
  /** A stricter input for the MCP door (TOOLS.md: leave_feedback requires agent_name there). */
  toolInput?: z.ZodType<z.output<S>>;
  /** false: served over REST only, not listed as a tool. */
  tool?: boolean;
  handler(ctx: Ctx, input: z.output<S>): Promise<R>;
}

export function defineOperation<S extends z.ZodType, R>(op: Operation<S, R>): Operation<S, R> {
  return op;
}

/** Checks raw input against the door's schema and runs the operation. */
export async function runOperation<S extends z.ZodType, R>(
  op: Operation<S, R>,
  ctx: Ctx,
  raw: unknown,
  door: Door,
): Promise<R> {
  const schema = door === 'mcp' && op.toolInput ? op.toolInput : op.input;
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw invalidInput(parsed.error);
  return op.handler(ctx, parsed.data as z.output<S>);
}

/** JSON Schema of an operation's input as a caller sends it (for tools/list and /openapi.json). */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
