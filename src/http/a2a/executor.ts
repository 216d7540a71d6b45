// Rollcall as an A2A agent: the SDK's AgentExecutor. It reads the message (intents.ts), runs the
// operation through runOperation with the request's ctx (as the REST and MCP doors do), and
// publishes one finished Task: COMPLETED with the result as an artifact (a data part with the JSON
// and a text part with a summary), or FAILED when the operation refuses (its AppError's code and
// message in the status message). A request it does not understand is COMPLETED with a help artifact.
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Artifact, type Message, type Part, type Task } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { AppError } from '../../platform/errors.ts';
import { dbFailure } from '../../platform/db/failures.ts';
import { runOperation, type AnyOperation, type Ctx } from '../../platform/operation.ts';
import { iso } from '../../platform/clock.ts';
import { understandMessage, type MessagePart, type Understanding } from './intents.ts';
import { failureText, helpAnswer, summarize, type HelpContext } from './answer.ts';

/** Where the door leaves the operation ctx in the SDK's ServerCallContext state. */
export const CTX_KEY = 'rollcall.ctx';
/**
 * Where a request's handling notes that the database could not answer (a `{ failure }` holder in
 * the SDK call's state): the SDK turns any throw into a JSON-RPC error with HTTP 200, and the door
 * then answers the whole POST 503 instead, as the other doors do.
 */
export const DB_FAILURE_KEY = 'rollcall.dbFailure';
export interface FailureHolder {
  failure?: unknown;
}

/** Notes a database failure on the call's holder and says whether it was one. */
export function noteDbFailure(state: Map<string, unknown> | undefined, err: unknown): boolean {
  if (!dbFailure(err)) return false;
  const holder = state?.get(DB_FAILURE_KEY) as FailureHolder | undefined;
  if (holder) holder.failure ??= err;
  return true;
}

export interface ExecutorDeps {
  /** Operations by name (the whole catalog: intents may run REST-only operations such as score). */
  operations: ReadonlyMap<string, AnyOperation>;
  /** Tools by name and alias, as tools/list shows them (what a data part may name). */
  tools: ReadonlyMap<string, AnyOperation>;
  help: HelpContext;
}

const textPart = (text: string): Part => ({ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const dataPart = (data: unknown): Part => ({ content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' });
/** Plain JSON (no undefined, no class instances), as the wire carries it. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null));

function partsOf(message: Message): MessagePart[] {
  return message.parts.flatMap((p): MessagePart[] => {
    if (p.content?.$case === 'text') return [{ text: String(p.content.value ?? '') }];
    if (p.content?.$case === 'data') return [{ data: p.content.value }];
    return []; // files are not read
  });
}

interface Outcome {
  state: TaskState;
  summary: string;
  /** The result's JSON (completed) or the error body (failed). */
  data: unknown;
  /** completed: the artifact's name. */
  artifact?: string;
  /** What ran, for the task's metadata. */
  ran: Record<string, string>;
}

/** The task id a v0.1 client chose (the shim passes it in the request's metadata), kept beside ours. */
function requestedId(request: RequestContext): { requested_id?: string } {
  const v = request.request.metadata?.requested_id;
  return typeof v === 'string' && v.length <= 128 ? { requested_id: v } : {};
}

export class RollcallExecutor implements AgentExecutor {
  constructor(private readonly deps: ExecutorDeps) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ctx = request.context.state.get(CTX_KEY) as Ctx | undefined;
    if (!ctx) throw new Error('the A2A door did not pass the operation ctx');
    let outcome: Outcome;
    try {
      outcome = await this.answer(ctx, understandMessage(partsOf(request.userMessage)));
    } catch (err) {
      noteDbFailure(request.context.state, err);
      throw err;
    }
    const reply: Message = {
      messageId: randomUUID(),
      contextId: request.contextId,
      taskId: request.taskId,
      role: Role.ROLE_AGENT,
      parts: outcome.state === TaskState.TASK_STATE_FAILED ? [textPart(outcome.summary), dataPart(outcome.data)] : [textPart(outcome.summary)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const artifacts: Artifact[] = outcome.artifact
      ? [{ artifactId: randomUUID(), name: outcome.artifact, description: outcome.summary.split('\n')[0]!.slice(0, 200), parts: [dataPart(outcome.data), textPart(outcome.summary)], metadata: undefined, extensions: [] }]
      : [];
    const task: Task = {
      id: request.taskId,
      contextId: request.contextId,
      status: { state: outcome.state, message: reply, timestamp: iso(ctx.clock.now()) },
      artifacts,
      history: [],
      metadata: { rollcall: { ...outcome.ran, request_id: ctx.requestId }, ...requestedId(request) },
    };
    bus.publish(AgentEvent.task(task));
  }

  /** Tasks finish inside the request that starts them, so there is never a running one to stop. */
  async cancelTask(_taskId: string, _bus: ExecutionEventBus): Promise<void> {}

  private async answer(ctx: Ctx, understood: Understanding): Promise<Outcome> {
    if (understood.kind === 'help') {
      const h = helpAnswer(this.deps.help, understood.reason, understood.intent);
      return { state: TaskState.TASK_STATE_COMPLETED, summary: h.text, data: h.data, artifact: 'help', ran: { answer: 'help', reason: understood.reason } };
    }
    if (understood.kind === 'tool') {
      const op = this.deps.tools.get(understood.tool);
      if (!op) {
        const h = helpAnswer(this.deps.help, 'bad_data');
        const err = { code: 'unknown_tool', message: `no tool is named ${JSON.stringify(understood.tool.slice(0, 64))}; the data part's tools lists them`, tools: this.deps.help.tools };
        return { state: TaskState.TASK_STATE_FAILED, summary: `${err.code}: ${err.message}`, data: { ok: false, error: err, help: h.data }, ran: { tool: 'unknown' } };
      }
      return this.run(ctx, op, understood.arguments, understood.tool, { tool: understood.tool, operation: op.name }, true);
    }
    const op = this.deps.operations.get(understood.operation);
    if (!op) {
      // An intent whose operation this deployment does not serve is not offered: answer with help.
      const h = helpAnswer(this.deps.help, 'unknown');
      return { state: TaskState.TASK_STATE_COMPLETED, summary: h.text, data: h.data, artifact: 'help', ran: { answer: 'help', reason: 'unknown' } };
    }
    return this.run(ctx, op, understood.input, understood.intent, { intent: understood.intent, operation: op.name }, false);
  }

  /** `strict`: the caller named the arguments (a tool data part), so one the tool does not take is refused; an intent's input is built here. */
  private async run(ctx: Ctx, op: AnyOperation, input: unknown, what: string, ran: Record<string, string>, strict: boolean): Promise<Outcome> {
    try {
      const result = plain(await runOperation(op, ctx, input, 'a2a', strict));
      return { state: TaskState.TASK_STATE_COMPLETED, summary: summarize(op.name, result), data: result, artifact: 'result', ran };
    } catch (err) {
      // The database could not answer: not the task's failure; the door answers 503 (see DB_FAILURE_KEY).
      if (dbFailure(err)) throw err;
      if (!(err instanceof AppError)) {
        ctx.log.error({ err, operation: op.name }, 'a2a operation failed');
        const body = { ok: false, error: { code: 'internal', message: 'internal error; quote request_id when reporting it' }, request_id: ctx.requestId };
        return { state: TaskState.TASK_STATE_FAILED, summary: `${what} failed: internal error (request_id ${ctx.requestId})`, data: body, ran };
      }
      return { state: TaskState.TASK_STATE_FAILED, summary: failureText(what, err), data: plain({ ok: false, error: err.toBody(), request_id: ctx.requestId }), ran };
    }
  }
}
