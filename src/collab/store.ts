// The collab domain's SQL for workflows and sessions. Every state change is one conditional
// UPDATE (`... WHERE state = <expected>`), so two callers racing for the same transition (two
// claimers of one step, a close and a claim) never both win: PostgreSQL re-checks the condition
// under the row lock, SQLite has one writer at a time.
import { takesRowLocks, type Executor } from '../platform/db/executor.ts';
import { flag } from '../platform/db/flag.ts';
import { collabTables as q, type SessionState, type StepState } from './tables.ts';
import type { PartnerSeat, PlannedStep } from './plan.ts';

export type { SessionState, StepState } from './tables.ts';

export interface Workflow {
  workflow_id: string;
  owner_listing_id: string;
  owner_subject: string;
  agent_name: string | null;
  goal: string;
  partners: PartnerSeat[];
  steps: PlannedStep[];
  source: 'manual' | 'path' | 'session' | 'feedback';
  created_at: string;
}

export async function insertWorkflow(ex: Executor, w: Workflow): Promise<void> {
  await q(ex)
    .insertInto('collab_workflows')
    .values({
      id: w.workflow_id,
      owner_listing_id: w.owner_listing_id,
      owner_subject: w.owner_subject,
      agent_name: w.agent_name,
      goal: w.goal,
      partners: JSON.stringify(w.partners),
      steps: JSON.stringify(w.steps),
      source: w.source,
      created_at: w.created_at,
    })
    .execute();
  const members = [{ listing_id: w.owner_listing_id, role: 'lead' }, ...w.partners].map((m) => ({ workflow_id: w.workflow_id, listing_id: m.listing_id, role: m.role, created_at: w.created_at }));
  await q(ex).insertInto('collab_workflow_members').values(members).execute();
}

type WorkflowRow = { id: string; owner_listing_id: string; owner_subject: string; agent_name: string | null; goal: string; partners: string; steps: string; source: string; created_at: string };

const toWorkflow = (r: WorkflowRow): Workflow => ({
  workflow_id: r.id,
  owner_listing_id: r.owner_listing_id,
  owner_subject: r.owner_subject,
  agent_name: r.agent_name,
  goal: r.goal,
  partners: JSON.parse(r.partners) as PartnerSeat[],
  steps: JSON.parse(r.steps) as PlannedStep[],
  source: r.source as Workflow['source'],
  created_at: r.created_at,
});

/** The workflow, locked until the transaction ends (PostgreSQL): one session is opened at a time. */
export async function lockWorkflow(trx: Executor, id: string): Promise<Workflow | undefined> {
  let sel = q(trx).selectFrom('collab_workflows').selectAll().where('id', '=', id);
  if (takesRowLocks(trx)) sel = sel.forUpdate();
  const row = await sel.executeTakeFirst();
  return row && toWorkflow(row);
}

export async function findWorkflow(ex: Executor, id: string): Promise<Workflow | undefined> {
  const row = await q(ex).selectFrom('collab_workflows').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toWorkflow(row);
}

/** Workflows a listing leads or is invited to, newest first, with its role in each. */
export async function workflowsOfListing(ex: Executor, listingId: string, limit: number): Promise<(Workflow & { role: string })[]> {
  const rows = await q(ex)
    .selectFrom('collab_workflow_members as m')
    .innerJoin('collab_workflows as w', 'w.id', 'm.workflow_id')
    .select(['w.id', 'w.owner_listing_id', 'w.owner_subject', 'w.agent_name', 'w.goal', 'w.partners', 'w.steps', 'w.source', 'w.created_at', 'm.role'])
    .where('m.listing_id', '=', listingId)
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...toWorkflow(r), role: r.role }));
}

export interface Session {
  session_id: string;
  workflow_id: string;
  owner_listing_id: string;
  goal: string;
  state: SessionState;
  open_join: boolean;
  outcome: 'packaged' | 'abandoned' | null;
  converged: unknown;
  product_id: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

type SessionRow = {
  id: string;
  workflow_id: string;
  owner_listing_id: string;
  goal: string;
  state: SessionState;
  open_join: number;
  outcome: string | null;
  converged: string | null;
  product_id: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
};

const toSession = (r: SessionRow): Session => ({
  session_id: r.id,
  workflow_id: r.workflow_id,
  owner_listing_id: r.owner_listing_id,
  goal: r.goal,
  state: r.state,
  open_join: Number(r.open_join) === 1,
  outcome: r.outcome as Session['outcome'],
  converged: r.converged === null ? null : JSON.parse(r.converged),
  product_id: r.product_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
  closed_at: r.closed_at,
});

export interface Participant {
  listing_id: string;
  role: string;
  status: 'invited' | 'joined';
  byo: boolean;
  invited_at: string;
  joined_at: string | null;
}

export interface Step {
  step: number;
  title: string;
  role: string;
  state: StepState;
  claimed_by: string | null;
  claimed_at: string | null;
  result: string | null;
  done_at: string | null;
}

/** A new session of a workflow: the lead joined, partners invited, every step unclaimed. */
export async function insertSession(ex: Executor, w: Workflow, id: string, now: string): Promise<void> {
  await q(ex)
    .insertInto('collab_sessions')
    .values({ id, workflow_id: w.workflow_id, owner_listing_id: w.owner_listing_id, goal: w.goal, state: 'open', open_join: flag(w.partners.length === 0), outcome: null, converged: null, product_id: null, created_at: now, updated_at: now, closed_at: null })
    .execute();
  const seats = [
    { session_id: id, listing_id: w.owner_listing_id, role: 'lead', status: 'joined' as const, byo: flag(false), invited_at: now, joined_at: now },
    ...w.partners.map((p) => ({ session_id: id, listing_id: p.listing_id, role: p.role, status: 'invited' as const, byo: flag(false), invited_at: now, joined_at: null })),
  ];
  await q(ex).insertInto('collab_participants').values(seats).execute();
  await q(ex)
    .insertInto('collab_steps')
    .values(w.steps.map((s) => ({ session_id: id, step: s.step, title: s.title, role: s.role, state: 'unclaimed' as const, claimed_by: null, claimed_at: null, result: null, done_at: null })))
    .execute();
}

export async function findSession(ex: Executor, id: string): Promise<Session | undefined> {
  const row = await q(ex).selectFrom('collab_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toSession(row);
}

/**
 * The session, locked until the transaction ends (PostgreSQL): `share` for work that needs the
 * state to stay (claims, results, messages, joins), `update` for a change of state (close). SQLite
 * has one writer at a time, so there a transaction is already alone.
 */
export async function lockSession(trx: Executor, id: string, mode: 'share' | 'update'): Promise<Session | undefined> {
  let sel = q(trx).selectFrom('collab_sessions').selectAll().where('id', '=', id);
  if (takesRowLocks(trx)) sel = mode === 'update' ? sel.forUpdate() : sel.forShare();
  const row = await sel.executeTakeFirst();
  return row && toSession(row);
}

/** The workflow's session that is not closed yet (at most one), if any. */
export async function currentSession(ex: Executor, workflowId: string): Promise<Session | undefined> {
  const row = await q(ex).selectFrom('collab_sessions').selectAll().where('workflow_id', '=', workflowId).where('state', '!=', 'closed').orderBy('created_at', 'desc').orderBy('id').executeTakeFirst();
  return row && toSession(row);
}

/** Moves a session from one of `from` to `to` with the patch; false when it was in another state. */
export async function moveSession(
  ex: Executor,
  id: string,
  from: readonly SessionState[],
  to: SessionState,
  now: string,
  patch: { outcome?: string; converged?: unknown; product_id?: string } = {},
): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_sessions')
    .set({
      state: to,
      updated_at: now,
      ...(to === 'closed' ? { closed_at: now } : {}),
      ...(patch.outcome !== undefined ? { outcome: patch.outcome } : {}),
      ...(patch.converged !== undefined ? { converged: JSON.stringify(patch.converged) } : {}),
      ...(patch.product_id !== undefined ? { product_id: patch.product_id } : {}),
    })
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function touchSession(ex: Executor, id: string, now: string): Promise<void> {
  await q(ex).updateTable('collab_sessions').set({ updated_at: now }).where('id', '=', id).execute();
}

const toParticipant = (r: { listing_id: string; role: string; status: 'invited' | 'joined'; byo: number; invited_at: string; joined_at: string | null }): Participant => ({
  listing_id: r.listing_id,
  role: r.role,
  status: r.status,
  byo: Number(r.byo) === 1,
  invited_at: r.invited_at,
  joined_at: r.joined_at,
});

export async function participantsOf(ex: Executor, sessionId: string): Promise<Participant[]> {
  const rows = await q(ex).selectFrom('collab_participants').selectAll().where('session_id', '=', sessionId).orderBy('invited_at').orderBy('listing_id').execute();
  return rows.map(toParticipant);
}

export async function findParticipant(ex: Executor, sessionId: string, listingId: string): Promise<Participant | undefined> {
  const row = await q(ex).selectFrom('collab_participants').selectAll().where('session_id', '=', sessionId).where('listing_id', '=', listingId).executeTakeFirst();
  return row && toParticipant(row);
}

/** An invited participant joins; false when it was not invited or had joined already. */
export async function acceptInvitation(ex: Executor, sessionId: string, listingId: string, now: string): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_participants')
    .set({ status: 'joined', joined_at: now })
    .where('session_id', '=', sessionId)
    .where('listing_id', '=', listingId)
    .where('status', '=', 'invited')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Adds a participant that was not invited (open join, bring-your-own); false when it was there already. */
export async function addParticipant(ex: Executor, sessionId: string, seat: { listing_id: string; role: string; status: 'invited' | 'joined'; byo: boolean }, now: string): Promise<boolean> {
  const res = await q(ex)
    .insertInto('collab_participants')
    .values({ session_id: sessionId, listing_id: seat.listing_id, role: seat.role, status: seat.status, byo: flag(seat.byo), invited_at: now, joined_at: seat.status === 'joined' ? now : null })
    .onConflict((oc) => oc.columns(['session_id', 'listing_id']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function countParticipants(ex: Executor, sessionId: string): Promise<number> {
  const row = await q(ex).selectFrom('collab_participants').select((eb) => eb.fn.countAll<number>().as('n')).where('session_id', '=', sessionId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function stepsOf(ex: Executor, sessionId: string): Promise<Step[]> {
  const rows = await q(ex).selectFrom('collab_steps').selectAll().where('session_id', '=', sessionId).orderBy('step').execute();
  return rows.map(({ session_id: _s, ...r }) => ({ ...r, step: Number(r.step) }));
}

/** Per session: its steps in order (for lists). */
export async function stepsOfMany(ex: Executor, sessionIds: string[]): Promise<Map<string, Step[]>> {
  const out = new Map<string, Step[]>(sessionIds.map((id) => [id, []]));
  if (!sessionIds.length) return out;
  const rows = await q(ex).selectFrom('collab_steps').selectAll().where('session_id', 'in', sessionIds).orderBy('session_id').orderBy('step').execute();
  for (const { session_id, ...r } of rows) out.get(session_id)!.push({ ...r, step: Number(r.step) });
  return out;
}

/** Claims a step for a listing when it is still unclaimed: exactly one of racing claimers gets it. */
export async function claimStep(ex: Executor, sessionId: string, step: number, listingId: string, now: string): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_steps')
    .set({ state: 'claimed', claimed_by: listingId, claimed_at: now })
    .where('session_id', '=', sessionId)
    .where('step', '=', step)
    .where('state', '=', 'unclaimed')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Records the result of a step its claimer holds; false when it is not claimed by that listing. */
export async function completeStep(ex: Executor, sessionId: string, step: number, listingId: string, result: string, now: string): Promise<boolean> {
  const res = await q(ex)
    .updateTable('collab_steps')
    .set({ state: 'done', result, done_at: now })
    .where('session_id', '=', sessionId)
    .where('step', '=', step)
    .where('state', '=', 'claimed')
    .where('claimed_by', '=', listingId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export interface Message {
  id: string;
  from_listing_id: string;
  body: string;
  created_at: string;
}

export async function insertMessage(ex: Executor, sessionId: string, m: Message): Promise<void> {
  await q(ex).insertInto('collab_messages').values({ ...m, session_id: sessionId }).execute();
}

export async function countMessages(ex: Executor, sessionId: string): Promise<number> {
  const row = await q(ex).selectFrom('collab_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('session_id', '=', sessionId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The session's latest messages, oldest first. */
export async function recentMessages(ex: Executor, sessionId: string, limit: number): Promise<Message[]> {
  const rows = await q(ex).selectFrom('collab_messages').select(['id', 'from_listing_id', 'body', 'created_at']).where('session_id', '=', sessionId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.reverse();
}

/** Sessions by participant listing and/or state, newest first. */
export async function listSessions(ex: Executor, by: { listing_id?: string; state?: SessionState }, limit: number): Promise<Session[]> {
  let sel = q(ex).selectFrom('collab_sessions as s').selectAll('s');
  if (by.listing_id !== undefined) {
    const listingId = by.listing_id;
    sel = sel.where((eb) => eb.exists(eb.selectFrom('collab_participants as p').select('p.listing_id').whereRef('p.session_id', '=', 's.id').where('p.listing_id', '=', listingId)));
  }
  if (by.state !== undefined) sel = sel.where('s.state', '=', by.state);
  const rows = await sel.orderBy('s.created_at', 'desc').orderBy('s.id').limit(limit).execute();
  return rows.map(toSession);
}

/** Per session: its participants (for lists). */
export async function participantsOfMany(ex: Executor, sessionIds: string[]): Promise<Map<string, Participant[]>> {
  const out = new Map<string, Participant[]>(sessionIds.map((id) => [id, []]));
  if (!sessionIds.length) return out;
  const rows = await q(ex).selectFrom('collab_participants').selectAll().where('session_id', 'in', sessionIds).orderBy('invited_at').orderBy('listing_id').execute();
  for (const r of rows) out.get(r.session_id)!.push(toParticipant(r));
  return out;
}

/** A listing's sessions counted by state (collab_access_status). */
export async function sessionStatesOf(ex: Executor, listingId: string): Promise<Record<SessionState, number>> {
  const rows = await q(ex)
    .selectFrom('collab_participants as p')
    .innerJoin('collab_sessions as s', 's.id', 'p.session_id')
    .select(['s.state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('p.listing_id', '=', listingId)
    .groupBy('s.state')
    .execute();
  const out: Record<SessionState, number> = { open: 0, active: 0, converged: 0, closed: 0 };
  for (const r of rows) out[r.state] = Number(r.n);
  return out;
}

/** Sessions of a workflow, newest first (list_collab_workflows). */
export async function sessionsOfWorkflows(ex: Executor, workflowIds: string[]): Promise<Map<string, Session[]>> {
  const out = new Map<string, Session[]>(workflowIds.map((id) => [id, []]));
  if (!workflowIds.length) return out;
  const rows = await q(ex).selectFrom('collab_sessions').selectAll().where('workflow_id', 'in', workflowIds).orderBy('created_at', 'desc').orderBy('id').execute();
  for (const r of rows) out.get(r.workflow_id)!.push(toSession(r));
  return out;
}
