// HTTP Message Signatures (RFC 9421) as the Web Bot Auth directory draft uses them on responses:
// covered components `"@authority";req` (the authority the client asked for) and `content-digest`
// (RFC 9530, SHA-256 of the body), parameters created, expires, keyid (the key's RFC 7638
// thumbprint), alg "ed25519" and a tag. Pure string building; the runtime signs the base.
import { createHash } from 'node:crypto';

/** The tag the directory draft requires on a directory response's signatures. */
export const DIRECTORY_TAG = 'http-message-signatures-directory';
/** Our tag on the signature agent card's response signatures. */
export const CARD_TAG = 'signature-agent-card';

/** RFC 9530 Content-Digest of a body: `sha-256=:<base64>:`. */
export const contentDigest = (body: Buffer | string): string => `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;

export interface SignatureParams {
  created: number; // seconds since the epoch
  expires: number;
  keyid: string;
  tag: string;
}

/** A covered component: its identifier as serialized in the signature base and its value. */
export interface Component {
  id: string;
  value: string;
}

const sfString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The `@signature-params` value (also the Signature-Input member): inner list of components, then parameters. */
export function signatureParams(components: Component[], p: SignatureParams): string {
  return `(${components.map((c) => c.id).join(' ')});created=${p.created};expires=${p.expires};keyid=${sfString(p.keyid)};alg="ed25519";tag=${sfString(p.tag)}`;
}

/** RFC 9421 section 2.5: one line per covered component, then the `@signature-params` line. */
export function signatureBase(components: Component[], params: string): string {
  for (const c of components) if (/[\r\n]/.test(c.value)) throw new Error(`component ${c.id} has a line break`);
  return [...components.map((c) => `${c.id}: ${c.value}`), `"@signature-params": ${params}`].join('\n');
}

/** The response components a directory (or card) signature covers. */
export const responseComponents = (authority: string, digest: string): Component[] => [
  { id: '"@authority";req', value: authority },
  { id: '"content-digest"', value: digest },
];
