// The A2A task rows: written whole on every save (a task is small and changes a few times at most),
// read by id, listed by context, pruned by age.
import type { Executor } from '../platform/db/executor.ts';
import { a2aTables as q } from './tables.ts';

export interface TaskRow {
  id: string;
  contextId: string;
  state: string;
  /** The task's JSON text. */
  task: string;
}

/** Inserts or replaces a task; created_at stays what the first save wrote. */
export async function saveTaskRow(ex: Executor, row: TaskRow, now: string): Promise<void> {
  await q(ex)
    .insertInto('a2a_tasks')
    .values({ id: row.id, context_id: row.contextId, state: row.state, task: row.task, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ context_id: row.contextId, state: row.state, task: row.task, updated_at: now }))
    .execute();
}

export async function loadTaskRow(ex: Executor, id: string): Promise<TaskRow | undefined> {
  const r = await q(ex).selectFrom('a2a_tasks').select(['id', 'context_id', 'state', 'task']).where('id', '=', id).executeTakeFirst();
  return r ? { id: r.id, contextId: r.context_id, state: r.state, task: r.task } : undefined;
}

/** One context's tasks, oldest first, with the total before paging. */
export async function listTaskRows(ex: Executor, filter: { contextId: string; state?: string; offset: number; limit: number }): Promise<{ rows: TaskRow[]; total: number }> {
  let base = q(ex).selectFrom('a2a_tasks').where('context_id', '=', filter.contextId);
  if (filter.state) base = base.where('state', '=', filter.state);
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const rows = await base.select(['id', 'context_id', 'state', 'task']).orderBy('created_at').orderBy('id').offset(filter.offset).limit(filter.limit).execute();
  return { rows: rows.map((r) => ({ id: r.id, contextId: r.context_id, state: r.state, task: r.task })), total: Number(counted?.n ?? 0) };
}

/** Deletes tasks last changed before `before`. */
export async function pruneTaskRows(ex: Executor, before: string): Promise<number> {
  const result = await q(ex).deleteFrom('a2a_tasks').where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
