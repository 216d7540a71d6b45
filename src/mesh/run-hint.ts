// The calls that lead to a run and follow one: execute_compose as the next_step of used_with,
// mesh_compose and interop_session (and of a run refused for missing arguments), and the call
// after a run. Each carries who the caller is (agent_name, its own listing_id), so the run spends
// and records under the same caller, and lists in `needs` what only the caller can write (the
// input text, the tools' parameters, from the partners' input schemas): filled in, the call runs.
// After a run, only a partner that answered is offered for deposit_outcome; a partner is never
// suggested for a bad mark over the caller's own arguments.
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { MAX_CAPABILITIES } from './coverage.ts';
import { neededFields, needOf, needsInWords, runNeeds, toolOf, type CallNeeds, type GivenArguments, type RunNeeds } from './arguments.ts';
import type { StepReport } from './execute.ts';
import type { Composition } from './store.ts';

/** Who runs: what the next call carries to act as the same caller. */
export interface Caller {
  agent_name?: string;
  listing_id?: string;
}

export const callerArgs = (who: Caller): Record<string, string> => ({
  ...(who.agent_name !== undefined ? { agent_name: who.agent_name } : {}),
  ...(who.listing_id !== undefined ? { listing_id: who.listing_id } : {}),
});

/** execute_compose with `args` (composition_id and whatever is already known), naming what is still the caller's to write. */
export function runCall(c: Composition, args: Record<string, unknown>, needs: RunNeeds, why: string): NextStep {
  const fields = neededFields(needs);
  return nextStep('execute_compose', { composition_id: c.composition_id, ...args }, fields.length ? `${why} First write what only you can: ${needsInWords(needs)}.` : why, fields);
}

/**
 * execute_compose for a stored composition, before any run: the goal is the input when the first
 * step takes text (a plan without a goal leaves the input to the caller), and the parameters the
 * text cannot fill are the caller's.
 */
export function runHint(c: Composition, who: Caller, why: string): NextStep {
  const bare = runNeeds(c.steps, {}, false);
  const input = bare.input && c.goal ? c.goal : undefined;
  return runCall(c, { ...(input !== undefined ? { input } : {}), ...callerArgs(who) }, input === undefined ? bare : { ...bare, input: false }, why);
}

/** Reasons a step failed that are no fault of its partner: Rollcall held the call back, or the caller's values were refused. */
export const NOT_THE_PARTNER = new Set(['host_budget', 'invalid_arguments']);

export interface RunFacts {
  steps: StepReport[];
  given: GivenArguments;
  input: string | undefined;
  /** What the run's outcomes are recorded `from` (the composition and the run). */
  from: string;
  /** The caller's own listing: never offered for its own outcome. */
  self?: string;
}

/** The parameters of a call whose tool refused the caller's values: its required ones and those given, to write again. */
function refusedCall(c: Composition, s: StepReport, given: GivenArguments): CallNeeds {
  const tool = s.calls.at(-1)?.tool ?? '';
  const declared = c.steps.find((p) => p.step === s.step)?.calls.find((x) => toolOf(x) === tool)?.parameters ?? [];
  const names = new Set([...declared.filter((p) => p.required).map((p) => p.name), ...Object.keys({ ...(given[String(s.step)] ?? {}), ...(given[tool] ?? {}) })]);
  return { step: s.step, listing_id: s.listing_id, tool, needs: [...names].map((name) => needOf(name, declared.find((p) => p.name === name))) };
}

/** The call after a run: the outcome of a partner that answered, the caller's arguments again, or other partners. */
export function afterRun(c: Composition, run: RunFacts, who: Caller): NextStep {
  const answered = run.steps.find((s) => s.status === 'ok' && s.listing_id !== run.self);
  if (answered) {
    return nextStep(
      'deposit_outcome',
      { listing_id: answered.listing_id, from: run.from, ...(who.agent_name !== undefined ? { agent_name: who.agent_name } : {}) },
      `Report how step ${answered.step}'s answer served you: whether it worked (ok), how well (quality, 0..1) and one sentence of your own on what it achieved (body). It lands on the partner that answered, ${answered.listing_id}, and refills your allowance.`,
      ['ok', 'quality', 'body'],
    );
  }
  if (run.self !== undefined && run.steps.some((s) => s.status === 'ok' && s.listing_id === run.self)) {
    return nextStep('sense_traces', { listing_id: run.self }, 'Only your own listing answered: outcomes about it come from others. See what they left on it.');
  }
  const refused = run.steps.filter((s) => s.reason === 'invalid_arguments');
  if (refused.length) {
    return runCall(
      c,
      { ...(run.input !== undefined ? { input: run.input } : {}), ...(Object.keys(run.given).length ? { arguments: run.given } : {}), ...callerArgs(who) },
      { input: false, calls: refused.map((s) => refusedCall(c, s, run.given)) },
      `The partner refused the values you gave (${refused.map((s) => `step ${s.step}: ${s.detail ?? s.reason}`).join('; ')}); that is no mark against it. Correct them and run again.`,
    );
  }
  const failed = run.steps.filter((s) => s.status === 'failed' && !NOT_THE_PARTNER.has(s.reason ?? ''));
  const capabilities = [...new Set((failed.length ? failed : run.steps).flatMap((s) => c.steps.find((p) => p.step === s.step)?.covers ?? []))].slice(0, MAX_CAPABILITIES);
  if (failed.length && capabilities.length) {
    return nextStep('mesh_match', { capabilities, ...callerArgs(who) }, 'The partners that failed were marked; look for other Live partners for what their steps cover.');
  }
  return nextStep('mesh_compose', { capabilities: (capabilities.length ? capabilities : c.capabilities).slice(0, MAX_CAPABILITIES), ...callerArgs(who) }, 'None of the plan\'s partners could be called: plan again over the partners Live now.');
}
