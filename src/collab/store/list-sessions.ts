// Lists of sessions: by participant and/or state (list_collab_sessions), or per workflow.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q, type SessionState } from '../tables.ts';
import { toSession, type Session } from './row.ts';

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

/** Sessions of a workflow, newest first (list_collab_workflows). */
export async function sessionsOfWorkflows(ex: Executor, workflowIds: string[]): Promise<Map<string, Session[]>> {
  const out = new Map<string, Session[]>(workflowIds.map((id) => [id, []]));
  if (!workflowIds.length) return out;
  const rows = await q(ex).selectFrom('collab_sessions').selectAll().where('workflow_id', 'in', workflowIds).orderBy('created_at', 'desc').orderBy('id').execute();
  for (const r of rows) out.get(r.workflow_id)!.push(toSession(r));
  return out;
}
