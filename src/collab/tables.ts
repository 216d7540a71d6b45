// The collab domain's tables: workflows (a goal, its participants and ordered steps), sessions
// (one run of a workflow: participants, steps with their claims and results, messages), and the
// market (packaged products and who bought them). States: docs/decisions/collab-sessions.md.
// Only src/collab/ may import this module.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';
import type { Flag } from '../platform/db/flag.ts';

export interface CollabWorkflowsTable {
  id: string; // cwf_...
  owner_listing_id: string; // the lead
  owner_subject: string; // metering subject key of the caller that created it
  agent_name: string | null; // the caller's label, cleaned
  goal: string; // untrusted text, cleaned and capped
  partners: string; // JSON [{listing_id, role}]: invited partners; [] = open to any Live listing
  steps: string; // JSON [{step, title, role}], in order
  source: string; // manual | path | session | feedback
  created_at: string;
}

/** The lead and each invited partner of a workflow: a listing's workflows are an indexed read. */
export interface CollabWorkflowMembersTable {
  workflow_id: string;
  listing_id: string;
  role: string;
  created_at: string;
}

export type SessionState = 'open' | 'active' | 'converged' | 'closed';

export interface CollabSessionsTable {
  id: string; // cs_...
  workflow_id: string;
  owner_listing_id: string;
  goal: string;
  state: SessionState;
  open_join: Flag; // 1: no invitations, any Live listing may join as `partner`
  outcome: string | null; // packaged | abandoned, once closed
  converged: string | null; // JSON of the converged results (state converged and after)
  product_id: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export interface CollabParticipantsTable {
  session_id: string;
  listing_id: string;
  role: string;
  status: 'invited' | 'joined';
  byo: Flag; // registered through register_collab_byo
  invited_at: string;
  joined_at: string | null;
}

export type StepState = 'unclaimed' | 'claimed' | 'done';

export interface CollabStepsTable {
  session_id: string;
  step: number; // 1..n, the workflow's order
  title: string;
  role: string;
  state: StepState;
  claimed_by: string | null; // listing id
  claimed_at: string | null;
  result: string | null; // untrusted text, cleaned and capped
  done_at: string | null;
}

export interface CollabMessagesTable {
  id: string; // cmsg_...
  session_id: string;
  from_listing_id: string;
  body: string; // untrusted text, cleaned and capped
  created_at: string;
}

export interface CollabProductsTable {
  id: string; // cpr_...
  session_id: string;
  workflow_id: string;
  owner_listing_id: string;
  title: string;
  summary: string;
  contributors: string; // JSON [{listing_id, role, steps}]
  artifacts: string; // JSON [{name, media_type, content}]
  state: 'draft' | 'published';
  price_cents: number | null;
  created_at: string;
  published_at: string | null;
}

export interface CollabPurchasesTable {
  product_id: string;
  buyer_listing_id: string;
  price_cents: number; // what was paid (0 when free)
  via: string; // founding | free | x402
  receipt: string | null; // JSON of the x402 receipt
  created_at: string;
}

export type CollabTables = {
  collab_workflows: CollabWorkflowsTable;
  collab_workflow_members: CollabWorkflowMembersTable;
  collab_sessions: CollabSessionsTable;
  collab_participants: CollabParticipantsTable;
  collab_steps: CollabStepsTable;
  collab_messages: CollabMessagesTable;
  collab_products: CollabProductsTable;
  collab_purchases: CollabPurchasesTable;
};

export const collabTables = (ex: Executor) => typed<CollabTables>(ex);
