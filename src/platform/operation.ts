// "One operation, three doors" (DESIGN.md): an operation is a named, schema-checked piece of
// business logic. REST routes, the MCP dispatcher and the A2A door only translate to it.
// Platform knows no domain: an operation that needs a domain's runtime object (the prober, a
// scheduler) says so in its ctx type (`Ctx & {probe: ProbeRuntime}`), and the app's assembly,
// which builds the services bundle, is type-checked to provide it.
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from './clock.ts';
import type { Db } from './db/dialect.ts';
import type { Metrics } from './metrics.ts';
import type { Redis } from 'ioredis';
import { type AppError, badRequest, invalidInput } from './errors.ts';
import { COUNTERS, toolCounter, type UsageCounters } from './usage/counters.ts';
import type { HostBudgets } from './budget/host-budgets.ts';
import type { ClientLog } from './client-log.ts';

/** What every operation may use: injected once per process. Domains add their runtime objects beside these. */
export interface BaseServices {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  metrics: Metrics;
  /** The shared Redis connection when REDIS_URL is set (limits and budgets across instances). */
  redis?: Redis;
  /** What the service serves (requests, tool calls, probe fetches), counted in memory and flushed per day. */
  usage: UsageCounters;
  /** Per-host budgets of outbound requests and new listings, shared by every instance. */
  budgets: HostBudgets;
}

/** Who is calling (DESIGN.md "Caller identity"). */
export interface Caller {
  /** The client address (an IPv6 caller is counted by its /64 where allowances are kept). */
  address: string;
  /**
   * The `Authorization: Bearer` the door received: an owner token (rco_...) that acts for its
   * listing (owners/caller.ts resolves it), or the operator's ADMIN_TOKEN on operator routes.
   */
  bearer?: string;
}

export interface Ctx extends BaseServices {
  caller: Caller;
  requestId: string;
  /** An x402 payment the door received (X-PAYMENT or PAYMENT-SIGNATURE header), unverified. */
  payment?: string;
  /**
   * What an operation hands its door beside the result (the x402 settlement receipt): response
   * headers for HTTP, `_meta` entries for an MCP tool result. Doors create it per request.
   */
  response?: ResponseExtras;
}

export interface ResponseExtras {
  headers: Record<string, string>;
  meta: Record<string, unknown>;
  /**
   * Log messages for the caller (client-log.ts `clientLog`): open only when the request asked for
   * a level, and only where the door can deliver them (an MCP request of the 2026-07-28 era).
   */
  log?: ClientLog;
}

/**
 * MCP client capabilities, in the shape a client declares them (`{ sampling: {}, elicitation: { form: {} } }`).
 * Only the MCP door reads them.
 */
export type ClientCapabilities = Record<string, Record<string, unknown>>;

/** `cli`: the operator's command line (src/cli) running an operation in-process. */
export type Door = 'rest' | 'mcp' | 'a2a' | 'cli';

/** `X`: the domain runtime objects the handler needs beyond BaseServices. */
export interface Operation<S extends z.ZodType = z.ZodType, R = unknown, X = unknown> {
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
  /**
   * Acts for a listing: needs that listing's owner token (Authorization: Bearer rco_...). A
   * next_step naming it says so in `needs` (next-step.ts).
   */
  ownerOnly?: boolean;
  /**
   * MCP client capabilities a call cannot do without (it asks the client for a sampling, an
   * elicitation or its roots): the MCP door refuses a call whose request did not declare them
   * (-32021, with `requiredCapabilities`), before the handler runs.
   */
  clientCapabilities?: ClientCapabilities;
  /** Sends its caller log messages (`clientLog`): the MCP endpoint that serves it declares the logging capability. */
  clientLogs?: boolean;
  /** A short human title (tools/list `title`). */
  title?: string;
  /** MCP tool annotations: hints for clients deciding whether to confirm a call. */
  annotations?: ToolAnnotations;
  /** The result's schema (tools/list `outputSchema`); results must conform. Default: an object with `ok`. */
  output?: z.ZodType;
  /**
   * Set on a read whose answer depends only on its input and on state the change feed tracks, never
   * on the caller (nor charged to one): a door may answer it again from its cache while the feed
   * stands still and for at most this many milliseconds (0: never). Errors are never cached.
   */
  cacheMs?: (config: Config) => number;
  /** A property, not a method, so the assembly's check that it provides `X` is strict. */
  handler: (ctx: Ctx & X, input: z.output<S>) => Promise<R>;
}

/** MCP tool annotations (all hints; a client must not rely on them for safety). */
export interface ToolAnnotations {
  /** Changes nothing anywhere. */
  readOnlyHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** Reaches beyond Rollcall (probes someone's server). */
  openWorldHint: boolean;
  /** May delete or overwrite what a caller cannot restore. */
  destructiveHint?: boolean;
}

/** Any operation, as the doors and the catalog hold them. */
// biome-ignore lint/suspicious/noExplicitAny: doors pass each operation the whole services bundle; the assembly checks it provides what each needs
export type AnyOperation = Operation<z.ZodType, unknown, any>;

export function defineOperation<S extends z.ZodType, R, X = unknown>(op: Operation<S, R, X>): Operation<S, R, X> {
  return op;
}

/** One tool call served, counted (a door answering a call from its cache counts it too). */
export function countToolCall(usage: UsageCounters, name: string): void {
  usage.count(COUNTERS.toolCalls);
  usage.count(toolCounter(name));
}

/**
 * The argument names an input schema takes (an object's keys, through optional, default and pipe
 * wrappers, across a union's options); undefined when it takes any (not an object, or one with a
 * catchall).
 */
function acceptedArguments(schema: z.ZodType): string[] | undefined {
  if (schema instanceof z.ZodObject) {
    const catchall = schema._zod.def.catchall;
    return catchall && !(catchall instanceof z.ZodNever) ? undefined : Object.keys(schema.shape);
  }
  if (schema instanceof z.ZodPipe) return acceptedArguments(schema._zod.def.in as z.ZodType);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return acceptedArguments(schema._zod.def.innerType as z.ZodType);
  const parts = schema instanceof z.ZodUnion ? (schema._zod.def.options as z.ZodType[]) : schema instanceof z.ZodIntersection ? [schema._zod.def.left as z.ZodType, schema._zod.def.right as z.ZodType] : undefined;
  if (!parts) return undefined;
  const keys = parts.map(acceptedArguments);
  return keys.some((k) => k === undefined) ? undefined : [...new Set(keys.flat() as string[])];
}

/** A 400 naming the arguments `raw` gives that `schema` does not take, and those it does; undefined when there are none. */
function unknownArguments(schema: z.ZodType, raw: unknown): AppError | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const accepted = acceptedArguments(schema);
  if (!accepted) return undefined;
  const unknown = Object.keys(raw).filter((k) => !accepted.includes(k));
  if (!unknown.length) return undefined;
  const named = (keys: string[]) => keys.map((k) => JSON.stringify(k.slice(0, 64))).join(', ');
  return badRequest('unknown_argument', `${unknown.length === 1 ? 'unknown argument' : 'unknown arguments'} ${named(unknown.slice(0, 10))}; accepted: ${named(accepted) || 'none'}`, unknown[0]!.slice(0, 64), { unknown: unknown.slice(0, 10), accepted });
}

/**
 * Checks raw input against the door's schema and runs the operation. `refuseUnknown`: an argument
 * the schema does not take is a 400 instead of being dropped (the tool doors, and REST bodies: a
 * misspelt argument must not quietly become a missing one).
 */
export async function runOperation<S extends z.ZodType, R, X>(
  op: Operation<S, R, X>,
  ctx: Ctx & X,
  raw: unknown,
  door: Door,
  refuseUnknown = door === 'mcp' || door === 'a2a',
): Promise<R> {
  // The tool doors (MCP, and A2A data parts naming a tool) use the stricter tool input.
  // A tool call served (MCP tools/call, an A2A request that names a tool or intent), bad input included.
  if (door === 'mcp' || door === 'a2a') countToolCall(ctx.usage, op.name);
  const schema = door !== 'rest' && op.toolInput ? op.toolInput : op.input;
  const unknown = refuseUnknown ? unknownArguments(schema, raw) : undefined;
  if (unknown) throw unknown;
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
