// A2A agent card signatures (A2A v1 section 8.4): a JWS with a detached payload, where the payload
// is the RFC 8785 canonical JSON of the card without its `signatures` member, and the result is an
// AgentCardSignature `{protected, signature, header?}`. The protected header carries alg, typ
// "JOSE", kid (the key's RFC 7638 thumbprint, published in our JWKS) and jku (the JWKS URL).
//
// Canonicalization signs the card exactly as it will be served: members present in the JSON are
// covered, absent ones are not. A2A asks signers to leave out unset optional fields and empty
// non-required lists; the card's builder decides that by what it puts in the JSON.
import type { KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import { base64url, decodeProtectedHeader, FlattenedSign, flattenedVerify } from 'jose';
import { ED25519_ALGS, publicKeyObject, SIGNING_ALG, type Ed25519PublicJwk } from './keys.ts';

/** A2A v1 AgentCardSignature. */
export interface AgentCardSignature {
  /** base64url of the JWS Protected Header (JSON). */
  protected: string;
  /** base64url of the Ed25519 signature over `protected || '.' || base64url(payload)`. */
  signature: string;
  /** Unprotected header parameters (not covered by the signature). */
  header?: Record<string, unknown>;
}

export type CardVerification =
  | { valid: true; kid: string }
  | { valid: false; reason: 'unsigned' | 'malformed' | 'wrong_algorithm' | 'unknown_key' | 'bad_signature' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The bytes a card signature covers: RFC 8785 JSON of the card without `signatures`. */
export function cardSigningPayload(card: Record<string, unknown>): Uint8Array {
  const { signatures: _signatures, ...rest } = card;
  const json = canonicalize(rest);
  if (json === undefined) throw new Error('the agent card cannot be serialized as JSON');
  return new TextEncoder().encode(json);
}

/** Signs a card with one key (the runtime's signAgentCard passes the current signing key). */
export async function signCardWith(card: Record<string, unknown>, key: KeyObject, kid: string, jku?: string): Promise<AgentCardSignature> {
  const jws = await new FlattenedSign(cardSigningPayload(card))
    .setProtectedHeader({ alg: SIGNING_ALG, typ: 'JOSE', kid, ...(jku ? { jku } : {}) })
    .sign(key);
  return { protected: jws.protected!, signature: jws.signature };
}

/** Verifies one AgentCardSignature of `card` against a set of public keys (JWKs with kid). */
export async function verifyCardSignature(
  card: Record<string, unknown>,
  signature: unknown,
  keys: readonly (Ed25519PublicJwk & { kid: string })[],
): Promise<CardVerification> {
  if (!isObject(signature) || typeof signature.protected !== 'string' || typeof signature.signature !== 'string') return { valid: false, reason: 'malformed' };
  let header: { alg?: unknown; kid?: unknown };
  try {
    header = decodeProtectedHeader({ protected: signature.protected, payload: '', signature: signature.signature });
  } catch {
    return { valid: false, reason: 'malformed' };
  }
  if (typeof header.alg !== 'string' || !ED25519_ALGS.includes(header.alg)) return { valid: false, reason: 'wrong_algorithm' };
  const key = keys.find((k) => k.kid === header.kid);
  if (!key) return { valid: false, reason: 'unknown_key' };
  try {
    await flattenedVerify(
      { protected: signature.protected, signature: signature.signature, payload: base64url.encode(cardSigningPayload(card)) },
      publicKeyObject(key),
      { algorithms: [...ED25519_ALGS] },
    );
    return { valid: true, kid: key.kid };
  } catch {
    return { valid: false, reason: 'bad_signature' };
  }
}

/**
 * Verifies a signed card (A2A: a verifier should accept a card when at least one signature
 * verifies): the first valid signature wins, else the reason of the last one tried.
 */
export async function verifyAgentCard(card: Record<string, unknown>, keys: readonly (Ed25519PublicJwk & { kid: string })[]): Promise<CardVerification> {
  const signatures = card.signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) return { valid: false, reason: 'unsigned' };
  let last: CardVerification = { valid: false, reason: 'malformed' };
  for (const s of signatures) {
    last = await verifyCardSignature(card, s, keys);
    if (last.valid) return last;
  }
  return last;
}
