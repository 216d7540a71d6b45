// The session state machine's rules (docs/decisions/collab-sessions.md), as pure checks
// that name the refusal. Sessions: open -> active -> converged -> closed (open or active -> closed
// when abandoned). Steps: unclaimed -> claimed -> done, strictly in order.
import { AppError, conflict } from '../platform/errors.ts';
import { ANY, LEAD } from './plan.ts';
import type { Participant, Session, Step } from './store.ts';

/** Claims, results, messages and joins need an open or active session. */
export function assertAccepting(s: Session): void {
  if (s.state === 'closed') {
    throw conflict('session_closed', `session ${s.session_id} is closed (${s.outcome ?? 'closed'}): it accepts nothing more`, 'session_id');
  }
  if (s.state === 'converged') {
    throw conflict('session_closed', `session ${s.session_id} is closing: its results are converged and only collab_session_close by the lead packages it now`, 'session_id');
  }
}

export function assertJoined(p: Participant | undefined, s: Session, listingId: string): Participant {
  if (!p) throw new AppError(403, 'not_a_participant', `listing ${listingId} is not a participant of session ${s.session_id}${s.open_join ? ': join it first (collab_session_join)' : ''}`, 'listing_id');
  if (p.status !== 'joined') throw conflict('not_joined', `listing ${listingId} is invited to session ${s.session_id} but has not joined: call collab_session_join first`, 'listing_id');
  return p;
}

export function assertLead(s: Session, listingId: string): void {
  if (s.owner_listing_id !== listingId) throw new AppError(403, 'lead_only', `only the lead of session ${s.session_id} (listing ${s.owner_listing_id}) may do this`, 'listing_id');
}

/** Whether a participant's role may do a step. */
export const roleFits = (stepRole: string, role: string): boolean => stepRole === role || stepRole === ANY;

/** The step that runs now: the first one not done (steps run in order). */
export const readyStep = (steps: readonly Step[]): Step | undefined => steps.find((s) => s.state !== 'done');

/** Roles steps need that no joined participant holds (what an open session still looks for). */
export function unfilledRoles(steps: readonly Step[], participants: readonly Participant[]): string[] {
  const held = new Set(participants.filter((p) => p.status === 'joined').map((p) => p.role));
  return [...new Set(steps.filter((s) => s.state !== 'done' && s.role !== ANY && s.role !== LEAD && !held.has(s.role)).map((s) => s.role))];
}

/** Why `listingId` (holding `role`) may not claim step `n` now, or undefined when it may. */
export function claimRefusal(steps: readonly Step[], n: number, role: string): AppError | undefined {
  const step = steps.find((s) => s.step === n);
  if (!step) return new AppError(404, 'not_found', `no step ${n} in this session (steps 1-${steps.length})`, 'step');
  if (step.state === 'done') return conflict('step_done', `step ${n} is done already`, 'step');
  if (step.state === 'claimed') return conflict('step_taken', `step ${n} is claimed by listing ${step.claimed_by}: a step is claimed once`, 'step');
  const ready = readyStep(steps);
  if (ready && ready.step !== n) return conflict('step_not_ready', `step ${n} waits for step ${ready.step} (${ready.state}): steps run in order`, 'step');
  if (!roleFits(step.role, role)) return new AppError(403, 'wrong_role', `step ${n} is for role ${step.role}; you hold role ${role}`, 'step');
  return undefined;
}
