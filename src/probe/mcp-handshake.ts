// A real MCP handshake against a remote, in either protocol era (DESIGN.md "Probe"):
// 2026-07-28: server/discover + tools/list with the `_meta` envelope and Mcp-Method headers;
// legacy: initialize + notifications/initialized + tools/list, with the session id if one is given.
import type { Fetcher } from '../platform/net/guarded-client.ts';
import { OutboundError } from '../platform/net/guarded-client.ts';
import { postRpc, type RpcReply } from './rpc.ts';
import type { Capability } from './score.ts';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
const CLIENT_INFO = { name: 'rollcall-probe', version: '1' };
/** Where an MCP server puts a Rollcall proof of control in its initialize or server/discover result. */
export const CLAIM_META = 'io.rollcall/claim';
const MAX_TOOL_PAGES = 5;

export interface McpHandshake {
  ok: boolean;
  protocol?: string;
  serverName?: string;
  serverTitle?: string;
  serverVersion?: string;
  serverDescription?: string;
  website?: string;
  instructions?: string;
  /** `_meta["io.rollcall/claim"]` of the first answer: a proof of control the server publishes. */
  claim?: string;
  tools: Capability[];
  latencyMs: number | null;
  /** Where the first exchange really landed, after redirects: the server's endpoint. */
  endpoint?: string;
  /** The server answered with JSON-RPC at all (so a failure is `handshake_failed`, not `not_a_card`). */
  spokeJsonRpc: boolean;
  /** 401/403 with WWW-Authenticate: the RFC 9728 metadata URL when the header names one. */
  auth?: { resourceMetadata?: string };
  error?: OutboundError;
  detail?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: untrusted JSON, narrowed field by field where it is read
const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function authOf(reply: RpcReply): McpHandshake['auth'] | undefined {
  const { status, headers } = reply.http;
  const challenge = headers['www-authenticate'];
  if ((status !== 401 && status !== 403) || !challenge) return undefined;
  const m = /resource_metadata="([^"]+)"/i.exec(challenge);
  return { resourceMetadata: m?.[1] };
}

/** A parameter's JSON Schema type: the type it names, or the first non-null one of a list. */
const schemaType = (type: unknown): string | undefined =>
  typeof type === 'string' ? type : Array.isArray(type) ? type.find((t): t is string => typeof t === 'string' && t !== 'null') : undefined;

/** Tool name, description and parameter docs (with each parameter's type), kept for search, the score and execute_compose. */
export function toolCapabilities(tools: unknown): Capability[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter((t) => isObj(t) && typeof t.name === 'string').map((t) => {
    const schema = isObj(t.inputSchema) ? t.inputSchema : {};
    const props = isObj(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    return {
      name: t.name,
      title: typeof t.title === 'string' ? t.title : undefined,
      description: typeof t.description === 'string' ? t.description : undefined,
      params: Object.entries(props).map(([name, p]) => ({
        name,
        description: isObj(p) && typeof p.description === 'string' ? p.description : undefined,
        required: required.includes(name),
        type: isObj(p) ? schemaType(p.type) : undefined,
      })),
    };
  });
}

const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO, 'io.modelcontextprotocol/clientCapabilities': {} };
const modernHeaders = (method: string) => ({ 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method });

async function listTools(call: (cursor?: string) => Promise<RpcReply>): Promise<{ tools: unknown[]; ok: boolean }> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const reply = await call(cursor);
    const result = reply.message?.result;
    if (!isObj(result) || !Array.isArray(result.tools)) return { tools, ok: false };
    tools.push(...result.tools);
    cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return { tools, ok: true };
}

/** A handshake that reached tools/list, in either era: what the server said about itself and its tools. */
function completed(protocol: string, info: Record<string, unknown>, result: Record<string, unknown>, listed: { tools: unknown[]; ok: boolean }, first: RpcReply): McpHandshake {
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    ok: listed.ok,
    protocol,
    serverName: text(info.name),
    serverTitle: text(info.title),
    serverVersion: text(info.version),
    serverDescription: text(info.description),
    website: text(info.websiteUrl),
    instructions: text(result.instructions),
    claim: isObj(result._meta) ? text(result._meta[CLAIM_META]) : undefined,
    tools: toolCapabilities(listed.tools),
    latencyMs: first.http.elapsedMs,
    endpoint: first.http.url,
    spokeJsonRpc: true,
    detail: listed.ok ? undefined : 'tools/list did not answer with a tool list',
  };
}

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
  return completed(MODERN_VERSION, info, result, listed, discover);
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
  return completed(version, info, result, listed, init);
}

/** Tries the 2026-07-28 era first (a modern-only server refuses initialize), then the legacy one. */
export async function mcpHandshake(client: Fetcher, url: string): Promise<McpHandshake> {
  try {
    return (await modern(client, url)) ?? (await legacy(client, url));
  } catch (err) {
    const error = err instanceof OutboundError ? err : new OutboundError('unreachable', String(err));
    return { ok: false, tools: [], latencyMs: null, spokeJsonRpc: false, error, detail: error.message };
  }
}
