// What the collab store operations share: the shapes other files see, and how rows become them.
import type { SessionState, StepState } from '../tables.ts';
import type { PartnerSeat, PlannedStep } from '../plan.ts';

export interface Workflow {
  workflow_id: string;
  owner_listing_id: string;
  owner_subject: string;
  agent_name: string | null;
  goal: string;
  partners: PartnerSeat[];
  steps: PlannedStep[];
  source: 'manual' | 'path' | 'session' | 'feedback';
  created_at: string;
}

type WorkflowRow = { id: string; owner_listing_id: string; owner_subject: string; agent_name: string | null; goal: string; partners: string; steps: string; source: string; created_at: string };

export const toWorkflow = (r: WorkflowRow): Workflow => ({
  workflow_id: r.id,
  owner_listing_id: r.owner_listing_id,
  owner_subject: r.owner_subject,
  agent_name: r.agent_name,
  goal: r.goal,
  partners: JSON.parse(r.partners) as PartnerSeat[],
  steps: JSON.parse(r.steps) as PlannedStep[],
  source: r.source as Workflow['source'],
  created_at: r.created_at,
});

export interface Session {
  session_id: string;
  workflow_id: string;
  owner_listing_id: string;
  goal: string;
  state: SessionState;
  open_join: boolean;
  outcome: 'packaged' | 'abandoned' | null;
  converged: unknown;
  product_id: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

type SessionRow = {
  id: string;
  workflow_id: string;
  owner_listing_id: string;
  goal: string;
  state: SessionState;
  open_join: number;
  outcome: string | null;
  converged: string | null;
  product_id: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
};

export const toSession = (r: SessionRow): Session => ({
  session_id: r.id,
  workflow_id: r.workflow_id,
  owner_listing_id: r.owner_listing_id,
  goal: r.goal,
  state: r.state,
  open_join: Number(r.open_join) === 1,
  outcome: r.outcome as Session['outcome'],
  converged: r.converged === null ? null : JSON.parse(r.converged),
  product_id: r.product_id,
  created_at: r.created_at,
  updated_at: r.updated_at,
  closed_at: r.closed_at,
});

export interface Participant {
  listing_id: string;
  role: string;
  status: 'invited' | 'joined';
  byo: boolean;
  invited_at: string;
  joined_at: string | null;
}

export const toParticipant = (r: { listing_id: string; role: string; status: 'invited' | 'joined'; byo: number; invited_at: string; joined_at: string | null }): Participant => ({
  listing_id: r.listing_id,
  role: r.role,
  status: r.status,
  byo: Number(r.byo) === 1,
  invited_at: r.invited_at,
  joined_at: r.joined_at,
});

export interface Step {
  step: number;
  title: string;
  role: string;
  state: StepState;
  claimed_by: string | null;
  claimed_at: string | null;
  result: string | null;
  done_at: string | null;
}

export interface Message {
  id: string;
  from_listing_id: string;
  body: string;
  created_at: string;
}
