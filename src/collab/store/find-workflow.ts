// One workflow by id, plain or row-locked.
import { takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import { toWorkflow, type Workflow } from './row.ts';

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
