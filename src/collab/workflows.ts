// Making workflows and opening their sessions, inside the caller's transaction: shared by
// create_collab_workflow, complete_collab_path, collab_session_open, collab_run and leave_feedback
// (createWorkflowFromFeedback). Also the views the tools answer with.
import type { Executor } from '../platform/db/executor.ts';
import { badRequest, conflict, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { iso } from '../platform/clock.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import { findListingById, findListingsByIds, type ListingRow } from '../listings/store.ts';
import type { Subject } from '../metering/caller.ts';
import { composedPeers } from '../mesh/store.ts';
import { cleanGoal, defaultGoal, deriveSteps, givenSteps, MAX_PARTNERS, PARTNER, roleName, type PartnerSeat } from './plan.ts';
import { insertSession, insertWorkflow, participantsOf, stepsOf, type Participant, type Session, type Step, type Workflow, findSession } from './store.ts';
import { readyStep, unfilledRoles } from './rules.ts';
import { postSessionInvites, postWorkflowInvites } from './invites.ts';

/** Partners as the tools take them (any of the three forms, merged in that order, deduplicated). */
export interface PartnerInput {
  partner_listing_id?: string;
  partner_listing_ids?: string[];
  partners?: { listing_id: string; role?: string }[];
}

/** Composed peers (mesh) taken as partners when a path or feedback names none. */
const DERIVED_PARTNERS = 2;

/** The invited partners, checked: they exist, the lead is not one of them, at most MAX_PARTNERS. */
export async function partnerSeats(ex: Executor, leadId: string, input: PartnerInput): Promise<PartnerSeat[]> {
  const asked: { listing_id: string; role: string; field: string }[] = [];
  if (input.partner_listing_id !== undefined) asked.push({ listing_id: input.partner_listing_id, role: PARTNER, field: 'partner_listing_id' });
  for (const [i, id] of (input.partner_listing_ids ?? []).entries()) asked.push({ listing_id: id, role: PARTNER, field: `partner_listing_ids.${i}` });
  for (const [i, p] of (input.partners ?? []).entries()) {
    asked.push({ listing_id: p.listing_id, role: p.role === undefined ? PARTNER : roleName(p.role, `partners.${i}.role`), field: `partners.${i}.listing_id` });
  }
  const seats: PartnerSeat[] = [];
  const found = new Set((await findListingsByIds(ex, [...new Set(asked.map((a) => a.listing_id))])).map((r) => r.id));
  for (const a of asked) {
    if (!found.has(a.listing_id)) throw notFound(`no listing with ${a.field} ${JSON.stringify(a.listing_id)}`, a.field);
    if (a.listing_id === leadId) throw badRequest('invalid_input', 'you lead this collaboration: name other listings as partners', a.field);
    if (a.role === 'lead' || a.role === 'any') throw badRequest('invalid_input', `role ${a.role} is reserved: name the partner's role, e.g. "writer"`, a.field.replace(/listing_id$/, 'role'));
    if (!seats.some((s) => s.listing_id === a.listing_id)) seats.push({ listing_id: a.listing_id, role: a.role });
  }
  if (seats.length > MAX_PARTNERS) throw badRequest('invalid_input', `at most ${MAX_PARTNERS} partners (got ${seats.length})`, 'partners');
  return seats;
}

/** Partners for a path that names none: the lead's most composed Live peers (mesh compositions). */
export async function derivedPartners(ex: Executor, leadId: string): Promise<PartnerSeat[]> {
  const peers = await composedPeers(ex, leadId, 10);
  const live = new Map((await findListingsByIds(ex, peers.map((p) => p.listing_id))).filter((r) => r.lane === 'active').map((r) => [r.id, r]));
  return peers.filter((p) => live.has(p.listing_id)).slice(0, DERIVED_PARTNERS).map((p) => ({ listing_id: p.listing_id, role: PARTNER }));
}

export interface NewWorkflow {
  lead: ListingRow;
  subject: Subject;
  agent_name?: string;
  goal?: string;
  partners: PartnerSeat[];
  steps?: { title: string; role: string }[];
  source: Workflow['source'];
  now: Date;
}

export async function createWorkflow(trx: Executor, w: NewWorkflow): Promise<Workflow> {
  const goal = w.goal !== undefined ? cleanGoal(w.goal) : defaultGoal(w.lead);
  const workflow: Workflow = {
    workflow_id: newId('cwf'),
    owner_listing_id: w.lead.id,
    owner_subject: w.subject.key,
    agent_name: w.agent_name ? cleanText(w.agent_name, MAX_NAME) || null : null,
    goal,
    partners: w.partners,
    steps: w.steps ? givenSteps(w.steps, w.partners) : deriveSteps(goal, w.partners),
    source: w.source,
    created_at: iso(w.now),
  };
  await insertWorkflow(trx, workflow);
  return workflow;
}

/** Opens a session of the workflow (a workflow runs one session at a time) and invites its partners through their inboxes. */
export async function openSession(trx: Executor, w: Workflow, now: Date, current: Session | undefined): Promise<Session> {
  if (current) throw conflict('session_exists', `workflow ${w.workflow_id} already runs session ${current.session_id} (${current.state}): use it, or close it first`, 'workflow_id');
  const id = newId('cs');
  await insertSession(trx, w, id, iso(now));
  const session = (await findSession(trx, id))!;
  await postSessionInvites(trx, w, session, now);
  return session;
}

/**
 * leave_feedback with `complete_collab: true` or a `partner_listing_id` (SPEC.md 4.3): a workflow
 * for the feedback's listing in the feedback's own transaction. The partner named, else the
 * listing's composed Live peers, else none (its sessions are then open to any Live listing); each
 * partner finds the invitation in its inbox. Not metered: opening its session is (next_step).
 */
export async function createWorkflowFromFeedback(
  trx: Executor,
  input: { subject: Subject; listing_id?: string; partner_listing_id?: string; goal?: string; agent_name?: string; now: Date },
): Promise<{ workflow: ReturnType<typeof workflowView>; next_step: NextStep }> {
  const leadId = input.listing_id ?? input.subject.listing_id;
  if (leadId === undefined) throw badRequest('listing_required', 'a collab workflow belongs to a listing: pass listing_id with complete_collab or partner_listing_id', 'listing_id');
  const lead = await findListingById(trx, leadId);
  if (!lead) throw notFound(`no listing with listing_id ${JSON.stringify(leadId)}`, 'listing_id');
  const partners = input.partner_listing_id !== undefined ? await partnerSeats(trx, lead.id, { partner_listing_id: input.partner_listing_id }) : await derivedPartners(trx, lead.id);
  const goal = input.goal !== undefined && cleanText(input.goal, 2000) !== '' ? input.goal : undefined;
  const workflow = await createWorkflow(trx, { lead, subject: input.subject, agent_name: input.agent_name, goal, partners, source: 'feedback', now: input.now });
  await postWorkflowInvites(trx, workflow, input.now);
  return {
    workflow: workflowView(workflow),
    next_step: nextStep('collab_session_open', { workflow_id: workflow.workflow_id, listing_id: lead.id }, 'Open a session of this workflow: invited partners can then join and claim its steps.'),
  };
}

export const workflowView = (w: Workflow) => ({
  workflow_id: w.workflow_id,
  goal: w.goal,
  lead_listing_id: w.owner_listing_id,
  agent_name: w.agent_name,
  partners: w.partners,
  open_join: w.partners.length === 0,
  steps: w.steps,
  source: w.source,
  created_at: w.created_at,
});

export function sessionView(s: Session, participants: readonly Participant[], steps: readonly Step[]) {
  const ready = s.state === 'open' || s.state === 'active' ? readyStep(steps) : undefined;
  return {
    session_id: s.session_id,
    workflow_id: s.workflow_id,
    goal: s.goal,
    state: s.state,
    outcome: s.outcome,
    lead_listing_id: s.owner_listing_id,
    open_join: s.open_join,
    participants: participants.map((p) => ({ listing_id: p.listing_id, role: p.role, status: p.status, byo: p.byo })),
    steps: steps.map((x) => ({ step: x.step, title: x.title, role: x.role, state: x.state, claimed_by: x.claimed_by, ready: ready?.step === x.step })),
    progress: { done: steps.filter((x) => x.state === 'done').length, total: steps.length },
    unfilled_roles: s.state === 'open' || s.state === 'active' ? unfilledRoles(steps, participants) : [],
    product_id: s.product_id,
    created_at: s.created_at,
    updated_at: s.updated_at,
    closed_at: s.closed_at,
  };
}

export async function loadSessionView(ex: Executor, s: Session) {
  return sessionView(s, await participantsOf(ex, s.session_id), await stepsOf(ex, s.session_id));
}

/** The join call of each invited partner (what the lead passes on, and list_opportunities shows). */
export const invitations = (s: Session, participants: readonly Participant[]) =>
  participants
    .filter((p) => p.status === 'invited')
    .map((p) => ({ listing_id: p.listing_id, role: p.role, join: nextStep('collab_session_join', { session_id: s.session_id, listing_id: p.listing_id }, `The partner's call to join as ${p.role}.`) }));
