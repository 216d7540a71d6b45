// Proof of control (TOOLS.md claim_listing): a caller asks for a claim on a listing (or on a URL
// not listed yet) and gets a secret claim id and a public proof; it puts the proof where one of the
// methods says (its origin's well-known file, a DNS TXT record, or its card / MCP `_meta`) and
// verifies (verify-claim.ts).
import { z } from 'zod';
import { defineOperation } from '../platform/operation.ts';
import { AppError, badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { nextStep } from '../platform/next-step.ts';
import { guessKind, MAX_URL_LENGTH, normalizeListingUrl } from '../listings/url.ts';
import { findListingBySpelling } from '../listings/store.ts';
import { requireListing } from '../listings/operations.ts';
import { addressHash } from '../metering/caller.ts';
import { CLAIM_METHODS, claimsOfCallerSince, findClaim, insertClaim, type ClaimMethod } from '../owners/store.ts';
import { isClaimIdShape, newClaimId, newProof, sha256 } from '../owners/tokens.ts';
import type { Executor } from '../platform/db/executor.ts';
import { CLAIM_TTL_MS, CLAIMS_PER_ADDRESS_PER_DAY, VERIFIES_PER_CLAIM } from '../owners/rules.ts';
import { utcDay, nextReset } from '../metering/day.ts';
import { CARD_PROOF_PARAM, claimDnsName, claimFileUrl, type ClaimCtx, type ClaimTarget } from './claim-proof.ts';
import { CLAIM_META } from '../probe/mcp-handshake.ts';

const nextStepOutput = z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() });
export const methodField = z.enum(CLAIM_METHODS as [ClaimMethod, ...ClaimMethod[]]);

/** Where each method puts the proof, for a listing at `target` (`base`: this registry's public URL). */
function methodsFor(base: string, target: ClaimTarget, proof: string) {
  const dns = claimDnsName(target.url);
  return [
    { method: 'well_known' as const, where: claimFileUrl(target.url), put: `a line of this file (text/plain, answered with 200) that is exactly: ${proof}`, founding_seat: true },
    ...(dns ? [{ method: 'dns_txt' as const, where: dns, put: `a TXT record whose value is exactly: ${proof}`, founding_seat: true }] : []),
    target.kind === 'mcp'
      ? { method: 'card' as const, where: target.url, put: `your MCP server's initialize (and server/discover) result carries "_meta": {"${CLAIM_META}": "${proof}"}`, founding_seat: false }
      : {
          method: 'card' as const,
          where: target.url,
          put: `your agent card's capabilities.extensions[] has an entry {"uri": "${base}/for-agents#claim", "params": {"${CARD_PROOF_PARAM}": "${proof}"}}`,
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
    'Start proving you control a listing (listing_id) or an unlisted url: a claim_id and a proof for /.well-known/rollcall-claim.txt, a DNS TXT record or the card (24 h), then verify_claim. Seats need well_known or dns_txt.',
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
    await insertClaim(ctx.db.kysely, { claim_hash: sha256(claimId), listing_id: target.listing_id, url: target.url, kind: target.kind, proof, caller, created_at: iso(clockNow), expires_at: expiresAt, consumed_at: null, verifies: 0 });
    return {
      ok: true as const,
      claim_id: claimId,
      proof,
      listing_id: target.listing_id,
      url: target.url,
      expires_at: expiresAt,
      methods: methodsFor(ctx.config.publicBaseUrl, target, proof),
      note: `Keep claim_id to yourself: whoever verifies with it receives the owner token. The proof is public; put it in one place of your choice (several listings of one origin may share the file, one proof per line). A claim allows ${VERIFIES_PER_CLAIM} verifications; each place is read at most once every 30 seconds.`,
      next_step: nextStep('verify_claim', { claim_id: claimId }, 'Once the proof is in place: Rollcall reads it and answers the listing\'s owner token, once.'),
    };
  },
});

/** A claim that can still be verified, as claim_listing answered it (its id aside). */
export interface PendingClaim {
  listing_id: string | null;
  url: string;
  proof: string;
  expires_at: string;
  verifies_left: number;
  methods: ReturnType<typeof methodsFor>;
}

/**
 * A read model for the listing page's claim flow: the claim `claimId` names, while it can still be
 * verified (not used, not expired, verifications left), with where its proof goes; undefined
 * otherwise. Its page shows the proof again after a verification that did not find it.
 */
export async function pendingClaim(ex: Executor, base: string, claimId: string, now: Date): Promise<PendingClaim | undefined> {
  if (!isClaimIdShape(claimId)) return undefined;
  const claim = await findClaim(ex, sha256(claimId));
  if (!claim || claim.consumed_at !== null || claim.expires_at <= iso(now)) return undefined;
  const left = VERIFIES_PER_CLAIM - claim.verifies;
  if (left <= 0) return undefined;
  return { listing_id: claim.listing_id, url: claim.url, proof: claim.proof, expires_at: claim.expires_at, verifies_left: left, methods: methodsFor(base, { url: claim.url, kind: claim.kind }, claim.proof) };
}
