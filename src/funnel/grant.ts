// What real feedback earns (SPEC.md 3.1, DESIGN.md "Founding seats"), inside the transaction that
// recorded it: one of the 100 founding seats for a Live (or demoed) listing the feedback names,
// with its access token issued or widened to the full product and the founding_verified badge;
// after the seats, one 25% code per listing. Feedback naming no listing takes neither. Every real
// item is counted for the payments gate by the listing's kind, or its audience when it names none.
import type { Executor } from '../platform/db/executor.ts';
import { lockListing } from '../listings/store.ts';
import { appendFeedEvent } from '../feed/store.ts';
import { issueToken } from '../access/store.ts';
import { iso } from '../platform/clock.ts';
import { loadFunnel, NO_FUNNEL, setFunnelFlags } from './store.ts';
import { foundingCounts, gateCounts, holdingOf, insertCode, insertSeat, takeSeatNumber, tallyFeedback } from './founding.ts';
import { FOUNDING_PERCENT_OFF, FOUNDING_SEATS, LATER_PERCENT_OFF } from './deal.ts';
import { paymentsState, type PaymentsState } from './prices.ts';

export interface DealState {
  seats: { total: number; taken: number; left: number };
  codes: { issued: number; redeemed: number; percent_off: number };
  payments: PaymentsState;
}

export async function dealState(ex: Executor): Promise<DealState> {
  const counts = await foundingCounts(ex);
  return {
    seats: { total: FOUNDING_SEATS, taken: counts.seats_taken, left: Math.max(0, FOUNDING_SEATS - counts.seats_taken) },
    codes: { issued: counts.codes_issued, redeemed: counts.codes_redeemed, percent_off: LATER_PERCENT_OFF },
    payments: paymentsState(await gateCounts(ex)),
  };
}

export type FoundingOutcome = 'seat' | 'code' | 'already_seated' | 'already_coded' | 'no_listing' | 'not_eligible';

export interface FoundingResult {
  outcome: FoundingOutcome;
  listing_id: string | null;
  /** The seat number (1..100), for a seat now or before. */
  seat?: number;
  /** The token text when this grant issued it (shown once); null when an existing token was widened or kept. */
  access_token?: string | null;
  token_id?: string;
  token_scope?: 'full';
  /** The listing's demo token now opens the full product. */
  token_widened?: boolean;
  /** The code text when issued now (shown once). */
  discount_code?: string | null;
  code_hint?: string;
  percent_off: number;
  /** A code redeems only once payments are open. */
  redeemable?: boolean;
  message: string;
  deal: DealState;
}

export interface FeedbackFacts {
  id: string;
  counted: boolean;
  rating: number;
  audience: 'agent' | 'mcp' | null;
}

/**
 * Settles the founding deal for one real feedback item naming `listingId` (or none). The listing
 * is read under its row lock (PostgreSQL), so two grants for one listing never both see "nothing
 * held yet". Callers that also write traces on the listing take that lock first (lockListing),
 * before anything else, so every funnel transaction locks in the same order.
 */
export async function settleFounding(trx: Executor, listingId: string | undefined, feedback: FeedbackFacts, now: Date): Promise<FoundingResult> {
  const at = iso(now);
  const listing = listingId === undefined ? undefined : await lockListing(trx, listingId);
  const kind = listing?.kind ?? feedback.audience;
  if (feedback.counted && kind) await tallyFeedback(trx, { feedback_id: feedback.id, kind, listing_id: listing?.id ?? null, created_at: at });
  if (!listing) {
    return {
      outcome: 'no_listing',
      listing_id: null,
      percent_off: 0,
      message: 'Recorded. Feedback that names no listing takes no founding seat and no code: name your Live listing (listing_id) to take one.',
      deal: await dealState(trx),
    };
  }
  if (feedback.counted) await appendFeedEvent(trx, 'feedback.left', listing.id, at, { rating: feedback.rating });
  const flags = (await loadFunnel(trx, [listing.id])).get(listing.id) ?? NO_FUNNEL;
  const held = await holdingOf(trx, listing.id);
  if (held) {
    if (!flags.feedbacked) await setFunnelFlags(trx, listing.id, { feedbacked: true }, at);
    const deal = await dealState(trx);
    if (held.kind === 'seat') {
      return {
        outcome: 'already_seated',
        listing_id: listing.id,
        seat: held.seat,
        access_token: null,
        token_id: held.token_id,
        token_scope: 'full',
        percent_off: FOUNDING_PERCENT_OFF,
        message: `Recorded. ${listing.id} already holds founding seat ${held.seat} (since ${held.created_at}); a listing takes one seat. Its access token was shown once, when the seat was granted.`,
        deal,
      };
    }
    return {
      outcome: 'already_coded',
      listing_id: listing.id,
      discount_code: null,
      code_hint: held.hint,
      percent_off: held.percent_off,
      redeemable: deal.payments.open && held.redeemed_at === null,
      message: `Recorded. ${listing.id} already holds its ${held.percent_off}% code ${held.hint} (since ${held.created_at}); a listing gets one code, shown once when issued.`,
      deal,
    };
  }
  if (listing.lane !== 'active' && !flags.demoed) {
    return {
      outcome: 'not_eligible',
      listing_id: listing.id,
      percent_off: 0,
      message: `Recorded. ${listing.id} is not Live (lane ${listing.lane}) and was never demoed: founding seats and codes go to Live or demoed listings. Once it is Live, take_demo and leave feedback again.`,
      deal: await dealState(trx),
    };
  }
  // The counter row is taken as late as possible: it is held until commit, and every grant needs it.
  const seat = await takeSeatNumber(trx);
  if (seat !== undefined) {
    const { grant, token } = await issueToken(trx, listing.id, 'full', at);
    await insertSeat(trx, { seat, listing_id: listing.id, feedback_id: feedback.id, token_id: grant.id, created_at: at });
    await setFunnelFlags(trx, listing.id, { feedbacked: true, founding_verified: true }, at);
    return {
      outcome: 'seat',
      listing_id: listing.id,
      seat,
      access_token: token,
      token_id: grant.id,
      token_scope: 'full',
      token_widened: token === null,
      percent_off: FOUNDING_PERCENT_OFF,
      message:
        token === null
          ? `Founding seat ${seat} of ${FOUNDING_SEATS} for ${listing.id}: the full product, free. The access token it already holds (from its demo) now opens everything.`
          : `Founding seat ${seat} of ${FOUNDING_SEATS} for ${listing.id}: the full product, free. Keep access_token: it is shown this once.`,
      deal: await dealState(trx),
    };
  }
  const { code, hint } = await insertCode(trx, { listing_id: listing.id, feedback_id: feedback.id, created_at: at });
  await setFunnelFlags(trx, listing.id, { feedbacked: true }, at);
  const deal = await dealState(trx);
  return {
    outcome: 'code',
    listing_id: listing.id,
    discount_code: code,
    code_hint: hint,
    percent_off: LATER_PERCENT_OFF,
    redeemable: deal.payments.open,
    message: `All ${FOUNDING_SEATS} founding seats are taken: ${listing.id} gets a ${LATER_PERCENT_OFF}% code, shown this once. It redeems when payments open${deal.payments.open ? ' (they are open now)' : ` (${deal.payments.missing.agent} more real agent and ${deal.payments.missing.mcp} more real MCP feedback items needed)`}.`,
    deal,
  };
}
