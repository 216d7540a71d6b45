// Ed25519 keys as JWKs (RFC 8037): generation, RFC 7638 thumbprints, the raw 32-byte public key,
// and the checks a public key sent by a caller must pass. Pure helpers; no storage here.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { badRequest } from '../platform/errors.ts';

/** The JWS algorithm Rollcall signs with (RFC 8037). */
export const SIGNING_ALG = 'EdDSA';
/** Algorithms accepted on Ed25519 signatures: EdDSA and the fully specified Ed25519 (RFC 9864). */
export const ED25519_ALGS: readonly string[] = ['EdDSA', 'Ed25519'];

export interface Ed25519PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

export interface Ed25519PrivateJwk extends Ed25519PublicJwk {
  d: string;
}

/** A key as the JWKS publishes it: public members only. */
export interface PublishedJwk extends Ed25519PublicJwk {
  kid: string;
  alg: typeof SIGNING_ALG;
  use: 'sig';
}

const B64URL_32 = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url without padding

/** Only the public members, in a fixed shape (never a stray `d`). */
export const publicPart = (jwk: Ed25519PublicJwk): Ed25519PublicJwk => ({ kty: 'OKP', crv: 'Ed25519', x: jwk.x });

/** RFC 7638 JWK SHA-256 thumbprint, base64url: the kid of every key Rollcall publishes or binds. */
export const thumbprint = (jwk: Ed25519PublicJwk): Promise<string> => calculateJwkThumbprint(publicPart(jwk), 'sha256');

export function generateEd25519(): { publicJwk: Ed25519PublicJwk; privateJwk: Ed25519PrivateJwk } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string' || typeof jwk.d !== 'string') throw new Error('ed25519 key export did not give x and d');
  return { publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, privateJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d } };
}

/** The raw 32-byte public key (what DNS TXT `pk=` and mcp-registry-auth `p=` carry, base64). */
export const rawPublicKey = (jwk: Ed25519PublicJwk): Buffer => Buffer.from(jwk.x, 'base64url');

export const publicKeyObject = (jwk: Ed25519PublicJwk): KeyObject => createPublicKey({ key: { ...publicPart(jwk) }, format: 'jwk' });
export const privateKeyObject = (jwk: Ed25519PrivateJwk): KeyObject =>
  createPrivateKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d }, format: 'jwk' });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A caller's public key: an Ed25519 JWK (kty OKP, crv Ed25519, x = 32 bytes base64url). A JWK
 * carrying a private member (`d`) is refused, so a private key sent by mistake is never stored.
 */
export function parsePublicJwk(input: unknown, field = 'public_jwk'): Ed25519PublicJwk {
  if (!isObject(input)) throw badRequest('invalid_jwk', `${field} must be a JWK object: {"kty":"OKP","crv":"Ed25519","x":"<32 bytes, base64url>"}`, field);
  if ('d' in input) {
    throw badRequest('private_key_sent', `${field} contains a private key member "d": send only the public members kty, crv and x, and keep the private key to yourself (it was not stored)`, `${field}.d`);
  }
  if (input.kty !== 'OKP') throw badRequest('unsupported_key', `${field}.kty must be "OKP": only Ed25519 keys can be bound`, `${field}.kty`);
  if (input.crv !== 'Ed25519') throw badRequest('unsupported_key', `${field}.crv must be "Ed25519" (got ${JSON.stringify(input.crv)})`, `${field}.crv`);
  if (typeof input.x !== 'string' || !B64URL_32.test(input.x)) {
    throw badRequest('invalid_jwk', `${field}.x must be the 32-byte public key, base64url without padding (43 characters)`, `${field}.x`);
  }
  const jwk: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: input.x };
  try {
    publicKeyObject(jwk);
  } catch {
    throw badRequest('invalid_jwk', `${field} is not a usable Ed25519 public key`, field);
  }
  return jwk;
}
