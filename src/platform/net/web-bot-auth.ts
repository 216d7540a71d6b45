// Web Bot Auth request signatures (draft-ietf-webbotauth-httpsig-protocol, docs/decisions/
// web-bot-auth.md): every outbound request gets an RFC 9421 signature with Ed25519, label `sig1`,
// covering `@authority` and the `Signature-Agent` member of its own label, with created, expires,
// a fresh nonce, keyid (the key's RFC 7638 thumbprint), alg "ed25519" and tag "web-bot-auth".
// `Signature-Agent` names the signer's key directory, so an origin can fetch the key and verify.
// A plain value (no functions, no KeyObject) so it crosses to the probe thread in a message.
import { createPrivateKey, randomBytes, sign, type KeyObject } from 'node:crypto';

/** Who signs: the private Ed25519 JWK, its thumbprint and the directory URL that publishes it. */
export interface SigningIdentity {
  privateJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string; d: string };
  kid: string;
  /** The https URL of the key directory (`/.well-known/http-message-signatures-directory`). */
  directoryUrl: string;
}

/** Headers to add to one request (each redirect hop is signed for its own authority). */
export type RequestSigner = (url: URL, method: string) => Record<string, string>;

export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
export const SIGNATURE_LABEL = 'sig1';
/** A signature covers one request: it expires soon after it is made (the draft warns against reusable ones). */
export const REQUEST_SIGNATURE_TTL_S = 60;

const sfString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** RFC 9421 section 2.2.3: the authority in lowercase, its port only when it is not the scheme's default. */
export const authorityOf = (url: URL): string => url.host.toLowerCase();

/** The three request headers for one request (pure but for the nonce, which the caller may pass). */
export function webBotAuthHeaders(
  url: URL,
  key: KeyObject,
  identity: Pick<SigningIdentity, 'kid' | 'directoryUrl'>,
  nowS: number,
  nonce = randomBytes(32).toString('base64'),
): Record<string, string> {
  const agent = sfString(identity.directoryUrl);
  const components = `("@authority" "signature-agent";key="${SIGNATURE_LABEL}")`;
  const params = `${components};created=${nowS};expires=${nowS + REQUEST_SIGNATURE_TTL_S};keyid=${sfString(identity.kid)};alg="ed25519";nonce=${sfString(nonce)};tag="${WEB_BOT_AUTH_TAG}"`;
  const base = [`"@authority": ${authorityOf(url)}`, `"signature-agent";key="${SIGNATURE_LABEL}": ${agent}`, `"@signature-params": ${params}`].join('\n');
  const value = sign(null, Buffer.from(base), key).toString('base64');
  return {
    'signature-agent': `${SIGNATURE_LABEL}=${agent}`,
    'signature-input': `${SIGNATURE_LABEL}=${params}`,
    signature: `${SIGNATURE_LABEL}=:${value}:`,
  };
}

/** A signer for the guarded client: the private key is imported once, each call signs one request. */
export function webBotAuthSigner(identity: SigningIdentity, now: () => number = Date.now): RequestSigner {
  const key = createPrivateKey({ key: { ...identity.privateJwk }, format: 'jwk' });
  return (url) => webBotAuthHeaders(url, key, identity, Math.floor(now() / 1000));
}
