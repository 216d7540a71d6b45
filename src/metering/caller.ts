// Who a call is, for allowances, refills, traces and the work it stores (DESIGN.md "Caller
// identity"): the owner token (Authorization: Bearer rco_...) -> its listing; else the client
// address (an IPv6 caller by its /64). A `listing_id` argument never chooses who pays or who is
// credited: without that listing's owner token the call is the caller's own. `agent_name` is a
// label inside the caller's allowance (its kernels and history are kept apart), never an
// allowance of its own. The listings of one owner domain share one allowance per event, so a
// site that claims fifty of its own paths still has one.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Executor } from '../platform/db/executor.ts';
import type { Ctx } from '../platform/operation.ts';
import { ipv6Prefix64, ownerDomain } from '../platform/net/host-key.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import { callerOwner, ownerTokenMismatch } from '../owners/caller.ts';
import { utcDay } from './day.ts';
import { admitName } from './store.ts';

/** Agent names one client address may use per UTC day; more are the address itself. */
export const NAMES_PER_ADDRESS_PER_DAY = 5;

export interface Subject {
  /** Whose work this is: kernels, traces, feedback and runs are kept under it. */
  key: string;
  /** Whose free allowance and refills a call spends: an owner's domain, else the address. */
  allowance: string;
  kind: 'listing' | 'name' | 'address';
  /** The listing the call acts for (kind listing: its owner token was sent). */
  listing_id?: string;
  /** The owner domain of that listing. */
  owner_domain?: string;
  /** When the owner's claim on that listing was made (the rank rules weigh a claim's age). */
  claimed_at?: string;
  /** What to call the subject in answers (never the raw address). */
  label: string;
  /** Why this subject was chosen, when it is not what the caller named. */
  note?: string;
}

/** What a call may say about who it is. */
export interface Claims {
  /** The listing the caller says it acts for: honoured only with that listing's owner token. */
  listing_id?: string;
  agent_name?: string;
}

/** The address a caller is counted by: IPv4 as is, IPv6 by its /64 (one host's share of a network). */
export const callerNetwork = (address: string): string => (isIP(address) === 6 ? ipv6Prefix64(address) : address);

export const addressHash = (address: string): string => createHash('sha256').update(`rollcall-caller:${callerNetwork(address)}`).digest('hex').slice(0, 20);

/** The allowance the listings of one owner domain share. */
export const domainAllowance = (ownerDomain: string): string => `domain:${ownerDomain}`;

/** A listing acting with its owner token (claimed at `claimedAt`): its own work, its owner domain's allowance. */
export const listingSubject = (id: string, ownerDomain: string, claimedAt?: string): Subject => ({
  key: `listing:${id}`,
  allowance: domainAllowance(ownerDomain),
  kind: 'listing',
  listing_id: id,
  owner_domain: ownerDomain,
  ...(claimedAt ? { claimed_at: claimedAt } : {}),
  label: id,
});

/** A listing's own subject, whether or not anyone acts for it now (its owner domain comes from its URL). */
export const subjectOfListing = (row: { id: string; url: string }): Subject => listingSubject(row.id, ownerDomain(row.url));

/** The key a listing's own work is kept under (its kernels, runs and traces), for read models. */
export const listingWorkKey = (id: string): string => `listing:${id}`;

const addressSubject = (address: string, note?: string): Subject => {
  const hash = addressHash(address);
  return { key: `addr:${hash}`, allowance: `addr:${hash}`, kind: 'address', label: `address ${hash.slice(0, 8)}`, ...(note ? { note } : {}) };
};

const strangerNote = (listingId: string) =>
  `this call did not carry the owner token of ${listingId} (Authorization: Bearer rco_...), so it is your own, on your own allowance; claim_listing proves control of a listing you own`;

/**
 * Resolves the subject of a call. An owner token that acts for nothing is a 401, and one that
 * acts for another listing than `listing_id` a 403, never a silent fallback. `record: false`
 * (read-only tools that only show a caller its usage): a new agent name is not counted against
 * the address's names of the day.
 */
export async function resolveSubject(ex: Executor, ctx: Ctx, claims: Claims, options: { record?: boolean } = {}): Promise<Subject> {
  const owner = await callerOwner(ctx);
  if (owner) {
    if (claims.listing_id !== undefined && claims.listing_id !== owner.listing_id) throw ownerTokenMismatch(owner.listing_id, claims.listing_id);
    return listingSubject(owner.listing_id, owner.owner_domain, owner.claimed_at);
  }
  const note = claims.listing_id !== undefined ? strangerNote(claims.listing_id) : undefined;
  const name = claims.agent_name === undefined ? '' : cleanText(claims.agent_name, MAX_NAME).toLowerCase();
  if (name !== '') {
    const address = addressHash(ctx.caller.address);
    if (await admitName(ex, address, utcDay(ctx.clock.now()), name, NAMES_PER_ADDRESS_PER_DAY, options.record ?? true)) {
      // Scoped to the address: a name is no secret, so a shared key would let anyone use its history.
      return { key: `name:${address}:${name}`, allowance: `addr:${address}`, kind: 'name', label: name, ...(note ? { note } : {}) };
    }
    return addressSubject(ctx.caller.address, `more than ${NAMES_PER_ADDRESS_PER_DAY} agent names from one address today: this call is the address's own`);
  }
  return addressSubject(ctx.caller.address, note);
}

/**
 * Whose hourly allowance pays for a fetch a caller asks Rollcall to make of a place it names (a
 * verification, a score of an unknown URL): the owner domain of its owner token, else its address.
 */
export async function fetchPayer(ctx: Ctx): Promise<string> {
  const owner = await callerOwner(ctx);
  return owner ? domainAllowance(owner.owner_domain) : `addr:${addressHash(ctx.caller.address)}`;
}
