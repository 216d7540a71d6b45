// Identifiers: short, URL-safe, unguessable.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case
const ID_CHARS = 20;

// Every request gets an id, and randomBytes() per id is one getrandom call each: about 5% of a
// cheap request's CPU under load (docs/performance.md, MCP endpoint). Ids draw their bytes from a
// pool refilled from the same CSPRNG when used up (what crypto.randomUUID does); no byte is used twice.
const pool = Buffer.alloc(ID_CHARS * 512);
let used = pool.length;

/** `prefix_` followed by 20 base32 characters (100 random bits). */
export function newId(prefix: string): string {
  if (used + ID_CHARS > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let out = '';
  for (let i = used; i < used + ID_CHARS; i++) out += ALPHABET[pool[i]! & 31];
  used += ID_CHARS;
  return `${prefix}_${out}`;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a caller's x-request-id when it is a sane token, else makes one. */
export function requestId(incoming: unknown): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : newId('req');
}
