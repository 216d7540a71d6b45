// The workflow the collab store tests start their sessions from: a lead and one invited writer,
// two steps (the writer drafts, the lead checks).
import type { Workflow } from '../../src/collab/store/row.ts';

export const NOW = '2026-11-01T12:00:00.000Z';

export const wf = (id: string, partners: Workflow['partners'] = [{ listing_id: 'lst_p', role: 'writer' }], at = NOW): Workflow => ({
  workflow_id: id,
  owner_listing_id: 'lst_lead',
  owner_subject: 'sub_lead',
  agent_name: null,
  goal: 'a goal',
  partners,
  steps: [
    { step: 1, title: 'draft', role: 'writer' },
    { step: 2, title: 'check', role: 'lead' },
  ],
  source: 'manual',
  created_at: at,
});
