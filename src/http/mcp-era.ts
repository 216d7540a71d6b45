// Which protocol era a POST to the MCP endpoint speaks (DESIGN.md "MCP endpoint": one dual-era
// server). A request whose params carry the 2026-07-28 `_meta` envelope is modern; one without it
// is legacy (2025-03-26 .. 2025-11-25), and `initialize` without a modern envelope is always the
// legacy handshake. Modern requests must agree with their standard headers (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name); a disagreement is -32020 on HTTP 400, a version we do not serve -32022.
import { isLogLevel, LOG_LEVELS } from '../platform/client-log.ts';

export const MODERN_VERSION = '2026-07-28';
/** Newest first; the first is what initialize answers to a version it does not know. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export const SUPPORTED_VERSIONS = [MODERN_VERSION, ...LEGACY_VERSIONS] as const;

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  /** The least severe log level the client wants for this request; without it, the request is sent no log message. */
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The methods the MCP door serves, both eras (server/discover is modern, initialize and ping legacy). */
export const SERVED_METHODS = ['server/discover', 'initialize', 'notifications/initialized', 'ping', 'tools/list', 'tools/call', 'prompts/list', 'resources/list', 'resources/templates/list'] as const;

/**
 * MCP methods the door does not serve but an MCP client may still send: they belong to the MCP
 * door all the same, so the client reads an MCP answer (-32601, or 404 in the modern era).
 * MCP's own task methods (tasks/*) are left out: their names are A2A's too, and this server
 * declares no MCP task support, so an MCP client never sends them here.
 */
const UNSERVED_METHODS = new Set(['completion/complete', 'logging/setLevel', 'prompts/get', 'resources/read', 'resources/subscribe', 'resources/unsubscribe']);
const SERVED = new Set<string>(SERVED_METHODS);

/** Whether a JSON-RPC method name is MCP's (A2A shares none of these names). */
export const isMcpMethod = (method: string) => SERVED.has(method) || UNSERVED_METHODS.has(method) || method.startsWith('notifications/');

export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_VERSION = -32022;

export type Id = string | number;

export interface Rejection {
  status: number;
  code: number;
  message: string;
  data?: unknown;
}

export type Classified = { era: 'legacy' } | { era: 'modern'; kind: 'request' | 'notification'; method: string; params: Record<string, unknown> } | { era: 'reject'; rejection: Rejection };

export interface StandardHeaders {
  protocolVersion?: string;
  method?: string;
  name?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Versions compare as dates: everything from 2026-07-28 on belongs to the modern era. */
const isModern = (version: string) => version >= MODERN_VERSION;

const reject = (status: number, code: number, message: string, data?: unknown): Classified => ({ era: 'reject', rejection: { status, code, message, ...(data !== undefined ? { data } : {}) } });
const mismatch = (header: string, body: string): Classified =>
  reject(400, HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${body}`, { mismatch: { header, body } });

function metaOf(params: unknown): Record<string, unknown> | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/** What is wrong with a modern envelope, first problem first (clientInfo and logLevel are optional). */
function envelopeProblem(meta: Record<string, unknown>): { key: string; problem: string } | undefined {
  for (const key of [META.protocolVersion, META.clientCapabilities]) if (!(key in meta)) return { key, problem: 'missing' };
  if (typeof meta[META.protocolVersion] !== 'string') return { key: META.protocolVersion, problem: 'expected a protocol version string' };
  if (!isObject(meta[META.clientCapabilities])) return { key: META.clientCapabilities, problem: 'expected an object' };
  const info = meta[META.clientInfo];
  if (info !== undefined && !(isObject(info) && typeof info.name === 'string' && typeof info.version === 'string')) {
    return { key: META.clientInfo, problem: 'expected {name, version} strings' };
  }
  if (META.logLevel in meta && !isLogLevel(meta[META.logLevel])) return { key: META.logLevel, problem: `expected one of ${LOG_LEVELS.join(', ')}` };
  return undefined;
}

/** Mcp-Name may carry `=?base64?<value>?=` for names that are not plain header text. */
export function decodeMcpName(raw: string): string | undefined {
  const m = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/i.exec(raw);
  if (!m) return raw;
  const b64 = m[1]!;
  const decoded = Buffer.from(b64, 'base64');
  // Node decodes leniently: a value that does not round-trip was not valid Base64.
  return decoded.toString('base64').replace(/=+$/, '') === b64.replace(/=+$/, '') ? decoded.toString('utf8') : undefined;
}

/** A single header's value, trimmed; absent (or repeated) counts as unset. */
const trimmedHeader = (v: string | string[] | undefined) => (typeof v === 'string' ? v.trim() : undefined);

/**
 * Headers are matched after trimming optional whitespace (RFC 9110). No closure is made per call:
 * under tsx every named closure costs a defineProperty (its `name`), which the profile of a modern
 * tools/call showed at about 2% of the door's CPU here.
 */
export function standardHeaders(headers: Record<string, string | string[] | undefined>): StandardHeaders {
  return { protocolVersion: trimmedHeader(headers['mcp-protocol-version']), method: trimmedHeader(headers['mcp-method']), name: trimmedHeader(headers['mcp-name']) };
}

/** Classifies one JSON-RPC message (not a batch) sent with these headers. */
export function classifyMessage(body: unknown, headers: StandardHeaders): Classified {
  // Shape errors (no method, a bad id or version) are answered by the legacy rules: -32600 on 400.
  if (!isObject(body) || typeof body.method !== 'string' || body.jsonrpc !== '2.0') return { era: 'legacy' };
  if ('id' in body && echoableId(body) === null) return { era: 'legacy' };
  const method = body.method;
  const params = body.params;
  const isRequest = 'id' in body;
  const meta = metaOf(params);
  const claims = meta !== undefined && META.protocolVersion in meta;
  const headerModern = headers.protocolVersion !== undefined && isModern(headers.protocolVersion);

  if (!claims) {
    if (method === 'initialize' && isRequest) {
      return headerModern ? mismatch(headers.protocolVersion!, 'an initialize request (legacy handshake) was sent with a modern MCP-Protocol-Version header') : { era: 'legacy' };
    }
    if (!headerModern) return { era: 'legacy' };
    if (!isRequest) return { era: 'modern', kind: 'notification', method, params: isObject(params) ? params : {} };
    return reject(400, -32602, `Invalid params: the MCP-Protocol-Version header names ${headers.protocolVersion}, but the request has no _meta envelope (${META.protocolVersion}, ${META.clientCapabilities})`, {
      envelope: { missing: ['_meta'] },
    });
  }

  const problem = isRequest ? envelopeProblem(meta) : typeof meta[META.protocolVersion] === 'string' ? undefined : { key: META.protocolVersion, problem: 'expected a protocol version string' };
  if (problem) return reject(400, -32602, `Invalid _meta envelope for protocol revision ${MODERN_VERSION}: ${problem.key}: ${problem.problem}`, { envelope: problem });
  const claimed = meta[META.protocolVersion] as string;
  if (headers.protocolVersion !== undefined && headers.protocolVersion !== claimed) {
    return mismatch(headers.protocolVersion, `the body envelope names protocol version ${claimed} but the MCP-Protocol-Version header names ${headers.protocolVersion}`);
  }
  if (headers.method !== undefined && headers.method !== method) return mismatch(headers.method, `the body names method ${method} but the Mcp-Method header names ${headers.method}`);
  // An envelope naming a 2025 revision is a legacy request that carried metadata: serve it as legacy.
  if (!isModern(claimed)) return { era: 'legacy' };
  if (claimed !== MODERN_VERSION) {
    return reject(400, UNSUPPORTED_VERSION, `Unsupported protocol version: ${claimed}`, { supported: [...SUPPORTED_VERSIONS], requested: claimed });
  }
  if (!isRequest) return { era: 'modern', kind: 'notification', method, params: params as Record<string, unknown> };
  // The standard headers every modern request carries (they let proxies route without the body).
  if (headers.protocolVersion === undefined) return mismatch('(missing)', `the body envelope names protocol version ${claimed} but the required MCP-Protocol-Version header is absent`);
  if (headers.method === undefined) return mismatch('(missing)', `the body names method ${method} but the required Mcp-Method header is absent`);
  if (method === 'tools/call' && isObject(params) && typeof params.name === 'string') {
    if (headers.name === undefined) return mismatch('(missing)', `the body carries params.name="${params.name}" but the required Mcp-Name header is absent`);
    const decoded = decodeMcpName(headers.name);
    if (decoded === undefined) return mismatch(headers.name, 'the Mcp-Name header carries an invalid Base64 sentinel value');
    if (decoded !== params.name) return mismatch(headers.name, `the body carries params.name="${params.name}" but the Mcp-Name header names "${decoded}"`);
  }
  return { era: 'modern', kind: 'request', method, params: params as Record<string, unknown> };
}

/** Whether any message of a batch carries a modern envelope (batches are a legacy feature). */
export const batchHasModernMessage = (batch: unknown[]) => batch.some((m) => isObject(m) && metaOf(m.params) !== undefined && META.protocolVersion in metaOf(m.params)!);

/** The id an error answer echoes: the request's own when it could be read, else null. */
export function echoableId(body: unknown): Id | null {
  if (!isObject(body) || typeof body.method !== 'string') return null;
  return typeof body.id === 'string' || (typeof body.id === 'number' && Number.isFinite(body.id)) ? body.id : null;
}
