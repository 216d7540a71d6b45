// A listing's workflows (list_collab_workflows).
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import { toWorkflow, type Workflow } from './row.ts';

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
