// The collab domain's SQL for workflows and sessions. Every state change is one conditional
// UPDATE (`... WHERE state = <expected>`), so two callers racing for the same transition (two
// claimers of one step, a close and a claim) never both win: PostgreSQL re-checks the condition
// under the row lock, SQLite has one writer at a time.
// One file per database operation in store/, each with its test beside it; this index is what
// the rest of the domain imports.
export type { SessionState, StepState } from './tables.ts';
export type { Message, Participant, Session, Step, Workflow } from './store/row.ts';
export { insertWorkflow } from './store/insert-workflow.ts';
export { findWorkflow, lockWorkflow } from './store/find-workflow.ts';
export { workflowsOfListing } from './store/workflows-of-listing.ts';
export { insertSession } from './store/insert-session.ts';
export { currentSession, findSession, lockSession } from './store/find-session.ts';
export { moveSession } from './store/move-session.ts';
export { touchSession } from './store/touch-session.ts';
export { countParticipants, findParticipant, participantsOf, participantsOfMany } from './store/find-participants.ts';
export { acceptInvitation } from './store/accept-invitation.ts';
export { addParticipant } from './store/add-participant.ts';
export { stepsOf, stepsOfMany } from './store/find-steps.ts';
export { claimStep } from './store/claim-step.ts';
export { completeStep } from './store/complete-step.ts';
export { insertMessage } from './store/insert-message.ts';
export { countMessages, recentMessages } from './store/read-messages.ts';
export { listSessions, sessionsOfWorkflows } from './store/list-sessions.ts';
export { sessionStatesOf } from './store/session-states-of.ts';
