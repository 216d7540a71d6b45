// What real feedback earns (SPEC.md 3.1, DESIGN.md "Founding seats"), inside the transaction that
// recorded it: one of the 100 founding seats for a claimed, Live (or demoed) listing whose owner
// of the moment sent the feedback with its owner token, the claim made by a proof on the owner's
// own site (a well-known file or a DNS record) and read again for this call; the owner gets a new
// full product access token (shown once; never a widened one), and the listing the
// founding_verified badge. After the seats, a 25% code. One seat or code per listing and per owner
// domain, a few per owner group. Feedback from anyone else is recorded and takes neither. Every
// real item is recorded by the listing's kind (or its audience); the payments gate counts the
// owner domains among them.
import type { Executor } from '../platform/db/executor.ts';
import { lockListing } from '../listings/store.ts';
import { appendFeedEvent } from '../feed/store.ts';
import { reissueToken } from '../access/store.ts';
import { ownerOf } from '../owners/store.ts';
import { invalidOwnerToken } from '../owners/caller.ts';
import { iso } from '../platform/clock.ts';
import { loadFunnel, NO_FUNNEL, setFunnelFlags } from './store.ts';
import { ownerGroup } from '../platform/net/host-key.ts';
import { foundingCounts, gateCounts, holdingOf, holdingOfDomain, holdingsOfGroup, HOLDINGS_PER_GROUP, insertCode, insertSeat, lockFoundingCounter, reissueCode, takeSeatNumber, tallyFeedback } from './founding.ts';
import type { ClaimMethod } from '../owners/store.ts';
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

export type FoundingOutcome = 'seat' | 'code' | 'already_seated' | 'already_coded' | 'no_listing' | 'not_eligible' | 'unclaimed' | 'proof_needed' | 'domain_held' | 'group_held';

export const FOUNDING_OUTCOMES: readonly FoundingOutcome[] = ['seat', 'code', 'already_seated', 'already_coded', 'no_listing', 'not_eligible', 'unclaimed', 'proof_needed', 'domain_held', 'group_held'];

/** The caller's owner claim on the listing the feedback names (only when it sent that listing's owner token). */
export interface FoundingClaim {
  /** The owner token's id (own_...): the claim the call was made under, checked again under the listing's lock. */
  claim_id: string;
  owner_domain: string;
  method: ClaimMethod;
  /** The proof read for this call, just before its transaction (never an earlier read); null when nothing could be granted, so it was not read. */
  proof: ProofRead | null;
}

/** One read of an owner's proof, as a grant's answer reports it. */
export interface ProofRead {
  method: ClaimMethod;
  where: string;
  found: boolean;
  read_at: string;
}

/** The holder key of a listing's own product access token (its owner's). */
export const ownerHolder = (listingId: string): string => `listing:${listingId}`;

export interface FoundingResult {
  outcome: FoundingOutcome;
  listing_id: string | null;
  /** The seat number (1..100), for a seat now or before. */
  seat?: number;
  /** The token text when this grant issued it (shown once); null when none was issued now. */
  access_token?: string | null;
  token_id?: string;
  token_scope?: 'full';
  /** The code text when issued now (shown once). */
  discount_code?: string | null;
  code_hint?: string;
  percent_off: number;
  /** A code redeems only once payments are open. */
  redeemable?: boolean;
  /** The proof read for this grant (set whenever one was read). */
  proof?: ProofRead;
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
export async function settleFounding(trx: Executor, listingId: string | undefined, feedback: FeedbackFacts, now: Date, claim?: FoundingClaim): Promise<FoundingResult> {
  const at = iso(now);
  const listing = listingId === undefined ? undefined : await lockListing(trx, listingId);
  const kind = listing?.kind ?? feedback.audience;
  const ownerDomain = listing && claim ? claim.owner_domain : null;
  if (feedback.counted && kind) await tallyFeedback(trx, { feedback_id: feedback.id, kind, listing_id: listing?.id ?? null, owner_domain: ownerDomain, owner_group: ownerDomain && ownerGroup(ownerDomain), created_at: at });
  if (!listing) {
    return {
      outcome: 'no_listing',
      listing_id: null,
      percent_off: 0,
      message: 'Recorded. Feedback that names no listing takes no founding seat and no code: name your Live listing (listing_id) and send its owner token to take one.',
      deal: await dealState(trx),
    };
  }
  if (feedback.counted) await appendFeedEvent(trx, 'feedback.left', listing.id, at, { rating: feedback.rating });
  if (!claim) {
    return {
      outcome: 'unclaimed',
      listing_id: listing.id,
      percent_off: 0,
      message: `Recorded. Founding seats and codes go to a listing's owner: send the feedback with ${listing.id}'s owner token (Authorization: Bearer rco_...). If the listing is yours, prove control with claim_listing and verify_claim first.`,
      deal: await dealState(trx),
    };
  }
  // The owner may have changed since the call's token was read: a grant goes to the owner of the moment.
  const current = await ownerOf(trx, listing.id);
  if (!current || current.lapsed_at !== null || current.token_id !== claim.claim_id) throw invalidOwnerToken();
  const read = claim.proof ?? undefined;
  /** The answer when the claim cannot take a grant now (a card claim, or the proof not found at the moment); undefined when it can. */
  const proofNeeded = async (): Promise<FoundingResult | undefined> => {
    if (claim.method !== 'card' && read?.found) return undefined;
    return {
      outcome: 'proof_needed',
      listing_id: listing.id,
      percent_off: 0,
      ...(read ? { proof: read } : {}),
      message:
        claim.method === 'card'
          ? `Recorded. ${listing.id} is claimed through its card; a founding seat or code needs a proof on the owner's own site: claim again with the well_known (a file) or dns_txt (a TXT record) method, then send the feedback again.`
          : `Recorded. The claim's proof was not found at ${read?.where ?? 'its place'} just now: a founding seat or code goes to a listing whose proof is in place at the moment of the grant. Put it back and send the feedback again.`,
      deal: await dealState(trx),
    };
  };
  const flags = (await loadFunnel(trx, [listing.id])).get(listing.id) ?? NO_FUNNEL;
  const held = await holdingOf(trx, listing.id);
  if (held?.kind === 'code' && held.revoked_at !== null) {
    // The code was shown to an earlier owner: this owner gets a new text, read against its own proof.
    const refused = await proofNeeded();
    if (refused) return refused;
    const { code, hint } = await reissueCode(trx, listing.id);
    if (!flags.feedbacked) await setFunnelFlags(trx, listing.id, { feedbacked: true }, at);
    const deal = await dealState(trx);
    const message = `${listing.id} holds its ${held.percent_off}% code since ${held.created_at}; its text changed with its owner, so here is a new one, shown this once (the earlier text no longer works).`;
    return codeShown(listing.id, { code, hint }, held.percent_off, deal.payments.open && held.redeemed_at === null, read, message, deal);
  }
  if (held) {
    if (!flags.feedbacked) await setFunnelFlags(trx, listing.id, { feedbacked: true }, at);
    const deal = await dealState(trx);
    if (held.kind === 'seat') {
      return {
        outcome: 'already_seated',
        listing_id: listing.id,
        seat: held.seat,
        access_token: null,
        token_scope: 'full',
        percent_off: FOUNDING_PERCENT_OFF,
        message: `Recorded. ${listing.id} already holds founding seat ${held.seat} (since ${held.created_at}); a listing takes one seat. A full product token is shown once; get_product_token issues its owner a new one (the earlier one stops).`,
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
  if (claim.method === 'card') return (await proofNeeded())!;
  // The counter row is held from here until commit: every grant takes it before it looks at the domain.
  await lockFoundingCounter(trx);
  const domainHeld = await holdingOfDomain(trx, claim.owner_domain);
  if (domainHeld) {
    return {
      outcome: 'domain_held',
      listing_id: listing.id,
      percent_off: 0,
      message: `Recorded. ${claim.owner_domain} already holds ${domainHeld.kind === 'seat' ? `founding seat ${domainHeld.seat}` : `its ${domainHeld.percent_off}% code`} through listing ${domainHeld.listing_id}: the founding deal gives one seat or code per owner domain.`,
      deal: await dealState(trx),
    };
  }
  const group = ownerGroup(claim.owner_domain);
  if ((await holdingsOfGroup(trx, group)) >= HOLDINGS_PER_GROUP) {
    return {
      outcome: 'group_held',
      listing_id: listing.id,
      percent_off: 0,
      message: `Recorded. The owner domains under ${group} (sites anyone can make there) already hold ${HOLDINGS_PER_GROUP} founding seats or codes together, the most one group takes.`,
      deal: await dealState(trx),
    };
  }
  // The proof read for this call, at the moment of the grant (a card claim never takes one).
  const refused = await proofNeeded();
  if (refused) return refused;
  const seat = await takeSeatNumber(trx);
  if (seat !== undefined) {
    // A new token, shown once: it never widens one an earlier owner (or anyone) already holds.
    const { grant, token } = await reissueToken(trx, listing.id, ownerHolder(listing.id), 'full', at, claim.claim_id);
    await insertSeat(trx, { seat, listing_id: listing.id, feedback_id: feedback.id, token_id: grant.id, owner_domain: claim.owner_domain, owner_group: group, created_at: at });
    await setFunnelFlags(trx, listing.id, { feedbacked: true, founding_verified: true }, at);
    return {
      outcome: 'seat',
      listing_id: listing.id,
      seat,
      access_token: token,
      token_id: grant.id,
      token_scope: 'full',
      percent_off: FOUNDING_PERCENT_OFF,
      ...(read ? { proof: read } : {}),
      message: `Founding seat ${seat} of ${FOUNDING_SEATS} for ${listing.id}: the full product, free. Keep access_token: it is shown this once (get_product_token issues a new one, stopping this one).`,
      deal: await dealState(trx),
    };
  }
  const { code, hint } = await insertCode(trx, { listing_id: listing.id, feedback_id: feedback.id, owner_domain: claim.owner_domain, owner_group: group, created_at: at });
  await setFunnelFlags(trx, listing.id, { feedbacked: true }, at);
  const deal = await dealState(trx);
  const message = `All ${FOUNDING_SEATS} founding seats are taken: ${listing.id} gets a ${LATER_PERCENT_OFF}% code, shown this once. It redeems when payments open${deal.payments.open ? ' (they are open now)' : ` (${deal.payments.missing.agent} more real agent and ${deal.payments.missing.mcp} more real MCP feedback items needed)`}.`;
  return codeShown(listing.id, { code, hint }, LATER_PERCENT_OFF, deal.payments.open, read, message, deal);
}

/** The answer that shows a code's text (this once). */
const codeShown = (listingId: string, c: { code: string; hint: string }, percentOff: number, redeemable: boolean, read: ProofRead | undefined, message: string, deal: DealState): FoundingResult => ({
  outcome: 'code',
  listing_id: listingId,
  discount_code: c.code,
  code_hint: c.hint,
  percent_off: percentOff,
  redeemable,
  ...(read ? { proof: read } : {}),
  message,
  deal,
});
