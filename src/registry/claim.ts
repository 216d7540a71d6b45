// Proof of control (TOOLS.md claim_listing, verify_claim): a caller asks for a claim on a listing
// (or on a URL not listed yet) and gets a secret claim id and a public proof; it puts the proof
// where one of the methods says (its origin's well-known file, a DNS TXT record, or its card / MCP
// `_meta`) and verifies. Verification reads the proof through the guarded client, then consumes the
// claim in one transaction: a URL not listed yet is listed, the listing's owner becomes the caller
// with a fresh owner token (shown once, stored hashed) and any earlier owner's token stops at once.
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError, badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { nextStep } from '../platform/next-step.ts';
import { ownerDomain } from '../platform/net/host-key.ts';
import { guessKind, MAX_URL_LENGTH, normalizeListingUrl } from '../listings/url.ts';
import { findListingBySpelling, lockListing, updateListing, type ListingRow } from '../listings/store.ts';
import { requireListing, statusUrl } from '../listings/operations.ts';
import { appendFeedEvent } from '../feed/store.ts';
import { postToInbox } from '../inbox/store.ts';
import { addressHash } from '../metering/caller.ts';
import { CLAIM_METHODS, claimsOfCallerSince, consumeClaim, findClaim, insertClaim, setOwner, type ClaimMethod } from '../owners/store.ts';
import { isClaimIdShape, newClaimId, newOwnerToken, newProof, sha256 } from '../owners/tokens.ts';
import { CLAIM_TTL_MS, CLAIMS_PER_ADDRESS_PER_DAY, RECHECK_MS, SEAT_METHODS } from '../owners/rules.ts';
import { utcDay, nextReset } from '../metering/day.ts';
import { CARD_PROOF_PARAM, claimDnsName, claimFileUrl, lookForProof, type ClaimCtx, type ClaimTarget, type ProofLook } from './claim-proof.ts';
import { listIfNew } from './operations.ts';
import { CLAIM_META } from '../probe/mcp-handshake.ts';

const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
const methodField = z.enum(CLAIM_METHODS as [ClaimMethod, ...ClaimMethod[]]);

/** Where each method puts the proof, for a listing at `target`. */
function methodsFor(ctx: ClaimCtx, target: ClaimTarget, proof: string) {
  const dns = claimDnsName(target.url);
  return [
    { method: 'well_known' as const, where: claimFileUrl(target.url), put: `a line of this file (text/plain, answered with 200) that is exactly: ${proof}`, founding_seat: true },
    ...(dns ? [{ method: 'dns_txt' as const, where: dns, put: `a TXT record whose value is exactly: ${proof}`, founding_seat: true }] : []),
    target.kind === 'mcp'
      ? { method: 'card' as const, where: target.url, put: `your MCP server's initialize (and server/discover) result carries "_meta": {"${CLAIM_META}": "${proof}"}`, founding_seat: false }
      : {
          method: 'card' as const,
          where: target.url,
          put: `your agent card's capabilities.extensions[] has an entry {"uri": "${ctx.config.publicBaseUrl}/for-agents#claim", "params": {"${CARD_PROOF_PARAM}": "${proof}"}}`,
          founding_seat: false,
        },
  ];
}

const tooManyClaims = (now: Date) =>
  new AppError(429, 'too_many_claims', `one address may ask for ${CLAIMS_PER_ADDRESS_PER_DAY} claims a UTC day; a claim stays valid for 24 hours, so verify the ones you have`).withHeaders({
    'retry-after': String(Math.max(1, Math.ceil((Date.parse(nextReset(now)) - now.getTime()) / 1000))),
  });

export const claimListing = defineOperation({
  name: 'claim_listing',
  title: 'Claim a listing',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  description:
    'Start proving you control a listing (listing_id) or an unlisted url: get a claim_id and a proof to put in /.well-known/rollcall-claim.txt, a DNS TXT record or the card (24 hours), then verify_claim. Seats need well_known or dns_txt.',
  input: z.object({
    listing_id: z.string().min(1).max(64).optional().describe('The listing to claim.'),
    url: z.string().max(MAX_URL_LENGTH).optional().describe('Or its URL (agent card or MCP server): a URL not listed yet is listed when the claim succeeds.'),
  }),
  output: z.looseObject({
    ok: z.literal(true),
    claim_id: z.string(),
    proof: z.string(),
    listing_id: z.string().nullable(),
    url: z.string(),
    expires_at: z.string(),
    methods: z.array(z.looseObject({ method: methodField, where: z.string(), put: z.string(), founding_seat: z.boolean() })),
    next_step: nextStepOutput,
  }),
  handler: async (ctx: ClaimCtx, input) => {
    if ((input.listing_id === undefined) === (input.url === undefined)) throw badRequest('invalid_input', 'listing_id: name the listing to claim (listing_id) or its url, one of the two', 'listing_id');
    let target: ClaimTarget & { listing_id: string | null };
    if (input.listing_id !== undefined) {
      const row = await requireListing(ctx, input.listing_id);
      target = { listing_id: row.id, url: row.url, kind: row.kind };
    } else {
      const url = normalizeListingUrl(input.url!, 'url');
      const refused = ctx.probe.prober.refusal(url);
      if (refused) throw badRequest('url_not_allowed', `url: ${refused}. Rollcall reaches public addresses on ports 80 and 443 only.`, 'url');
      const known = await findListingBySpelling(ctx.db.kysely, url);
      target = known ? { listing_id: known.id, url: known.url, kind: known.kind } : { listing_id: null, url, kind: guessKind(url, false) };
    }
    const clockNow = ctx.clock.now();
    const caller = addressHash(ctx.caller.address);
    if ((await claimsOfCallerSince(ctx.db.kysely, caller, `${utcDay(clockNow)}T00:00:00.000Z`)) >= CLAIMS_PER_ADDRESS_PER_DAY) throw tooManyClaims(clockNow);
    const claimId = newClaimId();
    const proof = newProof();
    const expiresAt = iso(new Date(clockNow.getTime() + CLAIM_TTL_MS));
    await insertClaim(ctx.db.kysely, { claim_hash: sha256(claimId), listing_id: target.listing_id, url: target.url, kind: target.kind, proof, caller, created_at: iso(clockNow), expires_at: expiresAt, consumed_at: null });
    return {
      ok: true as const,
      claim_id: claimId,
      proof,
      listing_id: target.listing_id,
      url: target.url,
      expires_at: expiresAt,
      methods: methodsFor(ctx, target, proof),
      note: 'Keep claim_id to yourself: whoever verifies with it receives the owner token. The proof is public; put it in one place of your choice (several listings of one origin may share the file, one proof per line).',
      next_step: nextStep('verify_claim', { claim_id: claimId }, 'Once the proof is in place: Rollcall reads it and answers the listing\'s owner token, once.'),
    };
  },
});

const claimUnknown = () => new AppError(404, 'claim_unknown', 'no claim has this claim_id: ask for one with claim_listing', 'claim_id');
const claimExpired = (why: string) => new AppError(410, 'expired', `${why}: ask for a new one with claim_listing`, 'claim_id');

/** The methods to try, in order: the one asked for, or every one that applies to the target. */
const methodsToTry = (target: ClaimTarget, asked: ClaimMethod | undefined): ClaimMethod[] =>
  asked ? [asked] : CLAIM_METHODS.filter((m) => m !== 'dns_txt' || claimDnsName(target.url) !== undefined);

const lookView = (l: ProofLook) => ({ method: l.method, where: l.where, found: l.found, ...(l.status !== undefined ? { status: l.status } : {}), detail: l.detail });

export const verifyClaim = defineOperation({
  name: 'verify_claim',
  title: 'Verify a claim',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
  description:
    'Check a claim\'s proof (claim_id from claim_listing) and, once found, make you the listing\'s owner: answers the owner token (rco_..., shown once) to send as Authorization: Bearer. Claiming again rotates it; failures say what was missing.',
  input: z.object({
    claim_id: z.string().min(1).max(100).describe('The claim_id claim_listing answered.'),
    method: methodField.optional().describe('Where you put the proof: well_known, dns_txt or card (default: each in turn).'),
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
    const claimHash = sha256(input.claim_id);
    const claim = await findClaim(ctx.db.kysely, claimHash);
    if (!claim) throw claimUnknown();
    if (claim.consumed_at !== null) throw claimExpired(`this claim was already used (${claim.consumed_at})`);
    if (claim.expires_at <= iso(ctx.clock.now())) throw claimExpired(`this claim expired at ${claim.expires_at}`);
    const target: ClaimTarget = { url: claim.url, kind: claim.kind };
    const looks: ProofLook[] = [];
    for (const method of methodsToTry(target, input.method)) {
      const look = await lookForProof(ctx, target, claim.proof, method, 'public');
      looks.push(look);
      if (look.found) break;
    }
    const found = looks.find((l) => l.found);
    if (!found) {
      const details = { proof: claim.proof, looked: looks.map(lookView) };
      if (looks.every((l) => l.failed)) {
        throw new AppError(502, 'fetch_failed', `the proof could not be read: ${looks.map((l) => `${l.where}: ${l.detail}`).join('; ')}`, 'claim_id', details);
      }
      throw new AppError(422, 'proof_not_found', `the proof was not found: ${looks.map((l) => `${l.where}: ${l.detail}`).join('; ')}`, 'claim_id', details);
    }
    const clockNow = ctx.clock.now();
    const now = iso(clockNow);
    const token = newOwnerToken();
    const tokenId = newId('own');
    const done = await inTransaction(ctx.db.kysely, async (trx) => {
      if (!(await consumeClaim(trx, claimHash, now))) throw claimExpired('this claim was used or expired while its proof was read');
      let listed: { row: ListingRow; created: boolean; reprobe: { queued: boolean } };
      const known = claim.listing_id !== null ? await lockListing(trx, claim.listing_id) : undefined;
      if (known && known.deleted_at === null) listed = { row: known, created: false, reprobe: { queued: false } };
      else {
        // Not listed yet, or deleted since: the claim lists it (again).
        const made = await listIfNew(ctx, trx, { url: claim.url, kind: claim.kind, submittedName: null, contactEmail: null, source: 'claim_listing' }, clockNow, { claim: true });
        listed = { ...made, row: (await lockListing(trx, made.row.id)) ?? made.row };
      }
      const row = listed.row;
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
        lapsed_at: null,
      });
      if (before) {
        await postToInbox(
          trx,
          { listing_id: row.id, kind: 'owner', data: { method: found.method, topic: 'owner_token_rotated' }, text: `A new proof of control (${found.method}) made a new owner token for this listing at ${now}; the earlier owner token no longer works.` },
          now,
        );
      }
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
      owner_token: token,
      token_id: tokenId,
      shown_once: true,
      listed_now: done.created,
      rotated: done.rotated,
      founding_seat: SEAT_METHODS.has(found.method),
      how: 'Send the owner token as Authorization: Bearer <owner_token> on REST and on /api/mcp (set it on your MCP client\'s transport). It acts for this listing only; keep it secret. Leave the proof in place: it is checked again weekly, and a proof gone for 7 days lapses the claim.',
      status_url: statusUrl(ctx, done.row.id),
      next_step: nextStep('check_status', { id: done.row.id }, done.created ? 'The listing was listed with this claim: watch its probe until it is Live.' : 'Your listing, now shown as claimed.'),
    };
  },
});
