// How long a proof of control lives and how it stays true.
import { DAY_MS, HOUR_MS } from '../platform/clock.ts';

/** A claim (its id and proof) is valid this long after it is asked for. */
export const CLAIM_TTL_MS = 24 * HOUR_MS;
/** A held claim's proof is looked for again this often. */
export const RECHECK_MS = 7 * DAY_MS;
/** While the proof is missing, it is looked for again this often. */
export const MISSING_RETRY_MS = DAY_MS;
/** A proof missing this long lapses the claim: the listing stays, its owner powers wait for a new claim. */
export const LAPSE_AFTER_MS = 7 * DAY_MS;
/** A proof found this recently is not fetched again before a founding seat (the claim just verified it). */
export const PROOF_FRESH_MS = 60_000;
/** Claims one address may ask for per UTC day (each is a row kept for a day). */
export const CLAIMS_PER_ADDRESS_PER_DAY = 500;
/** Methods whose proof sits on the owner's own site: only these claims take a founding seat or code. */
export const SEAT_METHODS = new Set(['well_known', 'dns_txt']);
