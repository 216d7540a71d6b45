// How long a proof of control lives and how it stays true.
import { DAY_MS, HOUR_MS } from '../platform/clock.ts';
import type { ClaimMethod } from './tables.ts';

/** A claim (its id and proof) is valid this long after it is asked for. */
export const CLAIM_TTL_MS = 24 * HOUR_MS;
/** A held claim's proof is looked for again this often. */
export const RECHECK_MS = 7 * DAY_MS;
/** While the proof is missing, it is looked for again this often. */
export const MISSING_RETRY_MS = DAY_MS;
/** A proof missing this long lapses the claim: the listing stays, its owner powers wait for a new claim. */
export const LAPSE_AFTER_MS = 7 * DAY_MS;
/** verify_claim calls one claim allows in all. */
export const VERIFIES_PER_CLAIM = 20;
/** One read of a place (a claim file, a DNS name, a card) serves every claimant asking this long after it started. */
export const PLACE_WINDOW_MS = 30_000;
/** Claims one address may ask for per UTC day (each is a row kept for a day). */
export const CLAIMS_PER_ADDRESS_PER_DAY = 500;
/** Methods whose proof sits on the owner's own site: only these claims take a founding seat or code. */
export const SEAT_METHODS = new Set(['well_known', 'dns_txt']);
/**
 * How strong each method's proof is: a file on the origin or a record in the domain's DNS needs
 * control of the site; an endpoint's answer can come from any tenant of a shared host.
 */
export const METHOD_STRENGTH: Record<ClaimMethod, number> = { dns_txt: 2, well_known: 2, card: 1 };
/** A weaker claim takes a listing from a stronger owner only after two reads this far apart answered without the owner's proof. */
export const OUST_ABSENT_MS = DAY_MS;
/** How long a listing shows that its owner changed. */
export const OWNER_CHANGE_SHOWN_MS = 30 * DAY_MS;
