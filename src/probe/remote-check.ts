// One catalog remote's health check, the network half only: a real MCP handshake by the transport
// the entry names, through a guarded client, turned into findings. It writes nothing and knows no
// database, so it runs where the checks' network waits do not hold up the service's event loop
// (the check thread: off-thread.ts); catalog-check.ts schedules the checks and records them.
import { OutboundError, type Fetcher } from '../platform/net/guarded-client.ts';
import type { CheckFindings, RemoteStatus } from '../catalog/checks-store.ts';
import { mcpHandshake } from './mcp-handshake.ts';
import { sseHandshake } from './sse-handshake.ts';
import { readServerCard } from './server-card-read.ts';
import type { McpHandshake } from './mcp-exchange.ts';

/** What a check is told of its remote. */
export interface RemoteToCheck {
  url: string;
  transport: string;
}

/** A handshake's outcome as a status; undefined when the host's budget stopped it (checked later, not failed). */
function findingsOf(h: McpHandshake): CheckFindings | undefined {
  if (h.error?.reason === 'host_budget') return undefined;
  const status: RemoteStatus = h.ok
    ? 'live'
    : h.auth
      ? 'auth_required'
      : h.error?.reason === 'blocked_address' || h.error?.reason === 'invalid_url'
        ? 'refused'
        : h.error || (h.httpStatus !== undefined && h.httpStatus >= 500)
          ? 'dead'
          : 'not_mcp';
  return {
    status,
    latencyMs: h.ok ? h.latencyMs : null,
    protocol: h.protocol ?? null,
    transport: h.ok ? (h.transport ?? null) : null,
    serverName: h.serverName ?? null,
    serverVersion: h.serverVersion ?? null,
    tools: h.ok ? h.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), params: t.params })) : null,
    toolsBytes: h.ok ? (h.toolsBytes ?? null) : null,
    toolsTruncated: h.toolsTruncated === true,
    authMetadata: h.auth?.resourceMetadata ?? null,
    detail: h.ok ? null : (h.detail ?? h.error?.message ?? null),
  };
}

/**
 * One remote's check, by the transport its entry names (an `sse` remote is asked over SSE first); a
 * live Streamable HTTP remote's server card is read after it. Undefined when the host's budget
 * stopped it (the remote waits for the host's next hour; it did not fail); a refusal of the guarded
 * client (an address it will not reach, a timeout) is a finding like any other.
 */
export async function checkRemote(client: Fetcher, row: RemoteToCheck): Promise<CheckFindings | undefined> {
  try {
    if (row.transport === 'sse') {
      const sse = await sseHandshake(client, row.url);
      if (sse.ok || sse.auth || sse.error || sse.spokeJsonRpc) return findingsOf(sse);
    }
    const found = findingsOf(await mcpHandshake(client, row.url));
    if (found?.status !== 'live') return found;
    const card = await readServerCard(client, row.url);
    return card === undefined ? found : { ...found, serverCard: card };
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    return findingsOf({ ok: false, tools: [], latencyMs: null, spokeJsonRpc: false, error: err });
  }
}
