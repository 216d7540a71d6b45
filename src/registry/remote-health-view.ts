// A catalog remote's health as the registry API and search show it: what its last check found
// (catalog/checks-store.ts), or why it is not checked; and an entry's status from its remotes'.
import type { Executor } from '../platform/db/executor.ts';
import { checksByKey, type CheckSummary } from '../catalog/checks-store.ts';
import { remotesOf, type RemoteOfEntry } from '../catalog/remote-health.ts';
import { contextCost, type ContextCost } from '../catalog/context-cost.ts';

/** Every status an entry or a remote may show. */
export type HealthStatus = 'live' | 'auth_required' | 'dead' | 'not_mcp' | 'refused' | 'unchecked' | 'not_checkable' | 'not_remote';

export interface RemoteHealth {
  url: string;
  type: RemoteOfEntry['type'];
  status: HealthStatus;
  not_checkable_reason?: RemoteOfEntry['notCheckable'];
  last_verified: string | null;
  next_check_at: string | null;
  latency_ms: number | null;
  protocol_version: string | null;
  transport: string | null;
  server_info: { name: string | null; version: string | null } | null;
  /** The tool list's size: bytes as served, tokens estimated as bytes / 4. */
  tools: ContextCost | null;
  auth_metadata_url: string | null;
  /** What the remote's own server card (`<remote>/server-card`) says: name, title, version, description, website, repository. */
  server_card: Record<string, string> | null;
}

const cardOf = (json: string | null | undefined): Record<string, string> | null => {
  if (!json) return null;
  try {
    return JSON.parse(json) as Record<string, string>;
  } catch {
    return null;
  }
};

export function remoteHealth(remote: RemoteOfEntry, check: CheckSummary | undefined): RemoteHealth {
  const base = { url: remote.url, type: remote.type };
  if (remote.notCheckable) {
    return { ...base, status: 'not_checkable', not_checkable_reason: remote.notCheckable, last_verified: null, next_check_at: null, latency_ms: null, protocol_version: null, transport: null, server_info: null, tools: null, auth_metadata_url: null, server_card: null };
  }
  return {
    ...base,
    status: check?.status ?? 'unchecked',
    last_verified: check?.last_verified ?? null,
    next_check_at: check?.next_check_at ?? null,
    latency_ms: check?.latency_ms ?? null,
    protocol_version: check?.protocol ?? null,
    transport: check?.answered_transport ?? null,
    server_info: check?.server_name || check?.server_version ? { name: check.server_name, version: check.server_version } : null,
    tools:
      check?.tool_count !== null && check?.tool_count !== undefined
        ? contextCost(check.tool_count, check.tools_bytes, check.tools_truncated === 1)
        : null,
    auth_metadata_url: check?.auth_metadata ?? null,
    server_card: cardOf(check?.server_card),
  };
}

/** Best first: an entry is as healthy as its healthiest remote. */
const ORDER: HealthStatus[] = ['live', 'auth_required', 'unchecked', 'not_mcp', 'dead', 'refused', 'not_checkable'];

/** An entry's status (its best remote's; `not_remote` without remotes) and its remotes' health. */
export function entryHealth(remotes: RemoteHealth[]): { status: HealthStatus; remotes: RemoteHealth[] } {
  const status = remotes.length ? ORDER.find((s) => remotes.some((r) => r.status === s)) ?? 'unchecked' : 'not_remote';
  return { status, remotes };
}

/** The measured health of each of these server.json, in their order: one read of their remotes' checks. */
export async function measuredHealth(ex: Executor, servers: Record<string, unknown>[]): Promise<ReturnType<typeof entryHealth>[]> {
  const remotes = servers.map(remotesOf);
  const checks = await checksByKey(ex, remotes.flat().flatMap((r) => (r.key ? [r.key] : [])));
  return remotes.map((of) => entryHealth(of.map((r) => remoteHealth(r, r.key ? checks.get(r.key) : undefined))));
}
