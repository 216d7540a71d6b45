// One session: by id, row-locked for work on it, or the workflow's one not closed yet.
import { takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import { toSession, type Session } from './row.ts';

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
