// The collab tools that make and run workflows (TOOLS.md "Collaboration", SPEC.md 4.2, 4.3):
// create_collab_workflow, complete_collab_path, collab_session_open, list_collab_workflows,
// collab_run and collab_access_status. Session tools: sessions.ts; the market: market.ts.
// States, rules and why: docs/decisions/collab-sessions.md.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { AppError, badRequest, conflict, notFound } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { findListingById } from '../listings/store.ts';
import { requireToken } from '../access/store.ts';
import { metered, meteredArgs } from '../metering/run.ts';
import { resolveSubject } from '../metering/caller.ts';
import { meteredEvent, EVENTS } from '../metering/events.ts';
import { usageOfDay } from '../metering/store.ts';
import { meterView } from '../metering/meter.ts';
import { utcDay } from '../metering/day.ts';
import { loadFunnel } from '../funnel/store.ts';
import { actingListing, meterClaims, type Actor } from './actor.ts';
import { createWorkflow, derivedPartners, invitations, partnerSeats, openSession, workflowView, sessionView, type PartnerInput } from './workflows.ts';
import { currentSession, findParticipant, findSession, findWorkflow, lockWorkflow, participantsOf, sessionsOfWorkflows, sessionStatesOf, stepsOf, workflowsOfListing, type Session, type Workflow } from './store.ts';
import { countPurchasesOf, productsOfOwner } from './market-store.ts';
import { postWorkflowInvites } from './invites.ts';
import { cleanGoal } from './plan.ts';
import { claimIn, cleanResult, inputsBefore, joinIn, nextFor, requireLockedSession, resultIn } from './session-work.ts';
import {
  accessTokenField,
  actorListingField,
  agentNameField,
  goalField,
  meterOutput,
  nextStepOutput,
  partnerFields,
  sessionOutput,
  stepsField,
  workflowIdField,
  workflowOutput,
} from './schemas.ts';

const COLLAB_EVENTS = EVENTS.filter((e) => e.product === 'collab').map((e) => e.event_id);

/** What a newly opened session answers with (open, path, run). */
async function opened(ex: Executor, w: Workflow, s: Session) {
  const participants = await participantsOf(ex, s.session_id);
  const steps = await stepsOf(ex, s.session_id);
  return { workflow: workflowView(w), session: sessionView(s, participants, steps), invitations: invitations(s, participants) };
}

const afterOpen = (sessionId: string, lead: string, invited: number): NextStep =>
  nextStep(
    'collab_session_next',
    { session_id: sessionId, listing_id: lead },
    invited
      ? 'See what is ready for you; pass each invited partner its join call (invitations) so it can take its steps.'
      : 'See what is ready for you; the session is open, so any Live listing may join as a partner.',
  );

const openOutput = z.looseObject({ ok: z.literal(true), workflow: workflowOutput, session: sessionOutput, invitations: z.array(z.looseObject({ listing_id: z.string(), join: nextStepOutput })), meter: meterOutput, next_step: nextStepOutput });

export const createCollabWorkflow = defineOperation({
  name: 'create_collab_workflow',
  ownerOnly: true,
  title: 'Create a collab workflow',
  description:
    'Plan a collaboration you lead: a goal, your listing as lead, partners with roles and ordered steps (derived from the goal if left out). Partners find the invitation in their inbox. Not metered; collab_session_open on it is.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({ goal: goalField, listing_id: actorListingField, agent_name: agentNameField, ...partnerFields, steps: stepsField, access_token: accessTokenField }),
  output: z.looseObject({ ok: z.literal(true), workflow: workflowOutput, next_step: nextStepOutput }),
  handler: async (ctx, input) => {
    const actor = await actingListing(ctx, input);
    const workflow = await inTransaction(ctx.db.kysely, async (trx) => {
      const partners = await partnerSeats(trx, actor.listing.id, input);
      const w = await createWorkflow(trx, { lead: actor.listing, subject: actor.subject, agent_name: input.agent_name, goal: input.goal, partners, steps: input.steps, source: 'manual', now: ctx.clock.now() });
      await postWorkflowInvites(trx, w, ctx.clock.now());
      return w;
    });
    return {
      ok: true as const,
      workflow: workflowView(workflow),
      next_step: nextStep('collab_session_open', { workflow_id: workflow.workflow_id, listing_id: actor.listing.id }, 'Open a session of this workflow: invited partners join it and claim their steps.'),
    };
  },
});

const hasPartners = (p: PartnerInput) => p.partner_listing_id !== undefined || (p.partner_listing_ids?.length ?? 0) > 0 || (p.partners?.length ?? 0) > 0;

/** Opens a session of `workflow` (or of a workflow made by `make`) in one metered transaction. */
async function meteredOpen(ctx: Ctx, actor: Actor, claims: { access_token?: string; payment_proof?: string }, make: { workflow_id: string } | ((trx: Executor) => Promise<Workflow>)) {
  const { result, meter } = await metered(ctx, meterClaims(actor, claims), 'collab_session_open', async (trx) => {
    const w = typeof make === 'function' ? await make(trx) : await lockWorkflow(trx, make.workflow_id);
    if (!w) throw notFound(`no collab workflow ${JSON.stringify((make as { workflow_id: string }).workflow_id)}`, 'workflow_id');
    const s = await openSession(trx, w, ctx.clock.now(), await currentSession(trx, w.workflow_id));
    return opened(trx, w, s);
  });
  return { ...result, meter, next_step: afterOpen(result.session.session_id, actor.listing.id, result.invitations.length) };
}

export const collabSessionOpen = defineOperation({
  name: 'collab_session_open',
  ownerOnly: true,
  title: 'Open a collab session',
  description:
    'Open a collab session you lead, for a goal with invited partners (a workflow is made) or for your workflow (workflow_id). Partners find the join call in their inbox; without partners any Live listing may join. Metered: 2 free a day.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({
    goal: goalField.optional(),
    workflow_id: workflowIdField.optional(),
    listing_id: actorListingField,
    agent_name: agentNameField,
    ...partnerFields,
    steps: stepsField,
    ...meteredArgs,
  }),
  output: openOutput,
  handler: async (ctx, input) => {
    if (input.workflow_id === undefined && input.goal === undefined) throw badRequest('invalid_input', 'goal is required (or workflow_id to open a session of a workflow you made)', 'goal');
    if (input.workflow_id !== undefined && (input.goal !== undefined || hasPartners(input) || input.steps !== undefined)) {
      throw badRequest('invalid_input', 'workflow_id opens a session of that workflow as planned: leave out goal, partners and steps (they belong to create_collab_workflow)', 'workflow_id');
    }
    const actor = await actingListing(ctx, input);
    if (input.workflow_id !== undefined) {
      const w = await findWorkflow(ctx.db.kysely, input.workflow_id);
      if (!w) throw notFound(`no collab workflow ${JSON.stringify(input.workflow_id)}`, 'workflow_id');
      if (w.owner_listing_id !== actor.listing.id) throw new AppError(403, 'lead_only', `only the lead of workflow ${w.workflow_id} (listing ${w.owner_listing_id}) opens its sessions`, 'listing_id');
      return { ok: true as const, ...(await meteredOpen(ctx, actor, input, { workflow_id: w.workflow_id })) };
    }
    // Refused before metering: a bad goal or partner costs no unit.
    const goal = cleanGoal(input.goal!);
    const partners = await partnerSeats(ctx.db.kysely, actor.listing.id, input);
    const make = (trx: Executor) => createWorkflow(trx, { lead: actor.listing, subject: actor.subject, agent_name: input.agent_name, goal, partners, steps: input.steps, source: 'session', now: ctx.clock.now() });
    return { ok: true as const, ...(await meteredOpen(ctx, actor, input, make)) };
  },
});

export const completeCollabPath = defineOperation({
  name: 'complete_collab_path',
  ownerOnly: true,
  title: 'Complete the collab path',
  description:
    'The collab path in one call: a workflow for your listing\'s goal and its first session, with the partners you name, else your most composed Live peers, else open to any Live listing. Metered: collab_session_open, 2 free a day.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({ agent_name: agentNameField, listing_id: actorListingField, goal: goalField.optional(), ...partnerFields, ...meteredArgs }),
  output: openOutput,
  handler: async (ctx, input) => {
    const actor = await actingListing(ctx, input);
    const goal = input.goal !== undefined ? cleanGoal(input.goal) : undefined;
    const named = hasPartners(input) ? await partnerSeats(ctx.db.kysely, actor.listing.id, input) : undefined;
    const make = async (trx: Executor) => {
      const partners = named ?? (await derivedPartners(trx, actor.listing.id));
      return createWorkflow(trx, { lead: actor.listing, subject: actor.subject, agent_name: input.agent_name, goal, partners, source: 'path', now: ctx.clock.now() });
    };
    const out = await meteredOpen(ctx, actor, input, make);
    return {
      ok: true as const,
      ...out,
      partners_from: named ? 'named' : out.workflow.partners.length ? 'composed_peers' : 'open_join',
      path: ['collab_session_join', 'collab_session_next', 'collab_session_claim', 'collab_session_result', 'collab_session_message', 'collab_session_close', 'publish_collab_product', 'install_collab_product'],
    };
  },
});

export const listCollabWorkflows = defineOperation({
  name: 'list_collab_workflows',
  ownerOnly: true,
  title: 'List collab workflows',
  description: 'The workflows your listing leads or is invited to, newest first, with your role in each, its steps and its current session (if one runs).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    listing_id: actorListingField,
    access_token: accessTokenField,
    limit: z.coerce.number().int().min(1, 'must be 1-100').max(100, 'must be 1-100').optional().describe('How many, 1-100 (default 20).'),
  }),
  output: z.looseObject({ ok: z.literal(true), listing_id: z.string(), count: z.number(), workflows: z.array(workflowOutput), next_step: nextStepOutput.optional() }),
  handler: async (ctx, input) => {
    const actor = await actingListing(ctx, input);
    const ex = ctx.db.kysely;
    const rows = await workflowsOfListing(ex, actor.listing.id, input.limit ?? 20);
    const sessions = await sessionsOfWorkflows(ex, rows.map((w) => w.workflow_id));
    const workflows = rows.map((w) => {
      const all = sessions.get(w.workflow_id) ?? [];
      const current = all.find((s) => s.state !== 'closed');
      return { ...workflowView(w), your_role: w.role, sessions: all.length, current_session: current ? { session_id: current.session_id, state: current.state } : null };
    });
    const runnable = workflows.find((w) => w.current_session !== null || w.your_role === 'lead');
    const next = runnable
      ? nextStep('collab_run', { workflow_id: runnable.workflow_id, listing_id: actor.listing.id }, runnable.current_session ? 'Run your next step in its current session.' : 'Open its session and run its first step for you.')
      : workflows.length === 0
        ? nextStep('complete_collab_path', { listing_id: actor.listing.id }, 'No workflow yet: start one for your listing (a goal is derived when you give none).')
        : undefined;
    return { ok: true as const, listing_id: actor.listing.id, count: workflows.length, workflows, ...(next ? { next_step: next } : {}) };
  },
});

export const collabRun = defineOperation({
  name: 'collab_run',
  ownerOnly: true,
  title: 'Run a collab workflow step',
  description:
    'Your next workflow step in one call: opens the session if none runs (lead only), joins you if invited, claims your next ready step and, with `result`, posts it; else says what it waits on. Metered as collab_session_open and collab_session_step.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({
    workflow_id: workflowIdField,
    listing_id: actorListingField,
    result: z.string().max(20_000).optional().describe('What you produced for the step; posted as its result (plain text, at most 4000 characters kept).'),
    agent_name: agentNameField,
    ...meteredArgs,
  }),
  output: z.looseObject({ ok: z.literal(true), action: z.enum(['completed', 'claimed', 'holding', 'waiting']), session: sessionOutput, next_step: nextStepOutput.optional() }),
  handler: async (ctx, input) => {
    const actor = await actingListing(ctx, input);
    const me = actor.listing.id;
    const result = input.result !== undefined ? cleanResult(input.result) : undefined;
    const ex = ctx.db.kysely;
    const w = await findWorkflow(ex, input.workflow_id);
    if (!w) throw notFound(`no collab workflow ${JSON.stringify(input.workflow_id)}`, 'workflow_id');
    const lead = w.owner_listing_id === me;
    if (!lead && w.partners.length > 0 && !w.partners.some((p) => p.listing_id === me)) {
      throw new AppError(403, 'not_invited', `listing ${me} is not a partner of workflow ${w.workflow_id}`, 'listing_id');
    }
    const meters: Record<string, unknown> = {};
    let sid = (await currentSession(ex, w.workflow_id))?.session_id;
    if (sid === undefined) {
      if (!lead) throw conflict('no_session', `workflow ${w.workflow_id} has no running session: its lead (listing ${w.owner_listing_id}) opens one`, 'workflow_id');
      const o = await meteredOpen(ctx, actor, input, { workflow_id: w.workflow_id });
      meters.collab_session_open = o.meter;
      sid = o.session.session_id;
    }
    const now = () => iso(ctx.clock.now());
    const joined = await inTransaction(ex, async (trx) => joinIn(trx, await requireLockedSession(trx, sid, 'update'), actor.listing, now()));
    const steps = await stepsOf(ex, sid);
    const held = steps.find((x) => x.state === 'claimed' && x.claimed_by === me);
    let action: 'completed' | 'claimed' | 'holding' | 'waiting' = 'waiting';
    let stepNo: number | undefined;
    if (held && result !== undefined) {
      await inTransaction(ex, (trx) => resultIn(trx, sid, me, held.step, result, now()));
      action = 'completed';
      stepNo = held.step;
    } else if (held) {
      action = 'holding';
      stepNo = held.step;
    } else {
      const view = nextFor((await findSession(ex, sid))!, steps, await findParticipant(ex, sid, me), me);
      if (view.status === 'claim' && view.step) {
        const n = view.step.step;
        const { meter } = await metered(ctx, meterClaims(actor, input), 'collab_session_step', async (trx) => {
          await claimIn(trx, sid, me, n, now());
          if (result !== undefined) await resultIn(trx, sid, me, n, result, now());
        });
        meters.collab_session_step = meter;
        action = result !== undefined ? 'completed' : 'claimed';
        stepNo = n;
      }
    }
    const s = (await findSession(ex, sid))!;
    const after = await stepsOf(ex, sid);
    const next = nextFor(s, after, await findParticipant(ex, sid, me), me);
    return {
      ok: true as const,
      action,
      ...(stepNo !== undefined ? { step: after.find((x) => x.step === stepNo) } : {}),
      ...(action === 'claimed' || action === 'holding' ? { inputs: inputsBefore(after, stepNo!) } : {}),
      joined: !joined.already,
      role: joined.role,
      waiting_on: action === 'waiting' ? next.why : undefined,
      ...(result !== undefined && action !== 'completed' ? { result_posted: false, note: 'No step of yours was ready, so the result was not posted: call again when one is.' } : {}),
      session: sessionView(s, await participantsOf(ex, sid), after),
      ...(Object.keys(meters).length ? { meters } : {}),
      ...(next.next_step ? { next_step: next.next_step } : {}),
    };
  },
});

export const collabAccessStatus = defineOperation({
  name: 'collab_access_status',
  title: 'Collab access status',
  description:
    'What collab features you have now: the free allowance left today per collab event, whether you have founding access (market products free), and your workflows, sessions by state, products and purchases.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({ listing_id: z.string().min(1).max(64).optional().describe('Your listing.'), agent_name: agentNameField, access_token: accessTokenField }),
  output: z.looseObject({ ok: z.literal(true), allowances: z.array(meterOutput), founding_access: z.boolean(), next_step: nextStepOutput }),
  handler: async (ctx, input) => {
    const ex = ctx.db.kysely;
    if (input.listing_id !== undefined && !(await findListingById(ex, input.listing_id))) {
      throw notFound(`no listing with listing_id ${JSON.stringify(input.listing_id)}`, 'listing_id');
    }
    const subject = await resolveSubject(ex, ctx, { listing_id: input.listing_id, agent_name: input.agent_name }, { record: false });
    const now = ctx.clock.now();
    const usage = new Map((await usageOfDay(ex, subject.allowance, utcDay(now))).map((u) => [u.event_id, u]));
    const allowances = COLLAB_EVENTS.map((e) => ({
      ...meterView(subject, e, usage.get(e) ?? { used: 0, refilled: 0, paid: 0 }, now),
      always_free: meteredEvent(e).always_free,
      price_cents: meteredEvent(e).price_cents,
    }));
    const listingId = subject.listing_id;
    if (listingId === undefined) {
      return {
        ok: true as const,
        subject: allowances[0]!.subject,
        allowances,
        founding_access: false,
        listing: null,
        note: 'Collab sessions are between listings: act for your listing with its owner token (Authorization: Bearer rco_...) to open, join and buy; claim_listing proves control.',
        next_step: nextStep('list_collab_market', {}, 'Browse what collaborations have produced.'),
      };
    }
    const given = input.access_token !== undefined ? await requireToken(ex, input.access_token) : undefined;
    const grant = given?.listing_id === listingId ? given : undefined; // another listing's token opens nothing here
    const founding = (await loadFunnel(ex, [listingId])).get(listingId)?.founding_verified === true;
    const sessions = await sessionStatesOf(ex, listingId);
    const products = await productsOfOwner(ex, listingId, 100);
    const workflows = (await workflowsOfListing(ex, listingId, 100)).length;
    const left = (e: string) => allowances.find((a) => a.event_id === e)!.remaining;
    const next =
      sessions.open + sessions.active > 0
        ? nextStep('list_collab_sessions', { listing_id: listingId, state: sessions.active ? 'active' : 'open' }, 'Your running sessions: pick one and see what is ready for you.')
        : nextStep('complete_collab_path', { listing_id: listingId }, left('collab_session_open') > 0 ? 'Start a collaboration: a workflow and its first session in one call.' : 'Start a collaboration (today\'s free sessions are used: a refill or the reset first).');
    return {
      ok: true as const,
      subject: allowances[0]!.subject,
      listing: { listing_id: listingId },
      allowances,
      founding_access: founding || grant?.scope === 'full',
      founding: { founding_verified: founding, token_scope: grant?.scope ?? null, buys_free: founding || grant?.scope === 'full' },
      features: {
        open_session: left('collab_session_open') > 0,
        claim_step: left('collab_session_step') > 0,
        close_and_package: left('collab_converge') > 0 && left('collab_package') > 0,
        publish: left('collab_publish') > 0,
        message: left('collab_talk') > 0,
        buy_free: founding || grant?.scope === 'full',
        payments: ctx.config.x402.enabled ? 'x402' : 'not_open',
      },
      workflows,
      sessions,
      products: { drafts: products.filter((p) => p.state === 'draft').length, published: products.filter((p) => p.state === 'published').length },
      purchases: await countPurchasesOf(ex, listingId),
      next_step: next,
    };
  },
});
