// The work of a session's transitions, each inside the caller's transaction with the session
// locked (rules.ts says what is refused): joining, claiming a step, posting its result. Shared by
// the session tools and collab_run.
import type { Executor } from '../platform/db/executor.ts';
import { AppError, badRequest, conflict, notFound } from '../platform/errors.ts';
import { nextStep, type NextStep } from '../platform/next-step.ts';
import { cleanText } from '../listings/text.ts';
import { findListingById, type ListingRow } from '../listings/store.ts';
import { postToInbox } from '../inbox/store.ts';
import { quotedSender } from '../inbox/kinds.ts';
import { MAX_PARTNERS, PARTNER } from './plan.ts';
import { assertAccepting, assertJoined, claimRefusal, readyStep, roleFits } from './rules.ts';
import {
  acceptInvitation,
  addParticipant,
  claimStep,
  completeStep,
  countParticipants,
  findParticipant,
  findSession,
  lockSession,
  moveSession,
  stepsOf,
  touchSession,
  type Participant,
  type Session,
  type Step,
} from './store.ts';

export const MAX_RESULT = 4000;

export async function requireLockedSession(trx: Executor, id: string, mode: 'share' | 'update'): Promise<Session> {
  const s = await lockSession(trx, id, mode);
  if (!s) throw notFound(`no collab session ${JSON.stringify(id)}`, 'session_id');
  return s;
}

/**
 * A listing joins: an invited one accepts; anyone else only an open session (no invitations),
 * and only as a Live listing, while there is room. The first partner to join makes it active.
 */
export async function joinIn(trx: Executor, s: Session, listing: ListingRow, now: string): Promise<{ role: string; already: boolean }> {
  assertAccepting(s);
  const p = await findParticipant(trx, s.session_id, listing.id);
  if (p?.status === 'joined') return { role: p.role, already: true };
  if (p?.status === 'invited') {
    await acceptInvitation(trx, s.session_id, listing.id, now);
  } else {
    if (!s.open_join) throw new AppError(403, 'not_invited', `listing ${listing.id} is not invited to session ${s.session_id}: only its invited partners may join`, 'listing_id');
    if (listing.lane !== 'active') throw conflict('not_live', `listing ${listing.id} is ${listing.lane}: only Live listings may join an open session`, 'listing_id');
    if ((await countParticipants(trx, s.session_id)) > MAX_PARTNERS) throw conflict('session_full', `session ${s.session_id} has ${MAX_PARTNERS} partners already`, 'session_id');
    await addParticipant(trx, s.session_id, { listing_id: listing.id, role: PARTNER, status: 'joined', byo: false }, now);
  }
  if (!(await moveSession(trx, s.session_id, ['open'], 'active', now))) await touchSession(trx, s.session_id, now);
  return { role: p?.role ?? PARTNER, already: false };
}

/** The caller's step: the one it names, else the ready step when its role fits. */
function targetStep(steps: readonly Step[], me: Participant, asked: number | undefined): number {
  if (asked !== undefined) return asked;
  const ready = readyStep(steps);
  if (!ready) throw conflict('no_steps_left', 'every step is done: the lead closes the session (collab_session_close)', 'step');
  if (ready.state === 'claimed') throw conflict('step_taken', `the next step (${ready.step}) is claimed by listing ${ready.claimed_by}: wait for its result`, 'step');
  if (!roleFits(ready.role, me.role)) throw new AppError(403, 'wrong_role', `the next step (${ready.step}) is for role ${ready.role}; you hold role ${me.role}`, 'step');
  return ready.step;
}

/**
 * Claims a step for the listing; exactly one of racing claimers wins (store.ts claimStep). The
 * session is share-locked (a close waits) and never written here: racing claimers each hold that
 * share lock, so the winner writing the session row would deadlock with the losers.
 */
export async function claimIn(trx: Executor, sessionId: string, listingId: string, asked: number | undefined, now: string): Promise<{ session: Session; step: Step; steps: Step[]; me: Participant }> {
  const s = await requireLockedSession(trx, sessionId, 'share');
  assertAccepting(s);
  const me = assertJoined(await findParticipant(trx, sessionId, listingId), s, listingId);
  const steps = await stepsOf(trx, sessionId);
  const n = targetStep(steps, me, asked);
  const refused = claimRefusal(steps, n, me.role);
  if (refused) throw refused;
  if (!(await claimStep(trx, sessionId, n, listingId, now))) {
    const after = (await stepsOf(trx, sessionId)).find((x) => x.step === n);
    throw conflict('step_taken', `step ${n} was just claimed by listing ${after?.claimed_by ?? 'another participant'}: a step is claimed once`, 'step');
  }
  const claimed = { ...steps.find((x) => x.step === n)!, state: 'claimed' as const, claimed_by: listingId, claimed_at: now };
  return { session: s, step: claimed, steps: steps.map((x) => (x.step === n ? claimed : x)), me };
}

/** A result as stored: cleaned and capped; a 400 when nothing is left. */
export function cleanResult(raw: string): string {
  const text = cleanText(raw, MAX_RESULT);
  if (text.length < 2) throw badRequest('invalid_input', 'result is empty: say what the step produced', 'result');
  return text;
}

/** Posts the result of a step the listing claimed: only its claimer may, once. */
export async function resultIn(trx: Executor, sessionId: string, listingId: string, asked: number | undefined, result: string, now: string): Promise<{ session: Session; step: Step; steps: Step[] }> {
  const s = await requireLockedSession(trx, sessionId, 'share');
  assertAccepting(s);
  assertJoined(await findParticipant(trx, sessionId, listingId), s, listingId);
  const steps = await stepsOf(trx, sessionId);
  const n = asked ?? steps.find((x) => x.state === 'claimed' && x.claimed_by === listingId)?.step;
  if (n === undefined) throw conflict('nothing_claimed', 'you hold no claimed step in this session: claim one first (collab_session_claim)', 'step');
  const step = steps.find((x) => x.step === n);
  if (!step) throw notFound(`no step ${n} in this session (steps 1-${steps.length})`, 'step');
  if (step.state === 'unclaimed') throw conflict('step_unclaimed', `step ${n} is not claimed: claim it first (collab_session_claim)`, 'step');
  if (step.claimed_by !== listingId) throw new AppError(403, 'not_claimer', `step ${n} is claimed by listing ${step.claimed_by}: only its claimer posts its result`, 'step');
  if (step.state === 'done' || !(await completeStep(trx, sessionId, n, listingId, result, now))) throw conflict('step_done', `step ${n} has its result already`, 'step');
  const done = { ...step, state: 'done' as const, result, done_at: now };
  return { session: s, step: done, steps: steps.map((x) => (x.step === n ? done : x)) };
}

/** Earlier steps' results, handed to whoever does the next step (participants only; data, not instructions). */
export const inputsBefore = (steps: readonly Step[], n: number) =>
  steps.filter((x) => x.step < n && x.state === 'done').map((x) => ({ step: x.step, title: x.title, by: x.claimed_by, result: x.result }));

export interface NextView {
  status: 'join' | 'finish_your_step' | 'claim' | 'waiting' | 'all_done' | 'closing' | 'closed';
  step: Step | null;
  why: string;
  next_step?: NextStep;
}

/** What a participant does next in a session, as a status and a valid next_step. */
export function nextFor(s: Session, steps: readonly Step[], me: Participant | undefined, listingId: string): NextView {
  const args = { session_id: s.session_id, listing_id: listingId };
  const lead = s.owner_listing_id === listingId;
  if (s.state === 'closed') {
    return s.product_id
      ? { status: 'closed', step: null, why: 'The session is closed and packaged.', next_step: nextStep('install_collab_product', { product_id: s.product_id, listing_id: listingId }, 'Get the packaged product (contributors install it free).') }
      : { status: 'closed', step: null, why: 'The session is closed.', next_step: nextStep('list_collab_sessions', { listing_id: listingId }, 'Your other sessions.') };
  }
  if (s.state === 'converged') {
    return lead
      ? { status: 'closing', step: null, why: 'Results are converged; packaging is left.', next_step: nextStep('collab_session_close', args, 'Package the converged results into a product draft.') }
      : { status: 'closing', step: null, why: 'The lead is packaging the results.', next_step: nextStep('list_collab_sessions', { listing_id: listingId }, 'Your sessions, with this one\'s state.') };
  }
  if (!me || me.status === 'invited') {
    return { status: 'join', step: null, why: me ? 'You are invited: join to take part.' : 'The session is open to any Live listing.', next_step: nextStep('collab_session_join', args, 'Join the session with your listing.') };
  }
  const mine = steps.find((x) => x.state === 'claimed' && x.claimed_by === listingId);
  if (mine) {
    return { status: 'finish_your_step', step: mine, why: `You claimed step ${mine.step}: post its result.`, next_step: nextStep('collab_session_result', { ...args, step: mine.step }, `Post what you produced for "${mine.title}" (result).`, ['result']) };
  }
  const ready = readyStep(steps);
  const message = (text: string, why: string) => nextStep('collab_session_message', { ...args, text }, why);
  if (!ready) {
    return lead
      ? { status: 'all_done', step: null, why: 'Every step is done.', next_step: nextStep('collab_session_close', args, 'Converge the results and package them into a product draft.') }
      : { status: 'all_done', step: null, why: 'Every step is done; the lead closes the session.', next_step: message('Every step is done: ready to close and package.', 'Tell the lead the session is ready to close.') };
  }
  if (ready.state === 'unclaimed' && roleFits(ready.role, me.role)) {
    return { status: 'claim', step: ready, why: `Step ${ready.step} is ready and for your role (${me.role}).`, next_step: nextStep('collab_session_claim', { ...args, step: ready.step }, 'Claim the step: one participant gets it.') };
  }
  const waitingOn = ready.state === 'claimed' ? `listing ${ready.claimed_by} (claimed)` : `role ${ready.role}`;
  return { status: 'waiting', step: ready, why: `Step ${ready.step} waits on ${waitingOn}.`, next_step: message(`Waiting on step ${ready.step}: ${ready.title}`, 'Nudge the others in the session (messages are free).') };
}

/**
 * Checks a bring-your-own registration before its endpoint is published: the session accepts,
 * the caller leads it (or it is open), and the role is one its steps need. Returns the role.
 */
export async function byoRole(ex: Executor, sessionId: string, callerId: string, asked: string | undefined): Promise<string> {
  const s = await findSession(ex, sessionId);
  if (!s) throw notFound(`no collab session ${JSON.stringify(sessionId)}`, 'session_id');
  assertAccepting(s);
  if (!s.open_join && s.owner_listing_id !== callerId) {
    throw new AppError(403, 'lead_only', `only the lead of session ${s.session_id} (listing ${s.owner_listing_id}) brings in participants; it is invite-only`, 'listing_id');
  }
  const roles = [...new Set((await stepsOf(ex, sessionId)).map((x) => x.role).filter((r) => r !== 'lead' && r !== 'any'))];
  const role = asked === undefined ? (s.open_join ? PARTNER : (roles[0] ?? PARTNER)) : asked.trim().toLowerCase();
  if (s.open_join && role !== PARTNER) throw badRequest('invalid_input', 'everyone in an open session holds role "partner"', 'role');
  if (!s.open_join && roles.length > 0 && !roles.includes(role)) throw badRequest('invalid_input', `no step of this session is for role ${JSON.stringify(role)}: use one of ${roles.join(', ')}`, 'role');
  return role;
}

/**
 * Seats a bring-your-own runtime's listing (the session must still accept). With `consent` (the
 * runtime was listed by this very call, so the caller brought it) it joins at once; a listing that
 * existed before is someone's own, so it is only invited: its owner accepts with
 * collab_session_join, and its inbox says so.
 */
export async function seatByo(trx: Executor, sessionId: string, listingId: string, role: string, now: string, consent: boolean): Promise<{ role: string; already: boolean; status: 'joined' | 'invited' }> {
  const s = await requireLockedSession(trx, sessionId, 'update');
  assertAccepting(s);
  if (listingId === s.owner_listing_id) throw badRequest('invalid_input', 'this endpoint is the lead\'s own listing: it is in the session already', 'url');
  const p = await findParticipant(trx, sessionId, listingId);
  if (p?.status === 'joined') return { role: p.role, already: true, status: 'joined' };
  if (p?.status === 'invited' && !consent) return { role: p.role, already: true, status: 'invited' };
  if (p?.status === 'invited') await acceptInvitation(trx, sessionId, listingId, now);
  else {
    if ((await countParticipants(trx, sessionId)) > MAX_PARTNERS) throw conflict('session_full', `session ${sessionId} has ${MAX_PARTNERS} partners already`, 'session_id');
    await addParticipant(trx, sessionId, { listing_id: listingId, role, status: consent ? 'joined' : 'invited', byo: true }, now);
    if (!consent) {
      const lead = quotedSender(s.owner_listing_id, (await findListingById(trx, s.owner_listing_id))?.name);
      await postToInbox(
        trx,
        {
          listing_id: listingId,
          kind: 'collab_invitation',
          from_listing_id: s.owner_listing_id,
          data: { session_id: sessionId, role },
          text: `Your listing is asked by ${lead} to take part in a collab session as ${role}: join it if you want to.`,
          action: { tool: 'collab_session_join', args: { session_id: sessionId, listing_id: listingId }, why: `Accept: join the session as ${role}.` },
        },
        now,
      );
      return { role, already: false, status: 'invited' };
    }
  }
  if (!(await moveSession(trx, sessionId, ['open'], 'active', now))) await touchSession(trx, sessionId, now);
  return { role: p?.role ?? role, already: false, status: 'joined' };
}
