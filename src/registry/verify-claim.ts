// verify_claim (TOOLS.md): a claimant's proof is looked for where its method puts it, through each
// place's shared read (claim-proof.ts lookForClaimProof), paid by the claimant: its own hourly
// allowance (CALLER_FETCHES_PER_HOUR, by address or owner domain) and the claim's own bound
// (VERIFIES_PER_CLAIM), never the listed host's budget. Once found, the claim is consumed in one
// transaction: a URL not listed yet is listed (a deleted one restored for its domain's proven
// owner), the caller becomes the owner with a fresh owner token (shown once, stored hashed), and
// every power of an earlier owner ends at once. A weaker method does not take a listing from an
// owner proven by a stronger one until that owner's proof was read twice, 24 hours apart, and
// answered without it.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { nextStep } from '../platform/next-step.ts';
import { ownerDomain } from '../platform/net/host-key.ts';
import { findListingById, findListingBySpelling, lockListing, updateListing, type ListingRow } from '../listings/store.ts';
import { statusUrl } from '../listings/operations.ts';
import { appendFeedEvent } from '../feed/store.ts';
import { postToInbox } from '../inbox/store.ts';
import { fetchPayer } from '../metering/caller.ts';
import { consumeClaim, findClaim, ownerOf, setOwner, takeVerify, TRY_ORDER, type ClaimMethod, type OwnerRow } from '../owners/store.ts';
import { isClaimIdShape, newOwnerToken, sha256 } from '../owners/tokens.ts';
import { METHOD_STRENGTH, OUST_ABSENT_MS, PLACE_WINDOW_MS, RECHECK_MS, SEAT_METHODS, VERIFIES_PER_CLAIM } from '../owners/rules.ts';
import { claimDnsName, lookForClaimProof, recordRecheck, type ClaimCtx, type ClaimTarget, type ProofLook } from './claim-proof.ts';
import { methodField } from './claim.ts';
import { listIfNew } from './operations.ts';
import { endOwnerPowers, protectClaimedName } from './owner-change.ts';

const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });

const claimUnknown = () => new AppError(404, 'claim_unknown', 'no claim has this claim_id: ask for one with claim_listing', 'claim_id');
const claimExpired = (why: string) => new AppError(410, 'expired', `${why}: ask for a new one with claim_listing`, 'claim_id');

/** The methods to try, in order: the one asked for, or every one that applies to the target, DNS first (it costs the host nothing). */
const methodsToTry = (target: ClaimTarget, asked: ClaimMethod | undefined): ClaimMethod[] =>
  asked ? [asked] : TRY_ORDER.filter((m) => m !== 'dns_txt' || claimDnsName(target.url) !== undefined);

const outcome = (l: ProofLook) => (l.found ? 'found' : l.skipped ? 'skipped' : l.failed ? 'failed' : 'absent');

const lookView = (l: ProofLook) => ({
  method: l.method,
  where: l.where,
  outcome: outcome(l),
  found: l.found,
  ...(l.status !== undefined ? { status: l.status } : {}),
  detail: l.detail,
  ...(l.read_at ? { read_at: l.read_at, shared: l.shared === true } : {}),
});

/** Seconds until every place looked at can be read afresh (a read serves its whole window). */
function freshReadInS(looks: ProofLook[], nowMs: number): number {
  const next = Math.max(0, ...looks.map((l) => (l.read_at ? Date.parse(l.read_at) + PLACE_WINDOW_MS - nowMs : 0)));
  return Math.max(1, Math.ceil(next / 1000));
}

/** The owner's proof was read twice, OUST_ABSENT_MS apart, and each read answered without it. */
const absentTwice = (owner: OwnerRow): boolean =>
  owner.absent_since !== null && owner.absent_at !== null && Date.parse(owner.absent_at) - Date.parse(owner.absent_since) >= OUST_ABSENT_MS;

/** Whether a claim by `method` may take the listing from `owner` now. */
const mayTake = (owner: OwnerRow | undefined, method: ClaimMethod): boolean =>
  !owner || owner.lapsed_at !== null || METHOD_STRENGTH[method] >= METHOD_STRENGTH[owner.method] || absentTwice(owner);

const ownerStronger = (owner: OwnerRow, method: ClaimMethod, look?: ProofLook) => {
  const after = owner.absent_since ? iso(new Date(Date.parse(owner.absent_since) + OUST_ABSENT_MS)) : undefined;
  return new AppError(
    409,
    'owner_stronger',
    `the listing's owner proved control by ${owner.method}, which a ${method} proof does not outweigh: a ${method} claim takes it only once the owner's proof has been read twice, 24 hours apart, and answered without it${after ? ` (read without it since ${owner.absent_since}; Rollcall reads it again by ${after}: ask for a new claim after that)` : ''}`,
    'claim_id',
    { owner_method: owner.method, absent_since: owner.absent_since, ...(after ? { can_take_after: after } : {}), ...(look ? { owner_proof: lookView(look) } : {}) },
  );
};

/**
 * A weaker claim meets a stronger owner: the owner's proof is read now (through its place's shared
 * read, this claimant's verification paying), and the claim may go on only if that proof has been
 * absent twice, a day apart. Otherwise the 409, with when it could.
 */
async function assertMayTake(ctx: ClaimCtx, listingId: string, method: ClaimMethod): Promise<void> {
  const ex = ctx.db.kysely;
  const owner = await ownerOf(ex, listingId);
  if (mayTake(owner, method)) return;
  const listing = await findListingById(ex, listingId);
  if (!listing || !owner) return;
  const look = await lookForClaimProof(ctx, { url: listing.url, kind: listing.kind }, owner.proof, owner.method);
  if (!look.skipped) await recordRecheck(ex, listingId, look, ctx.clock.now());
  const after = await ownerOf(ex, listingId);
  if (!mayTake(after, method)) throw ownerStronger(after ?? owner, method, look);
}

export const verifyClaim = defineOperation({
  name: 'verify_claim',
  title: 'Verify a claim',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
  description:
    'Check a claim\'s proof and, once found, make you the listing\'s owner: answers the owner token (rco_..., shown once) for Authorization: Bearer. A new claim rotates it; failures say what is missing.',
  input: z.object({
    claim_id: z.string().min(1).max(100).describe('The claim_id claim_listing answered.'),
    method: methodField.optional().describe('Where the proof is: well_known, dns_txt or card (default: each in turn).'),
  }),
  output: z.looseObject({
    ok: z.literal(true),
    listing_id: z.string(),
    method: methodField,
    owner_token: z.string(),
    next_step: nextStepOutput,
  }),
  handler: async (ctx: ClaimCtx, input) => {
    if (!isClaimIdShape(input.claim_id)) throw claimUnknown();
    const ex = ctx.db.kysely;
    const claimHash = sha256(input.claim_id);
    const claim = await findClaim(ex, claimHash);
    if (!claim) throw claimUnknown();
    if (claim.consumed_at !== null) throw claimExpired(`this claim was already used (${claim.consumed_at})`);
    if (claim.expires_at <= iso(ctx.clock.now())) throw claimExpired(`this claim expired at ${claim.expires_at}`);
    // The claimant pays for its verification: its own hourly allowance, then the claim's own bound.
    await ctx.budgets.takeCallerFetch(await fetchPayer(ctx), 'claim_id');
    if (!(await takeVerify(ex, claimHash, VERIFIES_PER_CLAIM))) {
      throw new AppError(429, 'claim_spent', `this claim has been verified ${VERIFIES_PER_CLAIM} times, the most one claim allows: put the proof in place, then ask for a new claim with claim_listing`, 'claim_id');
    }
    const target: ClaimTarget = { url: claim.url, kind: claim.kind };
    const looks: ProofLook[] = [];
    for (const method of methodsToTry(target, input.method)) {
      const look = await lookForClaimProof(ctx, target, claim.proof, method, claim.created_at);
      looks.push(look);
      if (look.found) break;
    }
    const found = looks.find((l) => l.found);
    if (!found) {
      const retryAfterS = freshReadInS(looks, ctx.clock.now().getTime());
      const details = { proof: claim.proof, looked: looks.map(lookView), fresh_read_in_s: retryAfterS };
      const said = looks.map((l) => `${l.where}: ${l.detail}`).join('; ');
      if (looks.every((l) => l.failed || l.skipped)) throw new AppError(502, 'fetch_failed', `the proof could not be read: ${said}`, 'claim_id', details).withHeaders({ 'retry-after': String(retryAfterS) });
      throw new AppError(422, 'proof_not_found', `the proof was not found: ${said}. A place read for a claim serves every claim for 30 seconds: fix it, then verify again in ${retryAfterS} s`, 'claim_id', details).withHeaders({ 'retry-after': String(retryAfterS) });
    }
    const knownId = claim.listing_id ?? (await findListingBySpelling(ex, claim.url))?.id;
    if (knownId) await assertMayTake(ctx, knownId, found.method);
    const clockNow = ctx.clock.now();
    const now = iso(clockNow);
    const token = newOwnerToken();
    const tokenId = newId('own');
    const done = await inTransaction(ex, async (trx) => {
      if (!(await consumeClaim(trx, claimHash, now))) throw claimExpired('this claim was used or expired while its proof was read');
      let listed: { row: ListingRow; created: boolean; reprobe: { queued: boolean } };
      const known = claim.listing_id !== null ? await lockListing(trx, claim.listing_id) : undefined;
      if (known && known.deleted_at === null) listed = { row: known, created: false, reprobe: { queued: false } };
      else {
        // Not listed yet, or deleted since: the claim lists it (again); the domain's proven owner gets back what it had.
        const made = await listIfNew(ctx, trx, { url: claim.url, kind: claim.kind, submittedName: null, contactEmail: null, source: 'claim_listing' }, clockNow, { claim: true, restore: SEAT_METHODS.has(found.method) });
        listed = { ...made, row: (await lockListing(trx, made.row.id)) ?? made.row };
      }
      const row = listed.row;
      // Under the listing's lock: an owner proven meanwhile by a stronger method keeps it.
      const current = await ownerOf(trx, row.id);
      if (!mayTake(current, found.method)) throw ownerStronger(current!, found.method);
      const before = await setOwner(trx, {
        listing_id: row.id,
        token_hash: sha256(token),
        token_id: tokenId,
        method: found.method,
        owner_domain: ownerDomain(row.url),
        proof: claim.proof,
        claimed_at: now,
        checked_at: now,
        next_check_at: iso(new Date(clockNow.getTime() + RECHECK_MS)),
        missing_since: null,
        absent_since: null,
        absent_at: null,
        changed_at: current ? now : null,
        lapsed_at: null,
      });
      if (before) {
        await endOwnerPowers(trx, row.id, now);
        await postToInbox(
          trx,
          { listing_id: row.id, kind: 'owner', data: { method: found.method, topic: 'owner_token_rotated' }, text: `A new proof of control (${found.method}) made a new owner token for this listing at ${now}; the earlier owner token and product tokens no longer work.` },
          now,
        );
      }
      await protectClaimedName(trx, row.id, ctx.config, now);
      await updateListing(trx, row.id, {}, now); // the view's `claimed` changed: caches and followers see it
      await appendFeedEvent(trx, 'listing.claimed', row.id, now, { method: found.method });
      return { row, created: listed.created, queued: listed.reprobe.queued, rotated: before !== undefined };
    });
    if (done.queued && ctx.config.probeDelayS === 0) ctx.probe.scheduler.wake(done.row.id);
    return {
      ok: true as const,
      listing_id: done.row.id,
      method: found.method,
      where: found.where,
      looked: looks.map(lookView),
      owner_token: token,
      token_id: tokenId,
      shown_once: true,
      listed_now: done.created,
      rotated: done.rotated,
      founding_seat: SEAT_METHODS.has(found.method),
      how: 'Send the owner token as Authorization: Bearer <owner_token> on REST and on /api/mcp (set it on your MCP client\'s transport). It acts for this listing only; keep it secret. Leave the proof in place: it is checked again weekly and before every grant, and a proof gone for 7 days lapses the claim.',
      status_url: statusUrl(ctx, done.row.id),
      next_step: nextStep('check_status', { id: done.row.id }, done.created ? 'The listing was listed with this claim: watch its probe until it is Live.' : 'Your listing, now shown as claimed.'),
    };
  },
});
