// What both MCP transports' handshakes share (mcp-handshake.ts for streamable HTTP, sse-handshake.ts
// for HTTP+SSE): what a handshake found, the tool list read page by page, and the tools kept.
import { OutboundError } from '../platform/net/guarded-client.ts';
import type { RpcReply } from './rpc.ts';
import type { Capability, ToolAnnotations } from './score.ts';
import { toolParam } from './param-schema.ts';

export const CLIENT_INFO = { name: 'rollcall-probe', version: '1' };
/** Where an MCP server puts a Rollcall proof of control in its initialize or server/discover result. */
export const CLAIM_META = 'io.rollcall/claim';
export const MAX_TOOL_PAGES = 5;

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
  /** The transport that answered: streamable HTTP, or the legacy HTTP+SSE of 2024-11-05. */
  transport?: 'streamable-http' | 'sse';
  /** Bytes of the tool list as served (`{"tools": [...]}` in JSON), and whether it was cut at the body limit. */
  toolsBytes?: number;
  toolsTruncated?: boolean;
  /** The HTTP status of an answer that was not MCP (a 5xx is a server down, not a server of another kind). */
  httpStatus?: number;
  error?: OutboundError;
  detail?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: untrusted JSON, narrowed field by field where it is read
export const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function authOf(reply: RpcReply): McpHandshake['auth'] | undefined {
  const { status, headers } = reply.http;
  const challenge = headers['www-authenticate'];
  if ((status !== 401 && status !== 403) || !challenge) return undefined;
  const m = /resource_metadata="([^"]+)"/i.exec(challenge);
  return { resourceMetadata: m?.[1] };
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** A tool's annotations: its title and the boolean hints, nothing else. */
function annotationsOf(raw: unknown): ToolAnnotations | undefined {
  if (!isObj(raw)) return undefined;
  const out: ToolAnnotations = {};
  if (typeof raw.title === 'string') out.title = raw.title;
  for (const hint of HINTS) if (typeof raw[hint] === 'boolean') out[hint] = raw[hint];
  return Object.keys(out).length ? out : undefined;
}

/** Tool name, description, annotations, input schema and parameters (each with what its schema says a value must be: param-schema.ts), kept for search, the score, execute_compose and the demo. */
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
      ...(isObj(t.inputSchema) ? { inputSchema: t.inputSchema } : {}),
      ...(annotationsOf(t.annotations) ? { annotations: annotationsOf(t.annotations) } : {}),
      params: Object.entries(props).map(([name, p]) => toolParam(name, p, required.includes(name))),
    };
  });
}

/** The pages of tools/list; a page over the body limit ends the list there, marked truncated. */
export async function listTools(call: (cursor?: string) => Promise<RpcReply>): Promise<ListedTools> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    let reply: RpcReply;
    try {
      reply = await call(cursor);
    } catch (err) {
      if (err instanceof OutboundError && err.reason === 'too_large') return { tools, ok: true, truncated: true };
      throw err;
    }
    const result = reply.message?.result;
    if (!isObj(result) || !Array.isArray(result.tools)) return { tools, ok: false };
    tools.push(...result.tools);
    cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return { tools, ok: true };
}

export interface ListedTools {
  tools: unknown[];
  ok: boolean;
  /** A page was larger than the probe's body limit: the list stops before it. */
  truncated?: boolean;
}

/** A handshake that reached tools/list, in either era: what the server said about itself and its tools. */
export function completed(protocol: string, info: Record<string, unknown>, result: Record<string, unknown>, listed: ListedTools, first: { latencyMs: number | null; endpoint?: string; transport: 'streamable-http' | 'sse' }): McpHandshake {
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
    latencyMs: first.latencyMs,
    endpoint: first.endpoint,
    spokeJsonRpc: true,
    transport: first.transport,
    toolsBytes: Buffer.byteLength(JSON.stringify({ tools: listed.tools })),
    toolsTruncated: listed.truncated === true,
    detail: listed.ok ? undefined : 'tools/list did not answer with a tool list',
  };
}

