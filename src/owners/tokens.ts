// The secrets of a proof of control. An owner token is `rco_` + 32 random bytes (base64url), shown
// once and stored as its SHA-256 only; a claim id is 24 random bytes, also stored hashed, because
// whoever holds it receives the owner token once the proof is in place. A proof is public (it is
// put on the owner's site), so it is only unguessable, never secret.
import { createHash, randomBytes } from 'node:crypto';

const OWNER_TOKEN = /^rco_[A-Za-z0-9_-]{43}$/;
const CLAIM_ID = /^clm_[A-Za-z0-9_-]{32}$/;
const PROOF_PREFIX = 'rollcall-claim=';

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export const newOwnerToken = (): string => `rco_${randomBytes(32).toString('base64url')}`;
export const isOwnerTokenShape = (token: string): boolean => OWNER_TOKEN.test(token);

export const newClaimId = (): string => `clm_${randomBytes(24).toString('base64url')}`;
export const isClaimIdShape = (id: string): boolean => CLAIM_ID.test(id);

/** `rollcall-claim=` and 43 base64url characters (256 random bits). */
export const newProof = (): string => `${PROOF_PREFIX}${randomBytes(32).toString('base64url')}`;

const PROOF = /^rollcall-claim=[A-Za-z0-9_-]{43}$/;
/** Whether a text (a line of a claim file, a TXT record, a card param) has the shape of a proof. */
export const isProofShape = (text: string): boolean => PROOF.test(text);
