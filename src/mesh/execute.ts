// Running a stored composition (execute_compose): its steps in order, each planned call made for
// real through the guarded client, with a time budget per step and for the whole run. A step's
// output text is the next step's input; a step that fails or runs out of time is reported with its
// reason and the chain goes on with the last good text (the plan is a pipeline: a later partner
// still does its part on what there is). A step is skipped, not called, when its partner is no
// longer Live, when no text reached a step that takes text, or when the run's budget is spent;
// arguments the caller must give were checked before the run was charged (run-checks.ts).
// Rules and why: docs/decisions/execute-compose.md. Runs outside any
// database transaction: no connection is held while partners think.
import type { Fetcher } from '../platform/net/guarded-client.ts';
import { callMcpTool, sendA2aText, type CallFailure, type CallResult } from './partner-call.ts';
import { fillArguments, toolOf, valuesFor, type GivenArguments } from './arguments.ts';
import type { CompositionStep } from './store.ts';

/** Where and how to reach a step's partner now (its latest probe), and whether it is still Live. */
export interface StepTarget {
  endpoint: string;
  protocol: string | null;
  live: boolean;
}

export type StepStatus = 'ok' | 'failed' | 'skipped';
export type SkipReason = 'not_live' | 'needs_arguments' | 'no_text' | 'run_budget_spent';

export interface StepReport {
  step: number;
  listing_id: string;
  kind: 'agent' | 'mcp';
  status: StepStatus;
  /** The call made (tool name or message/send). */
  calls: { method: string; tool?: string; status: 'ok' | 'failed'; reason?: CallFailure; detail?: string; ms: number }[];
  /** Why the step failed or was skipped. */
  reason?: CallFailure | SkipReason;
  detail?: string;
  /** The partner's answer (untrusted data, cleaned and capped; never run, never an instruction). */
  output?: string;
  truncated?: boolean;
  ms: number;
}

export interface RunOptions {
  /** The text the first call receives; undefined when the run has none (its first tool takes no text). */
  input: string | undefined;
  stepTimeoutMs: number;
  runTimeoutMs: number;
  /** The caller's values by step number or tool name (arguments.ts). */
  args: GivenArguments;
  compositionId: string;
  /** Milliseconds on a monotonic clock (performance.now). */
  now: () => number;
  /** The guarded client bound to a deadline. */
  client: (signal: AbortSignal) => Fetcher;
}

const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** Runs one composition's steps; never throws for a partner's failure. */
export async function runSteps(steps: readonly CompositionStep[], targets: ReadonlyMap<string, StepTarget>, o: RunOptions): Promise<{ steps: StepReport[]; output: string | null; ms: number }> {
  const started = o.now();
  const runDeadline = started + o.runTimeoutMs;
  const reports: StepReport[] = [];
  let text: string | undefined = o.input;
  let lastGood: string | null = null;
  for (const step of steps) {
    const stepStarted = o.now();
    const base = { step: step.step, listing_id: step.listing_id, kind: step.kind };
    const target = targets.get(step.listing_id);
    const left = runDeadline - stepStarted;
    if (left <= 0) {
      reports.push({ ...base, status: 'skipped', reason: 'run_budget_spent', detail: `the run's ${o.runTimeoutMs} ms were spent before this step`, calls: [], ms: 0 });
      continue;
    }
    if (!target?.live) {
      reports.push({ ...base, status: 'skipped', reason: 'not_live', detail: 'the partner is no longer Live', calls: [], ms: 0 });
      continue;
    }
    // One signal for the whole step (all its calls): the step's budget or what is left of the run's.
    const budget = Math.min(o.stepTimeoutMs, left);
    const signal = AbortSignal.timeout(budget);
    const client = o.client(signal);
    const calls: StepReport['calls'] = [];
    let stepText = text;
    let failure: { reason: CallFailure | SkipReason; detail: string } | undefined;
    let truncated = false;
    for (const call of step.calls) {
      const callStarted = o.now();
      let result: CallResult;
      if (call.protocol === 'mcp') {
        const filled = fillArguments(call, valuesFor(call, step.step, o.args), stepText);
        if ('missing' in filled) {
          // Checked before the run is charged; reached only when no text came through (every earlier step failed).
          failure = filled.missing.length
            ? { reason: 'needs_arguments', detail: `tool ${JSON.stringify(toolOf(call))} needs ${filled.missing.map((m) => JSON.stringify(m.name)).join(', ')}: give them in arguments.${step.step}` }
            : { reason: 'no_text', detail: 'no text reached this step: the run had no input and no step before it answered' };
          break;
        }
        result = await callMcpTool(client, target.endpoint, target.protocol, toolOf(call), filled.args);
      } else {
        if (stepText === undefined) {
          failure = { reason: 'no_text', detail: 'no text reached this step: the run had no input and no step before it answered' };
          break;
        }
        const metadata = (call.params as { message?: { metadata?: Record<string, unknown> } }).message?.metadata ?? {};
        result = await sendA2aText(client, target.endpoint, target.protocol, stepText, `${o.compositionId}-${step.step}-${calls.length + 1}`, metadata);
      }
      // A deadline cut shows as unreachable from some transports: the step's own clock says timeout.
      if (!result.ok && signal.aborted) result = { ok: false, reason: 'timeout', detail: `no answer within the step's ${budget} ms` };
      const entry = { method: call.method, ...(call.protocol === 'mcp' ? { tool: toolOf(call) } : {}), ms: tenths(o.now() - callStarted) };
      if (!result.ok) {
        calls.push({ ...entry, status: 'failed', reason: result.reason, detail: result.detail });
        failure = { reason: result.reason, detail: result.detail };
        break;
      }
      calls.push({ ...entry, status: 'ok' });
      stepText = result.text;
      truncated = result.truncated;
    }
    const ms = tenths(o.now() - stepStarted);
    if (failure) {
      const skipped = (failure.reason === 'needs_arguments' || failure.reason === 'no_text') && calls.length === 0;
      reports.push({ ...base, status: skipped ? 'skipped' : 'failed', reason: failure.reason, detail: failure.detail, calls, ms });
      continue;
    }
    reports.push({ ...base, status: 'ok', calls, output: stepText, ...(truncated ? { truncated } : {}), ms });
    text = stepText;
    lastGood = stepText ?? null;
  }
  return { steps: reports, output: lastGood, ms: tenths(o.now() - started) };
}
