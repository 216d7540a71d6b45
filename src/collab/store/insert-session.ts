// A new run of a workflow: the session, its seats and its steps.
import type { Executor } from '../../platform/db/executor.ts';
import { flag } from '../../platform/db/flag.ts';
import { collabTables as q } from '../tables.ts';
import type { Workflow } from './row.ts';

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
