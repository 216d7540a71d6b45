// What execute_compose refuses before it charges anything, records anything or calls anyone: a
// plan with nothing to call, a plan none of whose partners is Live, the caller's arguments that
// name no step, tool or parameter of the plan or have the wrong type, a run whose tools would
// lack a parameter or text (needs_arguments: what each step needs, from the partner tool's input
// schema, and a next_step that supplies it), a partner's address the guarded client would refuse,
// a partner host with no outbound request left this hour. A run that cannot start for the
// caller's own reason costs the caller nothing and marks no partner.
import { AppError, badRequest } from '../platform/errors.ts';
import { nextStep } from '../platform/next-step.ts';
import { hostKey } from '../platform/net/host-key.ts';
import { hostBudgetError } from '../platform/budget/host-budgets.ts';
import { findListingsByIds } from '../listings/store.ts';
import { loadProbeStates } from '../probe/store.ts';
import type { ProbeRuntime } from '../probe/runtime.ts';
import { MAX_CAPABILITIES } from './coverage.ts';
import { argumentsShape, checkGiven, needsInWords, runNeeds, type GivenArguments } from './arguments.ts';
import type { StepTarget } from './execute.ts';
import { callerArgs, runCall, type Caller } from './run-hint.ts';
import type { MeshCtx } from './partners.ts';
import type { Composition } from './store.ts';

export type LadderCtx = MeshCtx & { probe: ProbeRuntime };

/** A plan without steps: nothing to run; its gaps are what to look for. */
export function refuseEmpty(c: Composition, who: Caller): void {
  if (c.steps.length) return;
  throw new AppError(409, 'nothing_to_run', `composition ${c.composition_id} has no steps (its gaps: ${c.gaps.join(', ') || 'none'}): nothing was charged`, 'composition_id', {
    gaps: c.gaps,
    next_step: nextStep('mesh_match', { capabilities: (c.gaps.length ? c.gaps : c.capabilities).slice(0, MAX_CAPABILITIES), ...callerArgs(who) }, 'Look for Live partners for what the plan could not cover.'),
  });
}

/** The latest probe of each partner: where it answers now and whether it is still Live. */
export async function stepTargets(ctx: MeshCtx, c: Composition): Promise<Map<string, StepTarget>> {
  const ids = [...new Set(c.steps.map((s) => s.listing_id))];
  const rows = new Map((await findListingsByIds(ctx.db.kysely, ids)).map((r) => [r.id, r]));
  const probes = await loadProbeStates(ctx.db.kysely, ids);
  return new Map(
    c.steps.map((s) => {
      const probe = probes.get(s.listing_id);
      return [s.listing_id, { endpoint: probe?.target ?? s.endpoint, protocol: probe?.protocol ?? null, live: rows.get(s.listing_id)?.lane === 'active' }];
    }),
  );
}

/** No partner of the plan is Live now: the run would call nobody. */
export function refuseNoneLive(c: Composition, targets: ReadonlyMap<string, StepTarget>, who: Caller): void {
  if (c.steps.some((s) => targets.get(s.listing_id)?.live)) return;
  throw new AppError(409, 'no_live_partner', `none of the partners of ${c.composition_id} is Live now: nothing was charged or sent`, 'composition_id', {
    next_step: nextStep('mesh_compose', { capabilities: c.capabilities.slice(0, MAX_CAPABILITIES), ...callerArgs(who) }, 'Plan again over the partners Live now.'),
  });
}

/** The caller's arguments checked against the plan (keys, parameter names, types): the values to run with, or a 400 naming every problem. */
export function checkedArguments(c: Composition, given: GivenArguments): GivenArguments {
  const checked = checkGiven(c.steps, given);
  if ('given' in checked) return checked.given;
  const [first] = checked.problems;
  throw badRequest('invalid_input', `invalid input: ${checked.problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, first!.field, checked.problems);
}

/** A run whose Live steps would lack text or a parameter: 400 needs_arguments, with what each needs and the call that supplies it. */
export function refuseMissing(c: Composition, targets: ReadonlyMap<string, StepTarget>, run: { given: GivenArguments; input: string | undefined }, who: Caller): void {
  const needs = runNeeds(c.steps, run.given, run.input !== undefined, (s) => targets.get(s.listing_id)?.live === true);
  if (!needs.input && !needs.calls.length) return;
  const args = { ...(run.input !== undefined ? { input: run.input } : {}), ...(Object.keys(run.given).length ? { arguments: run.given } : {}), ...callerArgs(who) };
  throw badRequest(
    'needs_arguments',
    `this run cannot start: ${needsInWords(needs)}${needs.calls.length ? `; give them as arguments: ${argumentsShape(needs)}` : ''}. Nothing was charged, sent or recorded`,
    needs.calls.length ? 'arguments' : 'input',
    { input_needed: needs.input, steps: needs.calls, next_step: runCall(c, args, needs, 'Run the composition with what its tools need.') },
  );
}

/** Refuses the whole run, before any connection, when a partner's endpoint is one the guarded client would refuse. */
export function refuseBlocked(ctx: LadderCtx, c: Composition, targets: ReadonlyMap<string, StepTarget>): void {
  for (const s of c.steps) {
    const t = targets.get(s.listing_id);
    if (!t?.live) continue;
    let why: string | undefined;
    try {
      why = ctx.probe.prober.refusal(t.endpoint);
    } catch {
      why = 'not an absolute URL';
    }
    if (why) {
      throw new AppError(409, 'partner_address_refused', `step ${s.step}'s partner ${s.listing_id} now answers at an address Rollcall does not call (${why}): nothing was sent to any partner`, 'composition_id', {
        step: s.step,
        listing_id: s.listing_id,
      });
    }
  }
}

/** Refuses the whole run (429 host_budget, nothing charged) when a partner's host has no outbound request left this hour. */
export async function refuseSpentHosts(ctx: LadderCtx, targets: ReadonlyMap<string, StepTarget>): Promise<void> {
  const hosts = new Set<string>();
  for (const t of targets.values()) {
    try {
      hosts.add(hostKey(t.endpoint));
    } catch {
      // an endpoint that is no URL is refused by the run itself
    }
  }
  for (const host of hosts) {
    const retryAfterS = await ctx.budgets.noRoomFor(host, 'public');
    if (retryAfterS !== undefined) throw hostBudgetError(`partner host ${host} has had its outbound requests this hour; retry in ${retryAfterS} s`, retryAfterS, 'composition_id');
  }
}
