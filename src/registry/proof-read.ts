// Reading one place a proof of control can be, through the guarded client (the prober's address
// policy, limits and per-host cap; redirects only within the listing's origin) or the configured
// DNS resolvers: every proof found there, and what was fetched and what answered, so one read can
// serve several claimants and a failed verification can tell the owner what to fix.
import { isIP } from 'node:net';
import { type Fetcher, OutboundError } from '../platform/net/guarded-client.ts';
import { TxtLookupError } from '../platform/net/txt.ts';
import type { ClaimMethod } from '../owners/store.ts';
import type { OwnersRuntime } from '../owners/runtime.ts';
import { isProofShape } from '../owners/tokens.ts';
import { CLAIM_META, mcpHandshake } from '../probe/mcp-handshake.ts';

/** A claim file longer than this is refused unread past it (it holds proofs, one per line). */
export const MAX_CLAIM_FILE_BYTES = 64 * 1024;
export const CLAIM_FILE_PATH = '/.well-known/rollcall-claim.txt';
export const CLAIM_DNS_LABEL = '_rollcall';
/** Where an agent card carries a proof: an entry of capabilities.extensions[] whose params has this key. */
export const CARD_PROOF_PARAM = 'rollcall_claim';

export interface ClaimTarget {
  url: string;
  kind: 'agent' | 'mcp';
}

/** What one read of a place found. */
export interface PlaceRead {
  method: ClaimMethod;
  /** What was fetched or looked up. */
  where: string;
  /** Every proof the place shows (lines of the file, TXT records, card params). */
  proofs: string[];
  /** The place could not be read (no answer, a refused address, an error status). */
  failed: boolean;
  status?: number;
  /** What the read saw, said for a proof that is there ... */
  present: string;
  /** ... and for one that is not. */
  absent: string;
}

export const claimFileUrl = (url: string): string => new URL(CLAIM_FILE_PATH, new URL(url).origin).toString();

/** The DNS name of a listing's TXT proof; undefined for an address literal (it has no name to put a record under). */
export function claimDnsName(url: string): string | undefined {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? undefined : `${CLAIM_DNS_LABEL}.${host}`;
}

/** Where a method's proof is read for a target (the place key of its reads). */
export function placeOf(method: ClaimMethod, target: ClaimTarget): string {
  if (method === 'well_known') return claimFileUrl(target.url);
  if (method === 'dns_txt') return claimDnsName(target.url) ?? target.url;
  return target.url;
}

/** A fetch that failed; a host whose outbound budget ran out is rethrown (the caller decides what that means). */
function fetchFailure(err: unknown): string {
  if (err instanceof OutboundError && err.reason === 'host_budget') throw err;
  return err instanceof OutboundError ? `${err.reason}: ${err.message}` : `the request failed: ${err instanceof Error ? err.message : String(err)}`;
}

const failedRead = (method: ClaimMethod, where: string, detail: string, status?: number): PlaceRead => ({ method, where, proofs: [], failed: true, ...(status !== undefined ? { status } : {}), present: detail, absent: detail });

async function wellKnown(client: Fetcher, target: ClaimTarget): Promise<PlaceRead> {
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
    if (oversized) return failedRead('well_known', where, `the file is larger than ${MAX_CLAIM_FILE_BYTES} bytes: keep it to its proofs, one per line`, res.status);
    if (res.status !== 200) return failedRead('well_known', where, `HTTP ${res.status}: the file must answer 200 with the proof on a line of its own`, res.status);
    const proofs = res
      .text()
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(isProofShape);
    return { method: 'well_known', where, proofs, failed: false, status: 200, present: 'the proof is on a line of the file', absent: 'the file answered, but no line of it is the proof' };
  } catch (err) {
    return failedRead('well_known', where, fetchFailure(err));
  }
}

async function dnsTxt(owners: OwnersRuntime, target: ClaimTarget): Promise<PlaceRead> {
  const name = claimDnsName(target.url);
  if (!name) {
    const why = 'the listing\'s host is an address, which has no DNS name to hold a TXT record: use well_known or card';
    return { method: 'dns_txt', where: target.url, proofs: [], failed: false, present: why, absent: why };
  }
  try {
    const records = (await owners.txt(name)).map((r) => r.trim());
    return { method: 'dns_txt', where: name, proofs: records.filter(isProofShape), failed: false, present: 'a TXT record is the proof', absent: records.length ? `${records.length} TXT record(s), none of them the proof` : 'no TXT record there' };
  } catch (err) {
    return failedRead('dns_txt', name, err instanceof TxtLookupError ? err.message : `the DNS lookup failed: ${String(err)}`);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: untrusted JSON, narrowed field by field where it is read
const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The proofs an agent card carries in its capabilities.extensions[] params. */
function cardProofs(doc: unknown): string[] {
  if (!isObj(doc) || !isObj(doc.capabilities) || !Array.isArray(doc.capabilities.extensions)) return [];
  return doc.capabilities.extensions.flatMap((e: unknown) => (isObj(e) && isObj(e.params) && typeof e.params[CARD_PROOF_PARAM] === 'string' ? [e.params[CARD_PROOF_PARAM] as string] : []));
}

const AGENT_CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'];

async function agentCard(client: Fetcher, target: ClaimTarget): Promise<PlaceRead> {
  const origin = new URL(target.url).origin;
  const candidates = [...new Set([target.url, ...AGENT_CARD_PATHS.map((p) => `${origin}${p}`)])];
  const seen: string[] = [];
  const proofs: string[] = [];
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
      const found = cardProofs(doc);
      proofs.push(...found);
      seen.push(`${where}: a card with ${found.length} proof(s)`);
    } catch (err) {
      seen.push(`${where}: ${fetchFailure(err)}`);
      failures++;
    }
  }
  return {
    method: 'card',
    where: candidates.join(', '),
    proofs,
    failed: failures === candidates.length,
    present: `capabilities.extensions[] carries params.${CARD_PROOF_PARAM}`,
    absent: `no card carries the proof in params.${CARD_PROOF_PARAM} of capabilities.extensions[] (${seen.join('; ')})`,
  };
}

async function mcpCard(client: Fetcher, target: ClaimTarget): Promise<PlaceRead> {
  const hs = await mcpHandshake(client, target.url);
  if (hs.error?.reason === 'host_budget') throw hs.error;
  if (!hs.spokeJsonRpc && !hs.ok) return failedRead('card', target.url, `the MCP handshake did not complete: ${hs.detail ?? 'no answer'}`);
  return {
    method: 'card',
    where: target.url,
    proofs: hs.claim ? [hs.claim] : [],
    failed: false,
    present: `the initialize (or server/discover) result carries _meta["${CLAIM_META}"]`,
    absent: `the server answered without _meta["${CLAIM_META}"] set to the proof`,
  };
}

/** Reads the place of one method for a target. Only a host whose outbound budget ran out throws (OutboundError host_budget). */
export function readPlace(client: Fetcher, owners: OwnersRuntime, method: ClaimMethod, target: ClaimTarget): Promise<PlaceRead> {
  switch (method) {
    case 'well_known':
      return wellKnown(client, target);
    case 'dns_txt':
      return dnsTxt(owners, target);
    case 'card':
      return target.kind === 'agent' ? agentCard(client, target) : mcpCard(client, target);
  }
}
