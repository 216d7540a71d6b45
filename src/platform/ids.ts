// Identifiers: short, URL-safe, unguessable.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** `prefix_` followed by 20 base32 characters (100 random bits). */
export function newId(prefix: string): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a caller's x-request-id when it is a sane token, else makes one. */
export function requestId(incoming: unknown): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : newId('req');
}
