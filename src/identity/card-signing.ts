// A2A agent card signatures (A2A 1.0.1 section 8.4): a JWS with a detached payload, where the
// payload is the card canonicalized by section 8.4.1 (probe/card-canonical.ts: defaults, members outside
// the v1 schema and `signatures` dropped, then RFC 8785), and the result is an AgentCardSignature
// `{protected, signature, header?}`. The protected header carries alg, typ "JOSE", kid (the key's
// RFC 7638 thumbprint, published in our JWKS) and jku (the JWKS URL).
//
// Verification accepts a signature over any form a signer in use produces from the same card
// (cardPayloadForms: section 8.4.1's, @a2a-js/sdk's, the card as served).
import type { KeyObject } from 'node:crypto';
import { base64url, decodeProtectedHeader, FlattenedSign, flattenedVerify } from 'jose';
import { canonicalCardJson, cardPayloadForms } from '../probe/card-canonical.ts';
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

/** The bytes a card signature covers: the card canonicalized by A2A section 8.4.1. */
export function cardSigningPayload(card: Record<string, unknown>): Uint8Array {
  return new TextEncoder().encode(canonicalCardJson(card));
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
  const publicKey = publicKeyObject(key);
  for (const form of cardPayloadForms(card)) {
    const payload = base64url.encode(new TextEncoder().encode(form));
    try {
      await flattenedVerify({ protected: signature.protected, signature: signature.signature, payload }, publicKey, { algorithms: [...ED25519_ALGS] });
      return { valid: true, kid: key.kid };
    } catch {
      // Not this form; the next one may be what the signer covered.
    }
  }
  return { valid: false, reason: 'bad_signature' };
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
