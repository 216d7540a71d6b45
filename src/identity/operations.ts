// The identity tools: bind_identity (a listing proves possession of an Ed25519 key by signing a
// challenge, and the key is bound to it), attest (Rollcall signs what it knows of a listing) and
// verify_attestation (checks such a token, or one a listing signed with its bound key).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { compactVerify, decodeJwt, decodeProtectedHeader, errors } from 'jose';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { AppError, badRequest, conflict } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { requireListing } from '../listings/operations.ts';
import { requireOwner } from '../owners/caller.ts';
import { loadProbeState } from '../probe/store.ts';
import { loadFunnel, NO_FUNNEL } from '../funnel/store.ts';
import { badgeFor } from '../funnel/badge.ts';
import { ED25519_ALGS, parsePublicJwk, publicKeyObject, thumbprint, type Ed25519PublicJwk } from './keys.ts';
import { consumeChallenge, findBinding, findChallenge, insertBindingIfAbsent, insertChallenge, replaceBinding, type Challenge } from './store.ts';
import { jwksUrl } from './documents.ts';
import type { IdentityRuntime } from './runtime.ts';

export type IdentityCtx = Ctx & { identity: IdentityRuntime };

/** How long a bind_identity challenge can be answered. */
export const CHALLENGE_TTL_MS = 10 * 60_000;
/** How long an attestation is valid (`exp - iat`). */
export const ATTESTATION_TTL_S = 24 * 3600;

const MAX_JWS = 8192;
const listingId = z.string().min(1).max(64);

/** The exact text a caller signs to answer a challenge (the JWS payload, UTF-8). */
export const challengeText = (base: string, c: Pick<Challenge, 'listing_id' | 'id' | 'nonce'>): string =>
  `rollcall-identity-binding v1 audience=${base} listing_id=${c.listing_id} challenge_id=${c.id} nonce=${c.nonce}`;

/**
 * Checks a proof: a compact JWS (alg EdDSA or Ed25519) whose payload is exactly `expected`,
 * signed by `jwk`. Every failure is a 400 naming the field.
 */
async function verifyProof(jws: string, jwk: Ed25519PublicJwk, expected: string, field: string): Promise<void> {
  if (jws.split('.').length !== 3) {
    throw badRequest('invalid_signature', `${field} must be a compact JWS (header.payload.signature, base64url) whose payload is the challenge's sign text`, field);
  }
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(jws, publicKeyObject(jwk), { algorithms: [...ED25519_ALGS] }));
  } catch (err) {
    if (err instanceof errors.JWSSignatureVerificationFailed) {
      throw badRequest('bad_signature', `${field} does not verify with the key: it was made by another key, or over other bytes`, field);
    }
    if (err instanceof errors.JOSEAlgNotAllowed) throw badRequest('invalid_signature', `${field} must be signed with alg EdDSA (or Ed25519)`, field);
    throw badRequest('invalid_signature', `${field} is not a readable compact JWS`, field);
  }
  if (Buffer.compare(Buffer.from(payload), Buffer.from(expected, 'utf8')) !== 0) {
    throw badRequest('wrong_payload', `${field}: the JWS payload must be exactly the challenge's sign text (UTF-8, nothing added)`, field);
  }
}

const challengeNotFound = () => new AppError(404, 'challenge_not_found', 'no such challenge for this listing; ask for one with bind_identity {listing_id}', 'challenge_id');
const challengeUsed = () => conflict('challenge_used', 'this challenge was already used; ask for a new one with bind_identity {listing_id}', 'challenge_id');
const challengeExpired = () => new AppError(410, 'challenge_expired', 'this challenge has expired; ask for a new one with bind_identity {listing_id}', 'challenge_id');

const bindInput = z.object({
  listing_id: listingId.describe('The listing to bind a key to.'),
  challenge_id: z.string().min(1).max(64).optional().describe('Step 2: the challenge_id step 1 returned.'),
  public_jwk: z
    .looseObject({
      kty: z.string().describe('"OKP"'),
      crv: z.string().describe('"Ed25519"'),
      x: z.string().describe('The 32-byte public key, base64url.'),
    })
    .optional()
    .describe('Step 2: your Ed25519 public key as a JWK (public members only; never send "d").'),
  signature: z.string().min(1).max(MAX_JWS).optional().describe("Step 2: a compact JWS (alg EdDSA) whose payload is exactly step 1's `sign` text, signed with the key in public_jwk."),
});

const bindOutput = z.looseObject({
  ok: z.literal(true),
  step: z.enum(['challenge', 'bound']),
  listing_id: z.string(),
  challenge_id: z.string().optional(),
  nonce: z.string().optional(),
  sign: z.string().optional(),
  expires_at: z.string().optional(),
  kid: z.string().optional(),
  bound_at: z.string().optional(),
});

export const bindIdentity = defineOperation({
  name: 'bind_identity',
  ownerOnly: true,
  title: 'Bind a signing key to a listing',
  description:
    'Bind your Ed25519 public key (JWK) to your listing so tokens you sign verify as its own; needs its owner token (Authorization: Bearer rco_...). Call with listing_id for a challenge (10 minutes), then again with it signed.',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false, destructiveHint: true },
  input: bindInput,
  output: bindOutput,
  handler: async (ctx: IdentityCtx, input) => {
    const base = ctx.config.publicBaseUrl;
    const listing = await requireListing(ctx, input.listing_id);
    await requireOwner(ctx, listing.id, 'bind_identity');
    const step2 = { challenge_id: input.challenge_id, public_jwk: input.public_jwk, signature: input.signature };
    const given = Object.entries(step2).filter(([, v]) => v !== undefined);
    if (given.length === 0) {
      const now = ctx.clock.now();
      const challenge: Challenge = {
        id: newId('chl'),
        listing_id: listing.id,
        nonce: randomBytes(32).toString('base64url'),
        created_at: iso(now),
        expires_at: iso(new Date(now.getTime() + CHALLENGE_TTL_MS)),
        used_at: null,
      };
      await insertChallenge(ctx.db.kysely, challenge);
      return {
        ok: true as const,
        step: 'challenge' as const,
        listing_id: listing.id,
        challenge_id: challenge.id,
        nonce: challenge.nonce,
        sign: challengeText(base, challenge),
        expires_at: challenge.expires_at,
        how: 'Sign `sign` (UTF-8, exactly) as a compact JWS with alg EdDSA using your Ed25519 private key, then call bind_identity again with listing_id, challenge_id, public_jwk and signature (and the owner token as Bearer).',
      };
    }
    const missing = Object.entries(step2).filter(([, v]) => v === undefined).map(([k]) => k);
    if (missing.length) {
      throw badRequest('invalid_input', `step 2 needs challenge_id, public_jwk and signature; missing: ${missing.join(', ')}`, missing[0], missing.map((field) => ({ field, message: 'required in step 2' })));
    }
    const jwk = parsePublicJwk(input.public_jwk);
    const challenge = await findChallenge(ctx.db.kysely, input.challenge_id!);
    if (!challenge || challenge.listing_id !== listing.id) throw challengeNotFound();
    if (challenge.used_at !== null) throw challengeUsed();
    if (new Date(challenge.expires_at).getTime() <= ctx.clock.now().getTime()) throw challengeExpired();
    const text = challengeText(base, challenge);
    await verifyProof(input.signature!, jwk, text, 'signature');
    const kid = await thumbprint(jwk);
    // The owner's token is the listing's authority: its owner may replace whatever key is bound.
    const existing = await findBinding(ctx.db.kysely, listing.id);
    // The challenge is spent and the key bound in one transaction: of two proofs racing, one binds.
    const now = ctx.clock.now();
    await inTransaction(ctx.db.kysely, async (trx) => {
      if (!(await consumeChallenge(trx, challenge.id, listing.id, now))) {
        const again = await findChallenge(trx, challenge.id);
        throw again && again.used_at === null ? challengeExpired() : challengeUsed();
      }
      const bound = existing ? await replaceBinding(trx, listing.id, existing.kid, jwk, kid, now) : await insertBindingIfAbsent(trx, listing.id, jwk, kid, now);
      if (!bound) throw conflict('already_bound', `the key bound to listing ${listing.id} changed meanwhile; ask for a new challenge and try again`, 'listing_id');
    });
    return {
      ok: true as const,
      step: 'bound' as const,
      listing_id: listing.id,
      kid,
      public_jwk: jwk,
      bound_at: iso(now),
      replaced: existing && existing.kid !== kid ? existing.kid : null,
      note: "Tokens you sign with this key (a compact JWS with kid set to this kid) verify with verify_attestation as signer \"listing\".",
    };
  },
});

const attestOutput = z.looseObject({
  ok: z.literal(true),
  listing_id: z.string(),
  token: z.string(),
  kid: z.string(),
  expires_at: z.string(),
  claims: z.record(z.string(), z.unknown()),
});

export const attest = defineOperation({
  name: 'attest',
  title: 'Get a signed attestation of a listing',
  description:
    'Rollcall signs what it knows of a listing now (lane, live, score, badge, kind, url, bound key) as a compact JWS valid 24 hours, so a third party can check its standing with verify_attestation or /.well-known/jwks.json.',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({ listing_id: listingId.describe('The listing to attest.') }),
  output: attestOutput,
  handler: async (ctx: IdentityCtx, input) => {
    const listing = await requireListing(ctx, input.listing_id);
    const ex = ctx.db.kysely;
    const [probe, funnel, binding] = await Promise.all([loadProbeState(ex, listing.id), loadFunnel(ex, [listing.id]), findBinding(ex, listing.id)]);
    const token = await ctx.identity.sign(
      {
        iss: ctx.config.publicBaseUrl,
        sub: listing.id,
        jti: newId('att'),
        kind: listing.kind,
        url: listing.url,
        name: listing.name,
        status: listing.lane,
        live: listing.lane === 'active',
        score: probe?.score ?? null,
        badge: badgeFor(funnel.get(listing.id) ?? NO_FUNNEL),
        probed_at: probe?.probed_at ?? null,
        identity_kid: binding?.kid ?? null,
      },
      { expiresInS: ATTESTATION_TTL_S, typ: 'JWT' },
    );
    const claims = decodeJwt(token);
    return {
      ok: true as const,
      listing_id: listing.id,
      token,
      kid: String(decodeProtectedHeader(token).kid),
      alg: 'EdDSA',
      issued_at: iso(new Date(claims.iat! * 1000)),
      expires_at: iso(new Date(claims.exp! * 1000)),
      claims,
      jwks_url: jwksUrl(ctx.config),
      next: `verify_attestation ${JSON.stringify({ token: '<token>', listing_id: listing.id })}`,
    };
  },
});

const verifyOutput = z.looseObject({
  ok: z.literal(true),
  valid: z.boolean(),
  reason: z.enum(['malformed', 'wrong_algorithm', 'unknown_key', 'bad_signature', 'expired', 'not_yet_valid', 'wrong_subject']).optional(),
  claims: z.record(z.string(), z.unknown()).optional(),
  kid: z.string().nullable().optional(),
  signer: z.enum(['rollcall', 'listing']).optional(),
});

export const verifyAttestation = defineOperation({
  name: 'verify_attestation',
  title: 'Verify an attestation or a listing-signed token',
  description:
    'Check a compact JWS: a Rollcall attestation (from attest) or a token a listing signed with its key from bind_identity. Answers valid: true with the claims, kid and signer, or valid: false with a reason (e.g. expired, bad_signature).',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    token: z.string().min(1).max(MAX_JWS).describe('The compact JWS to check.'),
    listing_id: listingId.optional().describe('The listing the token should be about (Rollcall attestations) or signed by (listing tokens).'),
  }),
  output: verifyOutput,
  handler: async (ctx: IdentityCtx, input) => {
    if (input.listing_id !== undefined) await requireListing(ctx, input.listing_id);
    const result = await ctx.identity.verify(input.token, { listingId: input.listing_id });
    if (!result.valid) return { ok: true as const, valid: false, reason: result.reason, detail: result.detail };
    return {
      ok: true as const,
      valid: true,
      signer: result.signer,
      kid: result.kid,
      claims: result.claims,
      ...(result.signer === 'listing' ? { listing_ids: result.listing_ids } : {}),
    };
  },
});
