// A real MCP handshake against a remote, in either protocol era (DESIGN.md "Probe"):
// 2026-07-28: server/discover + tools/list with the `_meta` envelope and Mcp-Method headers;
// legacy: initialize + notifications/initialized + tools/list, with the session id if one is given;
// then, for a server that answers HTTP but not JSON-RPC, HTTP+SSE (sse-handshake.ts).
import type { Fetcher } from '../platform/net/guarded-client.ts';
import { OutboundError } from '../platform/net/guarded-client.ts';
import { postRpc, type RpcReply } from './rpc.ts';
import { sseHandshake } from './sse-handshake.ts';
import { authOf, CLIENT_INFO, completed, isObj, listTools, type McpHandshake } from './mcp-exchange.ts';

export { CLAIM_META, type McpHandshake } from './mcp-exchange.ts';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];

const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO, 'io.modelcontextprotocol/clientCapabilities': {} };
const modernHeaders = (method: string) => ({ 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method });

/** The first exchange of a streamable HTTP handshake, as `completed` reads it. */
const firstOf = (reply: RpcReply) => ({ latencyMs: reply.http.elapsedMs, endpoint: reply.http.url, transport: 'streamable-http' as const });

async function modern(client: Fetcher, url: string): Promise<McpHandshake | undefined> {
  const discover = await postRpc(client, url, { jsonrpc: '2.0', id: 'rc-discover', method: 'server/discover', params: { _meta: envelope } }, modernHeaders('server/discover'));
  const auth = authOf(discover);
  if (auth) return { ok: false, tools: [], latencyMs: null, spokeJsonRpc: false, auth, detail: 'the server requires authorization' };
  const result = discover.message?.result;
  if (!isObj(result) || !Array.isArray(result.supportedVersions) || !result.supportedVersions.includes(MODERN_VERSION)) return undefined;
  const info = isObj(result._meta) && isObj(result._meta['io.modelcontextprotocol/serverInfo']) ? result._meta['io.modelcontextprotocol/serverInfo'] : {};
  const listed = await listTools((cursor) =>
    postRpc(client, url, { jsonrpc: '2.0', id: 'rc-tools', method: 'tools/list', params: { ...(cursor ? { cursor } : {}), _meta: envelope } }, modernHeaders('tools/list')),
  );
  return completed(MODERN_VERSION, info, result, listed, firstOf(discover));
}

async function legacy(client: Fetcher, url: string): Promise<McpHandshake> {
  const init = await postRpc(client, url, {
    jsonrpc: '2.0',
    id: 'rc-init',
    method: 'initialize',
    params: { protocolVersion: LEGACY_VERSIONS[0], capabilities: {}, clientInfo: CLIENT_INFO },
  });
  const auth = authOf(init);
  if (auth) return { ok: false, tools: [], latencyMs: null, spokeJsonRpc: false, auth, detail: 'the server requires authorization' };
  const result = init.message?.result;
  if (!isObj(result) || typeof result.protocolVersion !== 'string') {
    return {
      ok: false,
      tools: [],
      latencyMs: null,
      spokeJsonRpc: Boolean(init.message),
      httpStatus: init.http.status,
      detail: init.message?.error ? `initialize failed: ${String(init.message.error.message ?? init.message.error.code)}` : `initialize got HTTP ${init.http.status} without a JSON-RPC result`,
    };
  }
  const version = result.protocolVersion;
  const session = init.http.headers['mcp-session-id'];
  const headers: Record<string, string> = { 'mcp-protocol-version': version, ...(session ? { 'mcp-session-id': session } : {}) };
  await postRpc(client, url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  const listed = await listTools((cursor) => postRpc(client, url, { jsonrpc: '2.0', id: 'rc-tools', method: 'tools/list', params: cursor ? { cursor } : {} }, headers));
  // A stateful server keeps the session until told: end it, politely and without waiting on the answer's fate.
  if (session) await client.fetch(url, { method: 'DELETE', headers }).catch(() => undefined);
  const info = isObj(result.serverInfo) ? result.serverInfo : {};
  return completed(version, info, result, listed, firstOf(init));
}

/**
 * Tries the 2026-07-28 era first (a modern-only server refuses initialize), then the legacy one,
 * then, when the server answered HTTP but not JSON-RPC, the HTTP+SSE transport of 2024-11-05.
 */
export async function mcpHandshake(client: Fetcher, url: string): Promise<McpHandshake> {
  let streamable: McpHandshake;
  try {
    streamable = (await modern(client, url)) ?? (await legacy(client, url));
  } catch (err) {
    const error = err instanceof OutboundError ? err : new OutboundError('unreachable', String(err));
    streamable = { ok: false, tools: [], latencyMs: null, spokeJsonRpc: false, error, detail: error.message };
  }
  if (streamable.ok || streamable.auth || streamable.spokeJsonRpc || (streamable.error && streamable.error.reason !== 'too_large')) return streamable;
  const sse = await sseHandshake(client, url);
  return sse.ok || sse.auth || sse.spokeJsonRpc ? sse : streamable;
}
