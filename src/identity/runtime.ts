// The identity runtime: this deployment's signing keys, read from the database (so every instance
// signs with the same keys) and cached for KEY_CACHE_MS, so a rotation made on one instance is
// seen by the others within seconds. It signs (compact JWS, RFC 9421 response signatures, A2A card
// signatures) and verifies. Private keys live only in a private field here: never logged, never
// serialized, never in a response.
import { sign as edSign, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Db } from '../platform/db/dialect.ts';
import { ED25519_ALGS, privateKeyObject, publicKeyObject, SIGNING_ALG, type Ed25519PublicJwk, type PublishedJwk } from './keys.ts';
import { ensureSigningKey, findBinding, findBindingsByKid, loadSigningKeys, rotateSigningKey, type Binding, type Rotation } from './store.ts';
import { contentDigest, responseComponents, signatureBase, signatureParams } from './http-signatures.ts';
import { signCardWith, verifyAgentCard, type AgentCardSignature, type CardVerification } from './card-signing.ts';
import { directoryUrl, jwksUrl, mcpDnsTxt } from './documents.ts';
import type { SigningIdentity } from '../platform/net/web-bot-auth.ts';

/** How long an instance trusts its copy of the keys before reading them again. */
export const KEY_CACHE_MS = 5_000;
/** Tolerated clock skew when checking a token's exp and nbf. */
const CLOCK_TOLERANCE_S = 30;

interface LoadedKey {
  kid: string;
  generation: number;
  published: PublishedJwk;
  privateKey: KeyObject;
  activeFrom: number;
  retireAt: number | null;
}

export type VerifyReason = 'malformed' | 'wrong_algorithm' | 'unknown_key' | 'bad_signature' | 'expired' | 'not_yet_valid' | 'wrong_subject';

export type TokenVerification =
  | { valid: true; claims: JWTPayload; kid: string | null; signer: 'rollcall' | 'listing'; listing_ids: string[] }
  | { valid: false; reason: VerifyReason; detail: string };

export interface SignOptions {
  /** Sets `exp` this many seconds after `iat`. */
  expiresInS?: number;
  /** The JWS `typ` header (default "JWT"). */
  typ?: string;
}

/** Response headers of an RFC 9421 signed response (one signature per published key). */
export interface SignedResponseHeaders {
  'content-digest': string;
  'signature-input': string;
  signature: string;
}

const fail = (reason: VerifyReason, detail: string): TokenVerification => ({ valid: false, reason, detail });

export class IdentityRuntime {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #config: Config;
  readonly #cacheMs: number;
  #cache: { at: number; keys: LoadedKey[] } | undefined;
  #loading: Promise<LoadedKey[]> | undefined;

  constructor(deps: { db: Db; clock: Clock; config: Config }, options: { cacheMs?: number } = {}) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#config = deps.config;
    this.#cacheMs = options.cacheMs ?? KEY_CACHE_MS;
  }

  /** Drops the cached keys (after a rotation on this instance). */
  invalidate(): void {
    this.#cache = undefined;
  }

  /** Every key still published at this moment, newest first (the first load creates the first key). */
  async #keys(): Promise<LoadedKey[]> {
    const now = this.#clock.now().getTime();
    if (!this.#cache || now - this.#cache.at >= this.#cacheMs || now < this.#cache.at) {
      this.#loading ??= this.#load().finally(() => {
        this.#loading = undefined;
      });
      this.#cache = { at: now, keys: await this.#loading };
    }
    return this.#cache.keys.filter((k) => k.retireAt === null || k.retireAt > now);
  }

  async #load(): Promise<LoadedKey[]> {
    const ex = this.#db.kysely;
    const now = this.#clock.now();
    let rows = await loadSigningKeys(ex, now);
    if (!rows.length) {
      await ensureSigningKey(ex, now);
      rows = await loadSigningKeys(ex, now);
    }
    return rows.map((r) => ({
      kid: r.kid,
      generation: r.generation,
      published: { ...r.publicJwk, kid: r.kid, alg: SIGNING_ALG, use: 'sig' },
      privateKey: privateKeyObject(r.privateJwk),
      activeFrom: r.activeFrom.getTime(),
      retireAt: r.retireAt === null ? null : r.retireAt.getTime(),
    }));
  }

  /** The newest key whose time has come (a freshly rotated-in key is published before it signs). */
  async #signingKey(): Promise<LoadedKey> {
    const keys = await this.#keys();
    const now = this.#clock.now().getTime();
    const key = keys.find((k) => k.activeFrom <= now) ?? keys[keys.length - 1];
    if (!key) throw new Error('no signing key is published');
    return key;
  }

  /** The JWKS: public members only (kty, crv, x, kid, alg, use), current and still-published keys. */
  async jwks(): Promise<{ keys: PublishedJwk[] }> {
    return { keys: (await this.#keys()).map((k) => ({ ...k.published })) };
  }

  /** The key that signs now, public members only. */
  async currentPublicJwk(): Promise<PublishedJwk> {
    return { ...(await this.#signingKey()).published };
  }

  /** The `_mcp` DNS TXT record for the key signing now (see documents.ts mcpDnsTxt). */
  async mcpDnsTxt(): Promise<string> {
    return mcpDnsTxt(this.#config, await this.currentPublicJwk());
  }

  /** A compact JWS (a JWT: EdDSA, `kid` in the JWKS, `iat` now) over the claims. */
  async sign(claims: JWTPayload, options: SignOptions = {}): Promise<string> {
    const key = await this.#signingKey();
    const iat = Math.floor(this.#clock.now().getTime() / 1000);
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: options.typ ?? 'JWT' }).setIssuedAt(iat);
    if (options.expiresInS !== undefined) jwt.setExpirationTime(iat + options.expiresInS);
    return jwt.sign(key.privateKey);
  }

  /**
   * Verifies a compact JWS (JWT) against our published keys or, when its `kid` names a key a
   * listing has bound (or `listingId` is given and that listing has a key), the listing's key.
   * A bad token is an answer (`valid: false` and a reason), never an exception.
   */
  async verify(token: string, options: { listingId?: string } = {}): Promise<TokenVerification> {
    if (typeof token !== 'string' || token.split('.').length !== 3) return fail('malformed', 'a compact JWS has three base64url parts separated by dots');
    let header: { alg?: unknown; kid?: unknown };
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return fail('malformed', 'the protected header is not base64url JSON');
    }
    if (typeof header.alg !== 'string' || !ED25519_ALGS.includes(header.alg)) {
      return fail('wrong_algorithm', `alg ${JSON.stringify(header.alg ?? null)} is not accepted; tokens must be signed with EdDSA (Ed25519)`);
    }
    const kid = typeof header.kid === 'string' ? header.kid : null;
    const found = await this.#verificationKey(kid, options.listingId);
    if (!found) return fail('unknown_key', kid ? `kid ${kid} is neither in ${jwksUrl(this.#config)} nor bound to a listing` : 'the token names no kid and no bound key applies');
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, publicKeyObject(found.jwk), {
        algorithms: [...ED25519_ALGS],
        currentDate: this.#clock.now(),
        clockTolerance: CLOCK_TOLERANCE_S,
      }));
    } catch (err) {
      return verifyFailure(err);
    }
    if (found.signer === 'rollcall' && options.listingId !== undefined && claims.sub !== options.listingId) {
      return fail('wrong_subject', `the attestation is about ${JSON.stringify(claims.sub ?? null)}, not ${options.listingId}`);
    }
    return { valid: true, claims, kid, signer: found.signer, listing_ids: found.listingIds };
  }

  async #verificationKey(kid: string | null, listingId: string | undefined): Promise<{ jwk: Ed25519PublicJwk; signer: 'rollcall' | 'listing'; listingIds: string[] } | undefined> {
    if (kid) {
      const ours = (await this.#keys()).find((k) => k.kid === kid);
      if (ours) return { jwk: ours.published, signer: 'rollcall', listingIds: [] };
    }
    const ex = this.#db.kysely;
    if (listingId !== undefined) {
      const bound = await findBinding(ex, listingId);
      if (bound && (kid === null || bound.kid === kid)) return { jwk: bound.public_jwk, signer: 'listing', listingIds: [listingId] };
      return undefined;
    }
    if (!kid) return undefined;
    const bindings: Binding[] = await findBindingsByKid(ex, kid);
    const first = bindings[0];
    return first ? { jwk: first.public_jwk, signer: 'listing', listingIds: bindings.map((b) => b.listing_id) } : undefined;
  }

  /** A2A v1 AgentCardSignature of the card (detached JWS over its RFC 8785 form without `signatures`). */
  async signAgentCard(card: Record<string, unknown>): Promise<AgentCardSignature> {
    const key = await this.#signingKey();
    return signCardWith(card, key.privateKey, key.kid, jwksUrl(this.#config));
  }

  /** Verifies a card's `signatures` against our published keys. */
  async verifyAgentCard(card: Record<string, unknown>): Promise<CardVerification> {
    return verifyAgentCard(card, (await this.#keys()).map((k) => k.published));
  }

  /**
   * RFC 9421 signatures of a response body, one per published key (the directory draft: each key
   * provides one signature), covering `"@authority";req` and `content-digest`, valid for `ttlS`.
   */
  async signResponse(authority: string, body: Buffer | string, tag: string, ttlS: number): Promise<SignedResponseHeaders> {
    const keys = await this.#keys();
    const created = Math.floor(this.#clock.now().getTime() / 1000);
    const digest = contentDigest(body);
    const components = responseComponents(authority, digest);
    const inputs: string[] = [];
    const signatures: string[] = [];
    keys.forEach((key, i) => {
      const params = signatureParams(components, { created, expires: created + ttlS, keyid: key.kid, tag });
      const value = edSign(null, Buffer.from(signatureBase(components, params)), key.privateKey).toString('base64');
      inputs.push(`sig${i + 1}=${params}`);
      signatures.push(`sig${i + 1}=:${value}:`);
    });
    return { 'content-digest': digest, 'signature-input': inputs.join(', '), signature: signatures.join(', ') };
  }

  /**
   * The key that signs now, private half included, as a plain value for the prober's request
   * signatures (Web Bot Auth): it goes only to the prober's client and its thread, never out.
   */
  async requestSigningIdentity(): Promise<SigningIdentity> {
    const key = await this.#signingKey();
    const jwk = key.privateKey.export({ format: 'jwk' });
    if (typeof jwk.x !== 'string' || typeof jwk.d !== 'string') throw new Error('the signing key did not export as an Ed25519 JWK');
    return { privateJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d }, kid: key.kid, directoryUrl: directoryUrl(this.#config) };
  }

  /** Adds the next signing key (see store.ts rotateSigningKey) and re-reads the keys here at once. */
  async rotate(): Promise<Rotation> {
    const rotation = await rotateSigningKey(this.#db.kysely, this.#clock.now());
    this.invalidate();
    return rotation;
  }

  /** Never show key material when the runtime is inspected or serialized. */
  toJSON(): Record<string, never> {
    return {};
  }
}

/** Maps jose's verification errors to the reasons verify_attestation reports. */
function verifyFailure(err: unknown): TokenVerification {
  if (err instanceof errors.JWSSignatureVerificationFailed) return fail('bad_signature', 'the signature does not match the header and payload');
  if (err instanceof errors.JWTExpired) return fail('expired', `the token expired (exp ${String(err.payload.exp)})`);
  if (err instanceof errors.JWTClaimValidationFailed && (err.claim === 'nbf' || err.claim === 'iat')) return fail('not_yet_valid', `the token's ${err.claim} is in the future`);
  if (err instanceof errors.JOSEAlgNotAllowed) return fail('wrong_algorithm', 'the token is not signed with EdDSA (Ed25519)');
  return fail('malformed', err instanceof Error ? err.message : 'the token could not be read');
}
