// A new workflow and its members (the lead and each invited partner), for a listing's list.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import type { Workflow } from './row.ts';

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
