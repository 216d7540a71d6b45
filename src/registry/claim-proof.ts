// Looking for a proof of control: for an owner's own work (a grant, the weekly re-check) a read of
// its place now, from the owner's share of the host's budget; for a claimant's verification a read
// shared within PLACE_WINDOW_MS by every claimant of that place, paid by the claimant (never from
// the host's budget), so however many strangers verify, a place is fetched at most once a window.
// Each look says exactly what was read and found (proof-read.ts reads the places).
import { OutboundError, sameOriginOnly } from '../platform/net/guarded-client.ts';
import { hostBudgetError, type BudgetShare } from '../platform/budget/host-budgets.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { findListingById, updateListing } from '../listings/store.ts';
import { markProofAbsent, markProofMissing, markProofSeen, ownerOf, placeRead, savePlaceRead, takePlace, type ClaimMethod } from '../owners/store.ts';
import { callerOwner } from '../owners/caller.ts';
import { LAPSE_AFTER_MS, MISSING_RETRY_MS, PLACE_WINDOW_MS, RECHECK_MS, SEAT_METHODS } from '../owners/rules.ts';
import { ownerGroup } from '../platform/net/host-key.ts';
import { holdingOf, holdingOfDomain, holdingsOfGroup, HOLDINGS_PER_GROUP } from '../funnel/founding.ts';
import { loadFunnel, NO_FUNNEL } from '../funnel/store.ts';
import type { FoundingClaim } from '../funnel/grant.ts';
import { endClaim } from './owner-change.ts';
import type { OwnersCtx } from '../owners/runtime.ts';
import type { ProbeCtx } from '../probe/runtime.ts';
import { placeOf, readPlace, type ClaimTarget, type PlaceRead } from './proof-read.ts';

export { CARD_PROOF_PARAM, claimDnsName, claimFileUrl, type ClaimTarget } from './proof-read.ts';

export type ClaimCtx = ProbeCtx & OwnersCtx;

export interface ProofLook {
  method: ClaimMethod;
  /** What was fetched or looked up. */
  where: string;
  found: boolean;
  /** The lookup itself failed (no answer, a refused address, an error status): the proof could not be read. */
  failed: boolean;
  /** Not read for this verification: the place was being read for another claimant and its read did not land in time. */
  skipped?: boolean;
  status?: number;
  detail: string;
  /** When the read this look compares with finished (a shared read may be up to PLACE_WINDOW_MS old). */
  read_at?: string;
  /** The read was made for another claimant within the window and served this one too. */
  shared?: boolean;
}

const compare = (read: PlaceRead, proof: string): ProofLook => {
  const found = !read.failed && read.proofs.includes(proof);
  return { method: read.method, where: read.where, found, failed: read.failed, ...(read.status !== undefined ? { status: read.status } : {}), detail: found ? read.present : read.absent };
};

/**
 * Looks for `proof` by one method with a read made now (an owner's work: grants, re-checks): a
 * failure is a look that says what happened. Only a host whose outbound budget (`share`) ran out
 * throws: the 429 host_budget, for the caller to retry.
 */
export async function lookForProof(ctx: ClaimCtx, target: ClaimTarget, proof: string, method: ClaimMethod, share: BudgetShare): Promise<ProofLook> {
  const client = sameOriginOnly(ctx.probe.prober.outbound(undefined, ctx.budgets.admitter(share)));
  try {
    return { ...compare(await readPlace(client, ctx.owners, method, target), proof), read_at: iso(ctx.clock.now()) };
  } catch (err) {
    if (!(err instanceof OutboundError) || err.reason !== 'host_budget') throw err;
    const retryAfterS = ctx.budgets.hourRetryAfterS();
    throw hostBudgetError(`${err.message}; the proof was not looked for`, retryAfterS, 'claim_id');
  }
}

/** How long a claimant waits for a read another claimant is making of the same place. */
const SHARED_READ_WAIT_MS = 15_000;
const POLL_MS = 50;

/**
 * Looks for a claimant's `proof` by one method through the place's shared read: the first
 * claimant in a window reads the place (from no host budget: the claimant pays, by its own
 * verification allowance); any other within PLACE_WINDOW_MS compares with that read, waiting for it
 * while it is under way. A read taken before the proof was made (`madeAt`, its claim's creation)
 * cannot hold it, so it serves only older claims: each claim's first verification reads afresh, and
 * a claim's place is read at most once a window. A read that does not land in time is a skipped look.
 */
export async function lookForClaimProof(ctx: ClaimCtx, target: ClaimTarget, proof: string, method: ClaimMethod, madeAt?: string): Promise<ProofLook> {
  const ex = ctx.db.kysely;
  const place = `${method} ${placeOf(method, target)}`;
  const now = ctx.clock.now();
  const takenAt = iso(now);
  if (await takePlace(ex, place, takenAt, iso(new Date(now.getTime() - PLACE_WINDOW_MS)), madeAt)) {
    const read = await readPlace(sameOriginOnly(ctx.probe.prober.outbound()), ctx.owners, method, target);
    const readAt = iso(ctx.clock.now());
    await savePlaceRead(ex, place, takenAt, readAt, JSON.stringify(read));
    return { ...compare(read, proof), read_at: readAt, shared: false };
  }
  const deadline = Date.now() + SHARED_READ_WAIT_MS;
  for (;;) {
    const row = await placeRead(ex, place);
    if (row?.result && row.read_at) return { ...compare(JSON.parse(row.result) as PlaceRead, proof), read_at: row.read_at, shared: true };
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { method, where: placeOf(method, target), found: false, failed: false, skipped: true, detail: 'another verification is reading this place right now and its read did not finish in time: verify again in a few seconds' };
}

/**
 * Whether founding feedback from the owner of `listingId` (with `method`) could take anything now:
 * a seat or code the listing and its domain and group do not hold yet, or a new text for a code an
 * earlier owner was shown. Only then is the proof read for the grant.
 */
async function grantPossible(ex: Executor, listing: { id: string; lane: string }, method: ClaimMethod, domain: string): Promise<boolean> {
  if (!SEAT_METHODS.has(method)) return false;
  const held = await holdingOf(ex, listing.id);
  if (held) return held.kind === 'code' && held.revoked_at !== null;
  if (listing.lane !== 'active' && !((await loadFunnel(ex, [listing.id])).get(listing.id) ?? NO_FUNNEL).demoed) return false;
  return (await holdingOfDomain(ex, domain)) === undefined && (await holdingsOfGroup(ex, ownerGroup(domain))) < HOLDINGS_PER_GROUP;
}

/**
 * The caller's owner claim on `listingId` as the founding deal needs it (funnel/grant.ts), or
 * undefined when the call does not carry that listing's owner token. A seat or code goes only to a
 * proof in place at the moment of the grant, so whenever one could be granted the proof is read
 * now, for this call (never an earlier read, the claim's own included), and the read is a
 * re-check like the weekly one.
 */
export async function foundingClaimOf(ctx: ClaimCtx, listingId: string): Promise<FoundingClaim | undefined> {
  const owner = await callerOwner(ctx);
  if (!owner || owner.listing_id !== listingId) return undefined;
  const ex = ctx.db.kysely;
  const [row, listing] = await Promise.all([ownerOf(ex, listingId), findListingById(ex, listingId)]);
  if (!row || !listing) return undefined;
  const claim = { claim_id: owner.token_id, owner_domain: row.owner_domain, method: row.method };
  if (!(await grantPossible(ex, listing, row.method, row.owner_domain))) return { ...claim, proof: null };
  const look = await lookForProof(ctx, { url: listing.url, kind: listing.kind }, row.proof, row.method, 'owner');
  const readAt = ctx.clock.now();
  await recordRecheck(ex, listingId, look, readAt);
  return { ...claim, proof: { method: look.method, where: look.where, found: look.found, read_at: iso(readAt) } };
}

/**
 * Writes what a re-check of an owner's proof found: the next check, a missing proof's first day, a
 * lapse (which ends the owner's powers). A read that failed (no answer) counts as missing for the
 * lapse, since a site gone for a week has changed hands or its mind.
 */
export async function recordRecheck(ex: Executor, listingId: string, look: Pick<ProofLook, 'found' | 'failed'>, now: Date): Promise<{ lapsed: boolean }> {
  const at = iso(now);
  if (look.found) {
    await markProofSeen(ex, listingId, at, iso(new Date(now.getTime() + RECHECK_MS)));
    return { lapsed: false };
  }
  const lapsed = await inTransaction(ex, async (trx) => {
    if (!look.failed) await markProofAbsent(trx, listingId, at);
    const lapsedNow = await markProofMissing(trx, listingId, at, iso(new Date(now.getTime() + MISSING_RETRY_MS)), iso(new Date(now.getTime() - LAPSE_AFTER_MS)));
    if (lapsedNow) {
      await endClaim(trx, listingId, at);
      await updateListing(trx, listingId, {}, at); // `claimed` turned false: caches and followers see it
    }
    return lapsedNow;
  });
  return { lapsed };
}
