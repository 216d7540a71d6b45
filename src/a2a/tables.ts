// The a2a domain's table: the A2A tasks Rollcall answered (SPEC.md 1.8), so tasks/get finds a task
// on any instance and after a restart. Only files in src/a2a/ may import this module.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface A2aTasksTable {
  id: string;
  context_id: string;
  /** The A2A v1 state name (TASK_STATE_COMPLETED, ...), for filters without parsing `task`. */
  state: string;
  /** The whole task in the SDK's v1 JSON form (Task.toJSON). */
  task: string;
  created_at: string;
  updated_at: string;
}

export type A2aTables = { a2a_tasks: A2aTasksTable };

export const a2aTables = (ex: Executor) => typed<A2aTables>(ex);
