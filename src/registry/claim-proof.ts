// Looking for a proof of control where its method puts it, through the guarded client (the
// prober's address policy, limits and per-host cap; redirects only within the listing's origin)
// or the configured DNS resolvers. Each look says exactly what was fetched and what was found,
// so a failed verification can tell the owner what to fix.
import { isIP } from 'node:net';
import { type Fetcher, OutboundError, sameOriginOnly } from '../platform/net/guarded-client.ts';
import { TxtLookupError } from '../platform/net/txt.ts';
import { hostBudgetError, type BudgetShare } from '../platform/budget/host-budgets.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { findListingById, updateListing } from '../listings/store.ts';
import { markProofMissing, markProofSeen, ownerOf, type ClaimMethod } from '../owners/store.ts';
import { callerOwner } from '../owners/caller.ts';
import { LAPSE_AFTER_MS, MISSING_RETRY_MS, PROOF_FRESH_MS, RECHECK_MS, SEAT_METHODS } from '../owners/rules.ts';
import { holdingOf, holdingOfDomain } from '../funnel/founding.ts';
import type { FoundingClaim } from '../funnel/grant.ts';
import type { OwnersCtx } from '../owners/runtime.ts';
import { textHasProof } from '../owners/tokens.ts';
import { CLAIM_META, mcpHandshake } from '../probe/mcp-handshake.ts';
import type { ProbeCtx } from '../probe/runtime.ts';

export type ClaimCtx = ProbeCtx & OwnersCtx;

/** A claim file longer than this is refused unread past it (it holds proofs, one per line). */
export const MAX_CLAIM_FILE_BYTES = 64 * 1024;
export const CLAIM_FILE_PATH = '/.well-known/rollcall-claim.txt';
export const CLAIM_DNS_LABEL = '_rollcall';
/** Where an agent card carries a proof: an entry of capabilities.extensions[] whose params has this key. */
export const CARD_PROOF_PARAM = 'rollcall_claim';

export interface ProofLook {
  method: ClaimMethod;
  /** What was fetched or looked up. */
  where: string;
  found: boolean;
  /** The lookup itself failed (no answer, a refused address, an error status): the proof could not be read. */
  failed: boolean;
  status?: number;
  detail: string;
}

export interface ClaimTarget {
  url: string;
  kind: 'agent' | 'mcp';
}

export const claimFileUrl = (url: string): string => new URL(CLAIM_FILE_PATH, new URL(url).origin).toString();

/** The DNS name of a listing's TXT proof; undefined for an address literal (it has no name to put a record under). */
export function claimDnsName(url: string): string | undefined {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? undefined : `${CLAIM_DNS_LABEL}.${host}`;
}

/** A fetch that failed; a host whose outbound budget ran out is rethrown (lookForProof makes it the caller's 429). */
function fetchFailure(method: ClaimMethod, where: string, err: unknown): ProofLook {
  if (err instanceof OutboundError && err.reason === 'host_budget') throw err;
  return { method, where, found: false, failed: true, detail: err instanceof OutboundError ? `${err.reason}: ${err.message}` : `the request failed: ${err instanceof Error ? err.message : String(err)}` };
}

async function wellKnown(client: Fetcher, target: ClaimTarget, proof: string): Promise<ProofLook> {
  const where = claimFileUrl(target.url);
  let oversized = false;
  try {
    const res = await client.fetch(where, {
      headers: { accept: 'text/plain' },
      until: () => {
        let size = 0;
        return (chunk) => {
          size += chunk.length;
          oversized = size > MAX_CLAIM_FILE_BYTES;
          return oversized;
        };
      },
    });
    if (oversized) return { method: 'well_known', where, found: false, failed: true, status: res.status, detail: `the file is larger than ${MAX_CLAIM_FILE_BYTES} bytes: keep it to its proofs, one per line` };
    if (res.status !== 200) return { method: 'well_known', where, found: false, failed: true, status: res.status, detail: `HTTP ${res.status}: the file must answer 200 with the proof on a line of its own` };
    const found = textHasProof(res.text(), proof);
    return { method: 'well_known', where, found, failed: false, status: 200, detail: found ? 'the proof is on a line of the file' : 'the file answered, but no line of it is the proof' };
  } catch (err) {
    return fetchFailure('well_known', where, err);
  }
}

async function dnsTxt(ctx: ClaimCtx, target: ClaimTarget, proof: string): Promise<ProofLook> {
  const name = claimDnsName(target.url);
  if (!name) return { method: 'dns_txt', where: target.url, found: false, failed: false, detail: 'the listing\'s host is an address, which has no DNS name to hold a TXT record: use well_known or card' };
  try {
    const records = await ctx.owners.txt(name);
    const found = records.some((r) => r.trim() === proof);
    return { method: 'dns_txt', where: name, found, failed: false, detail: found ? 'a TXT record is the proof' : records.length ? `${records.length} TXT record(s), none of them the proof` : 'no TXT record there' };
  } catch (err) {
    return { method: 'dns_txt', where: name, found: false, failed: true, detail: err instanceof TxtLookupError ? err.message : `the DNS lookup failed: ${String(err)}` };
  }
}

// biome-ignore lint/suspicious/noExplicitAny: untrusted JSON, narrowed field by field where it is read
const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether an agent card carries the proof in one of its capabilities.extensions[] params. */
export function cardHasProof(doc: unknown, proof: string): boolean {
  if (!isObj(doc) || !isObj(doc.capabilities) || !Array.isArray(doc.capabilities.extensions)) return false;
  return doc.capabilities.extensions.some((e: unknown) => isObj(e) && isObj(e.params) && e.params[CARD_PROOF_PARAM] === proof);
}

const AGENT_CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'];

async function agentCard(client: Fetcher, target: ClaimTarget, proof: string): Promise<ProofLook> {
  const origin = new URL(target.url).origin;
  const candidates = [...new Set([target.url, ...AGENT_CARD_PATHS.map((p) => `${origin}${p}`)])];
  const seen: string[] = [];
  let failures = 0;
  for (const where of candidates) {
    try {
      const res = await client.fetch(where, { headers: { accept: 'application/json' } });
      if (res.status !== 200) {
        seen.push(`${where}: HTTP ${res.status}`);
        failures++;
        continue;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(res.text());
      } catch {
        seen.push(`${where}: not JSON`);
        continue;
      }
      if (cardHasProof(doc, proof)) return { method: 'card', where, found: true, failed: false, status: 200, detail: `capabilities.extensions[] carries params.${CARD_PROOF_PARAM}` };
      seen.push(`${where}: a card without the proof`);
    } catch (err) {
      seen.push(`${where}: ${fetchFailure('card', where, err).detail}`);
      failures++;
    }
  }
  return { method: 'card', where: candidates.join(', '), found: false, failed: failures === candidates.length, detail: `no card carries params.${CARD_PROOF_PARAM} in capabilities.extensions[] (${seen.join('; ')})` };
}

async function mcpCard(client: Fetcher, target: ClaimTarget, proof: string): Promise<ProofLook> {
  const hs = await mcpHandshake(client, target.url);
  if (hs.error?.reason === 'host_budget') throw hs.error;
  if (!hs.spokeJsonRpc && !hs.ok) return { method: 'card', where: target.url, found: false, failed: true, detail: `the MCP handshake did not complete: ${hs.detail ?? 'no answer'}` };
  const found = hs.claim === proof;
  return {
    method: 'card',
    where: target.url,
    found,
    failed: false,
    detail: found ? `the initialize (or server/discover) result carries _meta["${CLAIM_META}"]` : `the server answered without _meta["${CLAIM_META}"] set to the proof`,
  };
}

/**
 * Looks for `proof` by one method: a failure is a look that says what happened. Only a host whose
 * outbound budget ran out throws: the 429 host_budget, for the caller to retry. `share`: a claim
 * anyone may start is public work; re-checking an owner's proof is the owner's own.
 */
export async function lookForProof(ctx: ClaimCtx, target: ClaimTarget, proof: string, method: ClaimMethod, share: BudgetShare): Promise<ProofLook> {
  const client = sameOriginOnly(ctx.probe.prober.outbound(undefined, ctx.budgets.admitter(share)));
  try {
    switch (method) {
      case 'well_known':
        return await wellKnown(client, target, proof);
      case 'dns_txt':
        return await dnsTxt(ctx, target, proof);
      case 'card':
        return await (target.kind === 'agent' ? agentCard(client, target, proof) : mcpCard(client, target, proof));
    }
  } catch (err) {
    if (!(err instanceof OutboundError) || err.reason !== 'host_budget') throw err;
    const retryAfterS = ctx.budgets.hourRetryAfterS();
    throw hostBudgetError(`${err.message}; the proof was not looked for`, retryAfterS, 'claim_id');
  }
}

/**
 * The caller's owner claim on `listingId` as the founding deal needs it (funnel/grant.ts), or
 * undefined when the call does not carry that listing's owner token. A seat or code goes only to
 * a proof still in place, so the proof is looked for again now unless nothing could be granted
 * (the listing or its owner domain already holds its part, or a card claim) or it was found
 * within the last minute (the claim itself just read it).
 */
export async function foundingClaimOf(ctx: ClaimCtx, listingId: string): Promise<FoundingClaim | undefined> {
  const owner = await callerOwner(ctx);
  if (!owner || owner.listing_id !== listingId) return undefined;
  const ex = ctx.db.kysely;
  const [row, listing] = await Promise.all([ownerOf(ex, listingId), findListingById(ex, listingId)]);
  if (!row || !listing) return undefined;
  const claim = { owner_domain: row.owner_domain, method: row.method };
  const nowMs = ctx.clock.now().getTime();
  const needless = !SEAT_METHODS.has(row.method) || (await holdingOf(ex, listingId)) !== undefined || (await holdingOfDomain(ex, row.owner_domain)) !== undefined;
  if (needless || nowMs - Date.parse(row.checked_at) < PROOF_FRESH_MS) return { ...claim, proof: { found: true, where: 'its place (found recently)' } };
  const look = await lookForProof(ctx, { url: listing.url, kind: listing.kind }, row.proof, row.method, 'owner');
  await recordRecheck(ex, listingId, look.found, ctx.clock.now());
  return { ...claim, proof: { found: look.found, where: look.where } };
}

/** Writes what a re-check of an owner's proof found: the next check, a missing proof's first day, a lapse. */
export async function recordRecheck(ex: Executor, listingId: string, found: boolean, now: Date): Promise<{ lapsed: boolean }> {
  const at = iso(now);
  if (found) {
    await markProofSeen(ex, listingId, at, iso(new Date(now.getTime() + RECHECK_MS)));
    return { lapsed: false };
  }
  const lapsed = await inTransaction(ex, async (trx) => {
    const lapsedNow = await markProofMissing(trx, listingId, at, iso(new Date(now.getTime() + MISSING_RETRY_MS)), iso(new Date(now.getTime() - LAPSE_AFTER_MS)));
    if (lapsedNow) await updateListing(trx, listingId, {}, at); // `claimed` turned false: caches and followers see it
    return lapsedNow;
  });
  return { lapsed };
}
