// A session's steps in order, of one session or, for lists, of several.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import type { Step } from './row.ts';

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
