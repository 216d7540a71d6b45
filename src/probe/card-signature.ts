// Whether a probed agent card's signature holds (A2A 1.0.1 section 8.4.3): some entry of its
// `signatures` verifies, as a JWS with a detached payload, over the card's canonical form
// (card-canonical.ts) with a key of the JWKS its protected header's `jku` names. Keys come only
// from a `jku` on the card's own origin (after redirects), read through the probe's guarded client
// with redirects kept to that origin: a card cannot make the prober fetch elsewhere, and a key
// served by someone else's host says nothing about who published the card. A signature without
// such a `jku` cannot be checked, so it does not hold.
import { base64url, decodeProtectedHeader, flattenedVerify, importJWK, type JWK } from 'jose';
import type { Fetcher } from '../platform/net/guarded-client.ts';
import { cardPayloadForms } from './card-canonical.ts';

export type CardSignatureStatus = 'valid' | 'invalid' | 'unsigned';

export interface CardSignatureCheck {
  status: CardSignatureStatus;
  detail: string;
}

/** At most this many signatures and distinct key sets are tried per card (key rotation needs two or three). */
const MAX_SIGNATURES = 4;
/** Public-key algorithms only: `none` and shared-secret HMAC prove nothing about a publisher. */
const ASYMMETRIC = /^(EdDSA|Ed25519|ES(256|384|512|256K)|RS(256|384|512)|PS(256|384|512))$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Keys = { keys: JWK[] } | { error: string };

/** One signature's verdict: undefined when it verifies, else why not. */
async function checkOne(card: Record<string, unknown>, entry: unknown, cardOrigin: string, jwks: (url: string) => Promise<Keys>): Promise<string | undefined> {
  if (!isObject(entry) || typeof entry.protected !== 'string' || typeof entry.signature !== 'string') return 'a signature entry is not {protected, signature}';
  let header: { alg?: unknown; kid?: unknown; jku?: unknown };
  try {
    header = decodeProtectedHeader({ protected: entry.protected, payload: '', signature: entry.signature });
  } catch {
    return 'a protected header does not decode';
  }
  if (typeof header.alg !== 'string' || !ASYMMETRIC.test(header.alg)) return `algorithm ${String(header.alg)} is not a public-key JWS algorithm`;
  if (typeof header.jku !== 'string') return 'the signature names no jku to read its key from';
  let jku: URL;
  try {
    jku = new URL(header.jku);
  } catch {
    return 'the jku is not a URL';
  }
  if (jku.origin !== cardOrigin) return `the jku ${jku.origin} is not on the card's origin ${cardOrigin}`;
  const set = await jwks(jku.toString());
  if ('error' in set) return set.error;
  const jwk = set.keys.find((k) => header.kid === undefined || k.kid === header.kid);
  if (!jwk) return `no key ${String(header.kid)} at the jku`;
  if (jwk.kty === 'oct' || 'd' in jwk) return 'the key at the jku is not a public key';
  let key: Awaited<ReturnType<typeof importJWK>>;
  try {
    key = await importJWK(jwk, header.alg);
  } catch {
    return 'the key at the jku does not import';
  }
  for (const form of cardPayloadForms(card)) {
    try {
      await flattenedVerify({ protected: entry.protected, signature: entry.signature, payload: base64url.encode(new TextEncoder().encode(form)) }, key, { algorithms: [header.alg] });
      return undefined;
    } catch {
      // Not this form of the card.
    }
  }
  return 'the signature does not verify over the card';
}

/** Checks a card as fetched from `cardUrl` (its final URL); never throws. */
export async function checkCardSignature(card: Record<string, unknown>, cardUrl: string, client: Fetcher): Promise<CardSignatureCheck> {
  const signatures = card.signatures;
  if (!Array.isArray(signatures) || signatures.length === 0) return { status: 'unsigned', detail: 'the card carries no signatures' };
  const cardOrigin = new URL(cardUrl).origin;
  const sets = new Map<string, Promise<Keys>>();
  const jwks = (url: string): Promise<Keys> => {
    let set = sets.get(url);
    if (!set) {
      set = readJwks(url, client);
      sets.set(url, set);
    }
    return set;
  };
  let why = '';
  for (const entry of signatures.slice(0, MAX_SIGNATURES)) {
    const failed = await checkOne(card, entry, cardOrigin, jwks).catch(() => 'the signature could not be checked');
    if (failed === undefined) return { status: 'valid', detail: 'a signature verifies with a key from the jku on the card origin' };
    why = failed;
  }
  return { status: 'invalid', detail: why };
}

async function readJwks(url: string, client: Fetcher): Promise<Keys> {
  try {
    const res = await client.fetch(url, { headers: { accept: 'application/jwk-set+json, application/json' }, sameOrigin: true });
    if (res.status !== 200) return { error: `the jku answers HTTP ${res.status}` };
    const doc: unknown = JSON.parse(res.text());
    if (!isObject(doc) || !Array.isArray(doc.keys)) return { error: 'the jku is not a JWKS' };
    return { keys: doc.keys.filter(isObject).slice(0, 20) as JWK[] };
  } catch {
    return { error: 'the jku could not be read' };
  }
}
