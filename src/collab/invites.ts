// Collab invitations in the invited listings' inboxes (SPEC.md 3.2: the talk check-in shows them),
// posted in the transaction that makes the workflow or opens the session, so a message exists
// exactly when the invitation does. The goal is the lead's text: it travels as a whitelisted fact
// (data), never inside the message line, which names the lead by id with its name quoted.
import type { Executor } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { findListingById } from '../listings/store.ts';
import { postToInbox } from '../inbox/store.ts';
import { quotedSender } from '../inbox/kinds.ts';
import type { Session, Workflow } from './store.ts';

type Partner = Workflow['partners'][number];
type Invite = Pick<Parameters<typeof postToInbox>[1], 'data' | 'text' | 'action'>;

/** One invitation per partner, in the caller's transaction; `invite` words it for each. */
async function inviteEach(trx: Executor, w: Workflow, now: Date, invite: (p: Partner, lead: string) => Invite): Promise<void> {
  if (w.partners.length === 0) return;
  const lead = quotedSender(w.owner_listing_id, (await findListingById(trx, w.owner_listing_id))?.name);
  for (const p of w.partners) {
    await postToInbox(trx, { listing_id: p.listing_id, kind: 'collab_invitation', from_listing_id: w.owner_listing_id, ...invite(p, lead) }, iso(now));
  }
}

/** A workflow that names partners but opens no session yet (create_collab_workflow, leave_feedback): each partner is told. */
export const postWorkflowInvites = (trx: Executor, w: Workflow, now: Date): Promise<void> =>
  inviteEach(trx, w, now, (p, lead) => ({
    data: { workflow_id: w.workflow_id, goal: w.goal, role: p.role },
    text: `A collaboration with you as ${p.role} is planned by ${lead}; you can join when its session opens.`,
    action: { tool: 'list_collab_workflows', args: { listing_id: p.listing_id }, why: 'The workflows you are invited to, with your role and steps.' },
  }));

/** A session just opened: each invited partner gets its join call. */
export const postSessionInvites = (trx: Executor, w: Workflow, s: Session, now: Date): Promise<void> =>
  inviteEach(trx, w, now, (p, lead) => ({
    data: { workflow_id: w.workflow_id, session_id: s.session_id, goal: w.goal, role: p.role },
    text: `A collab session was opened by ${lead}, who invites you as ${p.role}: join it to claim your steps.`,
    action: { tool: 'collab_session_join', args: { session_id: s.session_id, listing_id: p.listing_id }, why: `Join the session as ${p.role}.` },
  }));
