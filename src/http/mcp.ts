// The MCP door (SPEC.md 4.2, 9; DESIGN.md "MCP endpoint"): a stateless JSON-RPC 2.0 dispatcher
// over the operation catalog, serving both protocol eras side by side (mcp-era.ts decides which a
// request speaks). Legacy: initialize negotiates, notifications get 202, ping answers, batches
// where 2025-03-26 allows them. Modern (2026-07-28): server/discover, the `_meta` envelope and the
// standard headers, `resultType` on every result, cache hints on tools/list, 404 for removed methods,
// the client capabilities each request declares (a tool that needs one more is -32021 on HTTP 400),
// and log messages only at or above the level a request asks for, on its own SSE response stream.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.ts';
import { countToolCall, runOperation, type AnyOperation, type BaseServices } from '../platform/operation.ts';
import { dealObject } from '../funnel/deal.ts';
import { requestCtx } from './context.ts';
import { toAppError } from './errors.ts';
import { dbFailure } from '../platform/db/failures.ts';
import { encodeJson, x402Of, X402_HEADERS } from '../metering/x402-shapes.ts';
import { hostAllowed, originAllowed } from './origin.ts';
import { buildToolList } from './mcp-tools.ts';
import { FIRST_TOOLSET, findToolsOperation, withEndpoints, TOOLSET_NAMES, TOOLSET_PURPOSE, toolsetLinks, toolsetOf, toolsetOperations, toolsetPath, type ToolsetName } from './mcp-toolsets.ts';
import { AnswerCache, matchesEtag } from './response-cache.ts';
import { latestChange } from '../platform/db/changes.ts';
import { restRoutes } from './rest.ts';
import { limitHeaders, type LimitState, type RequestKind, type RequestLimits } from './rate-limit.ts';
import { serverCard } from './discovery/server-card.ts';
import { isLogLevel, type ClientLog } from '../platform/client-log.ts';
import type { ClientCapabilities } from '../platform/operation.ts';
import { MISSING_CLIENT_CAPABILITY, missingCapabilities, missingCapabilityError } from './mcp-client-capabilities.ts';
import { DIAGNOSTIC_TOOLS, type DiagnosticTool } from './mcp-diagnostics.ts';
import {
  batchHasModernMessage,
  classifyMessage,
  echoableId,
  LEGACY_VERSIONS,
  META,
  MODERN_VERSION,
  SERVED_METHODS,
  standardHeaders,
  SUPPORTED_VERSIONS,
  type Id,
  type Rejection,
} from './mcp-era.ts';

export { buildToolList } from './mcp-tools.ts';
export const MCP_PATHS = ['/api/mcp', '/mcp', '/api/protocol'] as const;
/** Kept for callers of the legacy-era list (the prober, tests). */
export const LEGACY_PROTOCOL_VERSIONS = LEGACY_VERSIONS;
export const MCP_SERVER_VERSION = '3.12.0';
const BATCH_VERSIONS = new Set(['2025-03-26']);
/** A message past the per-address rate limit (its own answer in a batch; with HTTP 429 alone). */
export const RATE_LIMITED = -32029;
/** A batch message whose answer would pass MCP_BATCH_MAX_BYTES. */
export const ANSWER_TOO_LARGE = -32028;
/** tools/list is computed at start and changes only with a deployment: clients may cache it. */
const TOOLS_TTL_MS = 300_000;

type JsonRpcResponse = { jsonrpc: '2.0'; id: Id | null; result: unknown } | { jsonrpc: '2.0'; id: Id | null; error: { code: number; message: string; data?: unknown } };

const rpcError = (id: Id | null, code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});

/**
 * How to answer a POST, from its Accept header: JSON when it accepts JSON (or says nothing, as a
 * plain curl does), an SSE stream when it accepts only that, nothing when it accepts neither.
 */
export function responseMode(accept: string | undefined): 'json' | 'sse' | 'none' {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = acceptedRanges(accept);
  if (ranges.some((r) => r === 'application/json' || r === 'application/*' || r === '*/*')) return 'json';
  if (acceptsStream(ranges)) return 'sse';
  return 'none';
}

/** The media ranges an Accept header accepts (those with q=0 refuse). */
const acceptedRanges = (accept: string) =>
  accept
    .split(',')
    .map((part) => part.split(';'))
    .filter((params) => !params.slice(1).some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
    .map((params) => params[0]!.trim().toLowerCase());
const acceptsStream = (ranges: string[]) => ranges.some((r) => r === 'text/event-stream' || r === 'text/*' || r === '*/*');

/** Whether a client takes an SSE response stream (a 2026-07-28 client accepts both it and JSON). */
export const acceptsEventStream = (accept: string | undefined) => accept !== undefined && acceptsStream(acceptedRanges(accept));

/**
 * Clients send the same few Accept headers on every request, and parsing one took a tenth of a
 * ping's time in the door: each short value is parsed once (bounded, so varied values cannot grow it).
 */
const modeByAccept = new Map<string, ReturnType<typeof responseMode>>();
function acceptMode(accept: string | undefined): ReturnType<typeof responseMode> {
  if (accept === undefined || accept.length > 200) return responseMode(accept);
  let mode = modeByAccept.get(accept);
  if (mode === undefined) {
    mode = responseMode(accept);
    if (modeByAccept.size >= 256) modeByAccept.clear();
    modeByAccept.set(accept, mode);
  }
  return mode;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * What initialize answers as the server's capabilities (a Server Card does not carry them: a client learns them here).
 * Tools are the product; prompts and resources are declared so their (empty) lists are honoured.
 */
export const CAPABILITIES = { tools: { listChanged: false }, prompts: { listChanged: false }, resources: { listChanged: false } };
const INSTRUCTIONS =
  'Rollcall lists A2A agents and MCP servers after probing them for real. Call list_yourself with your card or server URL, then check_status until lane is active.';

/** Every MCP endpoint: the full one (and its aliases) and one per toolset (mcp-toolsets.ts). */
export const MCP_ENDPOINT_PATHS: readonly string[] = [...MCP_PATHS, ...TOOLSET_NAMES.map(toolsetPath)];

/**
 * The MCP door: `/api/mcp` (and its aliases) with every tool, and one complete MCP server per
 * toolset at `/api/mcp/<toolset>`, each with its own tools/list; find_tools is on all of them.
 */
export function registerMcp(app: FastifyInstance, services: BaseServices, catalog: readonly AnyOperation[], limits: RequestLimits): McpPost {
  const findTools = findToolsOperation(catalog, services.config.publicBaseUrl);
  const diagnostics = services.config.mcpConformanceTools ? DIAGNOSTIC_TOOLS : [];
  const everyTool = serveEndpoint(app, services, [...catalog, findTools], limits, { paths: MCP_PATHS, diagnostics });
  for (const toolset of TOOLSET_NAMES) serveEndpoint(app, services, [...toolsetOperations(catalog, toolset), findTools], limits, { paths: [toolsetPath(toolset)], toolset });
  return everyTool;
}

/**
 * The POST handler of `/api/mcp` (every tool): another door that also answers MCP (the A2A door,
 * for the server card's `/api/a2a` remote) hands it the request, so that endpoint answers exactly
 * as `/api/mcp` does, with the same limits and checks.
 */
export type McpPost = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * A GET asking for an SSE stream: this stateless server opens none, and MCP clients read 405 as
 * "no stream here" (any other answer, they would try to read as one). Undefined for other GETs.
 */
export function refuseEventStream(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  if (!String(request.headers.accept ?? '').includes('text/event-stream')) return undefined;
  return reply.code(405).header('allow', 'POST').send(rpcError(null, -32000, 'Method not allowed: this stateless server offers no SSE stream'));
}

interface Endpoint {
  /** The endpoint's path, then its aliases. */
  paths: readonly string[];
  /** Set on a toolset's endpoint. */
  toolset?: ToolsetName;
  /** The conformance suite's diagnostic tools (MCP_CONFORMANCE_TOOLS=1), served to 2026-07-28 requests only. */
  diagnostics?: readonly DiagnosticTool[];
}

/** What a 2026-07-28 request's envelope says of its client; a legacy request has none. */
interface ModernClient {
  /** `io.modelcontextprotocol/clientCapabilities`, as declared. */
  capabilities: unknown;
  /** Open when the request named `io.modelcontextprotocol/logLevel`: the messages for it collect here. */
  log?: ClientLog;
}

/** A 2026-07-28 request's client, from the envelope classifyMessage has checked. */
function modernClient(params: Record<string, unknown>): ModernClient {
  const meta = isObject(params._meta) ? params._meta : {};
  const level = meta[META.logLevel];
  return { capabilities: meta[META.clientCapabilities], ...(isLogLevel(level) ? { log: { level, messages: [] } } : {}) };
}

/** Refuses a call that needs client capabilities the request did not declare (-32021; HTTP 400 in the 2026-07-28 era). */
function capabilityRefusal(id: Id, missing: ClientCapabilities, what: string): JsonRpcResponse {
  const { code, message, data } = missingCapabilityError(missing, what);
  return rpcError(id, code, message, data);
}

/** An SSE response stream's headers: proxies are asked not to buffer it. */
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

function serveEndpoint(app: FastifyInstance, services: BaseServices, catalog: readonly AnyOperation[], limits: RequestLimits, endpoint: Endpoint): McpPost {
  const tools = buildToolList(catalog);
  const diagnostics = new Map((endpoint.diagnostics ?? []).map((d) => [d.entry.name, d]));
  /** tools/list of the 2026-07-28 era: the catalog's tools, then the diagnostic tools when served. */
  const modernTools = diagnostics.size > 0 ? [...tools.list, ...[...diagnostics.values()].map((d) => d.entry)] : tools.list;
  /** server/discover's capabilities: `logging` too where a tool of this endpoint sends its caller log messages. */
  const modernCapabilities = catalog.some((op) => op.clientLogs) || [...diagnostics.values()].some((d) => d.clientLogs) ? { ...CAPABILITIES, logging: {} } : CAPABILITIES;
  const { mcpBatchMax, mcpBatchMaxBytes } = services.config;
  const base = services.config.publicBaseUrl;
  const toolset = endpoint.toolset;
  const serverInfo = { name: toolset ? `rollcall-${toolset}` : 'rollcall', title: toolset ? `Rollcall registry: ${toolset} tools` : 'Rollcall registry', version: MCP_SERVER_VERSION, websiteUrl: base };
  const instructions = toolset
    ? `${INSTRUCTIONS} This endpoint serves the ${toolset} toolset (${TOOLSET_PURPOSE[toolset]}); find_tools says which endpoint serves any other need, and ${base}${MCP_PATHS[0]} serves every tool.`
    : `${INSTRUCTIONS} Every tool is here; ${base}${toolsetPath(FIRST_TOOLSET)} and the other toolset endpoints serve smaller sets (find_tools names them).`;

  /** Each successful tool result's JSON, so an answer is serialized once (see toJson); weak: forgotten with the answer. */
  const resultJson = new WeakMap<object, string>();
  /**
   * Cached results' JSON as bytes instead (see toBody): a poll answered from the cache copies them
   * rather than measuring and encoding about 10 KB of text again per answer.
   */
  const resultBytes = new WeakMap<object, Buffer>();
  const serialized = (result: object): string | undefined => resultJson.get(result) ?? resultBytes.get(result)?.toString('utf8');
  /** Results of cacheable tools (Operation.cacheMs), per era and arguments; their JSON is in resultBytes. */
  const cachedResults = new AnswerCache<object>();

  /**
   * A successful tool result. Its text content repeats structuredContent as JSON (TOOLS.md), so the
   * result is serialized once and its answer text assembled from that one serialization.
   */
  function toolResult(structured: unknown, meta: Record<string, unknown>, modern: boolean): Record<string, unknown> {
    const text = JSON.stringify(structured);
    const withMeta = Object.keys(meta).length > 0;
    const result = {
      content: [{ type: 'text', text }],
      structuredContent: structured,
      ...(withMeta ? { _meta: meta } : {}),
      ...(modern ? { resultType: 'complete' } : {}),
    };
    if (typeof text === 'string') {
      const tail = `${withMeta ? `,"_meta":${JSON.stringify(meta)}` : ''}${modern ? ',"resultType":"complete"' : ''}`;
      resultJson.set(result, `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}${tail}}`);
    }
    return result;
  }

  /**
   * One tool call; a tool that runs and fails is a result a model can read and correct, not a
   * protocol error. x402 (its MCP transport): a payment may come in `_meta["x402/payment"]` as well
   * as in the HTTP headers; a 402 carries the offer as `x402/error` in the result, and the x402
   * headers (PAYMENT-REQUIRED, PAYMENT-RESPONSE) go on the HTTP response through `headers`.
   * A cacheable tool's result is answered again while the change feed stands still (Operation.cacheMs).
   * A tool that needs client capabilities (Operation.clientCapabilities) runs only for a request that
   * declares them: a legacy request declares none (this stateless server keeps nothing of initialize).
   */
  async function callTool(request: FastifyRequest, id: Id, params: unknown, headers: Record<string, string>, client: ModernClient | undefined): Promise<JsonRpcResponse> {
    if (!isObject(params) || typeof params.name !== 'string') return rpcError(id, -32602, 'params.name (the tool name) is required');
    const modern = client !== undefined;
    const diagnostic = modern ? diagnostics.get(params.name) : undefined;
    if (diagnostic) return diagnosticCall(request, id, diagnostic, params, client!);
    const op = tools.byName.get(params.name);
    if (!op) {
      // A tool of another toolset: say where it is served.
      const home = toolsetOf(params.name);
      if (home) return rpcError(id, -32602, `${params.name} is not served at this endpoint: it is in the ${home} toolset, at ${base}${toolsetPath(home)} (and at ${base}${MCP_PATHS[0]})`, { endpoint: `${base}${toolsetPath(home)}`, toolset: home });
      return rpcError(id, -32602, `Unknown tool: ${params.name}`, { tools: tools.list.map((t) => t.name) });
    }
    const args = params.arguments ?? {};
    if (!isObject(args)) return rpcError(id, -32602, 'params.arguments must be an object');
    const missing = op.clientCapabilities && missingCapabilities(op.clientCapabilities, client?.capabilities);
    if (missing) return capabilityRefusal(id, missing, params.name);
    // A tool that logs to its caller is never answered from the cache, which keeps no log messages.
    const maxAgeMs = op.clientLogs ? 0 : (op.cacheMs?.(services.config) ?? 0);
    const cacheKey = maxAgeMs > 0 ? `${op.name} ${modern ? 'modern' : 'legacy'} ${JSON.stringify(args)}` : undefined;
    try {
      const version = cacheKey ? await latestChange(services.db.kysely) : 0;
      const now = services.clock.now().getTime();
      const hit = cacheKey ? cachedResults.get(cacheKey, version, now) : undefined;
      if (hit) {
        countToolCall(services.usage, op.name);
        return { jsonrpc: '2.0', id, result: hit };
      }
      const ctx = requestCtx(services, request);
      if (client?.log && ctx.response) ctx.response.log = client.log;
      const metaPayment = isObject(params._meta) ? params._meta['x402/payment'] : undefined;
      if (isObject(metaPayment)) ctx.payment = encodeJson(metaPayment);
      else if (typeof metaPayment === 'string' && metaPayment.trim() !== '') ctx.payment = metaPayment.trim();
      const answer = await runOperation(op, ctx, args, 'mcp');
      // A toolset's endpoint says where each suggested call of another toolset is served.
      const structured = toolset ? withEndpoints(answer, toolset, base) : answer;
      const extras = ctx.response ?? { headers: {}, meta: {} };
      Object.assign(headers, extras.headers);
      const result = toolResult(structured, extras.meta, modern);
      const json = resultJson.get(result);
      if (cacheKey && json !== undefined && Object.keys(extras.headers).length === 0) {
        const bytes = Buffer.from(json);
        resultBytes.set(result, bytes);
        resultJson.delete(result);
        cachedResults.set(cacheKey, version, now, maxAgeMs, result, bytes.length + cacheKey.length);
      }
      return { jsonrpc: '2.0', id, result };
    } catch (err) {
      // The database could not answer: the whole POST answers 503 (the scope's error handler), not this one call.
      if (dbFailure(err)) throw err;
      if (!(err instanceof AppError)) {
        request.log.error({ err, tool: params.name }, 'tool failed');
        return rpcError(id, -32603, 'Internal error', { request_id: request.id });
      }
      for (const name of X402_HEADERS) if (err.headers[name]) headers[name] = err.headers[name];
      const x402 = x402Of(err);
      const offer = x402 ? { 'x402/error': { code: 402, message: err.message, data: x402.v2 ?? x402.v1 } } : {};
      const body = { ok: false, error: err.toBody(), request_id: request.id, ...offer };
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true, ...(modern ? { resultType: 'complete' } : {}) } };
    }
  }

  /**
   * A call of a diagnostic tool (mcp-diagnostics.ts), under the rules of every tool: the client
   * capabilities it needs, the log level asked for. Input it asks of the client travels inside its
   * result (InputRequiredResult), and only of kinds the request declared.
   */
  function diagnosticCall(request: FastifyRequest, id: Id, tool: DiagnosticTool, params: Record<string, unknown>, client: ModernClient): JsonRpcResponse {
    const missing = tool.clientCapabilities && missingCapabilities(tool.clientCapabilities, client.capabilities);
    if (missing) return capabilityRefusal(id, missing, tool.entry.name);
    const ctx = requestCtx(services, request);
    if (client.log && ctx.response) ctx.response.log = client.log;
    countToolCall(services.usage, tool.entry.name);
    const result = tool.run(ctx, params);
    // Input asked inside the result is of the kinds the tool's clientCapabilities name, checked above.
    if (result.resultType !== 'input_required') return { jsonrpc: '2.0', id, result: { ...result, resultType: 'complete' } };
    return { jsonrpc: '2.0', id, result };
  }

  /** A legacy-era message (2025-03-26 .. 2025-11-25); null for a notification. */
  async function legacyMessage(request: FastifyRequest, msg: unknown, headers: Record<string, string>): Promise<JsonRpcResponse | null> {
    if (!isObject(msg)) return rpcError(null, -32600, 'Invalid Request: expected a JSON-RPC 2.0 object');
    const hasId = 'id' in msg;
    const id = msg.id;
    const validId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    if (msg.jsonrpc !== '2.0' || typeof msg.method !== 'string' || (hasId && !validId)) {
      return rpcError(validId ? (id as Id) : null, -32600, 'Invalid Request: needs jsonrpc "2.0", a string method and a string or number id');
    }
    if (!hasId) return null; // a notification: accepted, never answered
    const rid = id as Id;
    switch (msg.method) {
      case 'initialize': {
        const params = msg.params;
        if (!isObject(params) || typeof params.protocolVersion !== 'string') return rpcError(rid, -32602, 'params.protocolVersion is required');
        const asked = params.protocolVersion;
        const protocolVersion = (LEGACY_VERSIONS as readonly string[]).includes(asked) ? asked : LEGACY_VERSIONS[0];
        return { jsonrpc: '2.0', id: rid, result: { protocolVersion, capabilities: CAPABILITIES, serverInfo, instructions } };
      }
      case 'ping':
        return { jsonrpc: '2.0', id: rid, result: {} };
      case 'tools/list':
        return { jsonrpc: '2.0', id: rid, result: { tools: tools.list } };
      case 'prompts/list':
        return { jsonrpc: '2.0', id: rid, result: { prompts: [] } };
      case 'resources/list':
        return { jsonrpc: '2.0', id: rid, result: { resources: [] } };
      case 'resources/templates/list':
        return { jsonrpc: '2.0', id: rid, result: { resourceTemplates: [] } };
      case 'tools/call':
        return callTool(request, rid, msg.params, headers, undefined);
      default:
        return rpcError(rid, -32601, `Method not found: ${msg.method}`);
    }
  }

  const complete = (id: Id, result: Record<string, unknown>) => ({ status: 200, body: { jsonrpc: '2.0' as const, id, result: { ...result, resultType: 'complete' } } });

  /**
   * A modern-era request (2026-07-28): every result says `resultType`; removed or unknown methods are
   * 404. A tools/call answers with the log messages its request asked for (`notifications`), which
   * go before the answer on an SSE stream.
   */
  async function modernRequest(
    request: FastifyRequest,
    id: Id,
    method: string,
    params: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: JsonRpcResponse; notifications?: unknown[] }> {
    switch (method) {
      case 'server/discover':
        return complete(id, {
          // Every version this endpoint serves, the legacy ones through initialize; -32022 lists the same.
          supportedVersions: [...SUPPORTED_VERSIONS],
          capabilities: modernCapabilities,
          instructions,
          ttlMs: TOOLS_TTL_MS,
          cacheScope: 'public',
          _meta: { [META.serverInfo]: serverInfo },
        });
      case 'tools/list':
        return complete(id, { tools: modernTools, ttlMs: TOOLS_TTL_MS, cacheScope: 'public' });
      // Rollcall publishes no prompts or resources; the lists answer empty (and cacheable) so generic
      // clients that ask for them get an answer rather than an error.
      case 'prompts/list':
        return complete(id, { prompts: [], ttlMs: TOOLS_TTL_MS, cacheScope: 'public' });
      case 'resources/list':
        return complete(id, { resources: [], ttlMs: TOOLS_TTL_MS, cacheScope: 'public' });
      case 'resources/templates/list':
        return complete(id, { resourceTemplates: [], ttlMs: TOOLS_TTL_MS, cacheScope: 'public' });
      case 'tools/call': {
        const client = modernClient(params);
        const body = await callTool(request, id, params, headers, client);
        if ('error' in body && body.error.code === MISSING_CLIENT_CAPABILITY) return { status: 400, body };
        const messages = client.log?.messages ?? [];
        const notifications = messages.map((m) => ({ jsonrpc: '2.0', method: 'notifications/message', params: m }));
        return { status: 200, body, ...(notifications.length > 0 ? { notifications } : {}) };
      }
      default:
        // initialize and ping do not exist in this era; neither does anything we do not serve.
        return { status: 404, body: rpcError(id, -32601, `Method not found: ${method}`) };
    }
  }

  // tools/list is about 100 KB of JSON that changes only with a deployment: serialized once here and
  // spliced into each answer, instead of stringifying it per request (a tenth of the throughput).
  const TOOLS_SLOT = '"tools":"@@rollcall-tools-list@@"';
  const toolsJson = `"tools":${JSON.stringify(tools.list)}`;
  /** An answer's JSON up to its result: what toJson and toBody put in front of a serialized result. */
  const answerHead = (answer: unknown) => `{"jsonrpc":"2.0","id":${JSON.stringify((answer as { id: Id }).id)},"result":`;
  const listsTools = (a: unknown): boolean => isObject(a) && isObject(a.result) && a.result.tools === tools.list;
  /**
   * The answer (or batch of answers) as JSON. Only the key `tools` can produce the slot's text:
   * inside any string (an echoed id) a quote is escaped, so the slot cannot be forged by a client.
   */
  function toJson(answer: unknown): string {
    if (Array.isArray(answer)) return `[${answer.map(toJson).join(',')}]`;
    if (listsTools(answer)) {
      return JSON.stringify(answer, (_key, v) => (v === tools.list ? '@@rollcall-tools-list@@' : v)).replace(TOOLS_SLOT, () => toolsJson);
    }
    // A tool result was serialized once already (toolResult): spliced in, not serialized again.
    const json = isObject(answer) && isObject(answer.result) ? serialized(answer.result) : undefined;
    if (json === undefined) return JSON.stringify(answer);
    return `${answerHead(answer)}${json}}`;
  }

  /** One answer's JSON body: bytes assembled around a cached result's bytes, else toJson's text. */
  function toBody(answer: unknown): string | Buffer {
    const bytes = isObject(answer) && isObject(answer.result) ? resultBytes.get(answer.result) : undefined;
    if (bytes === undefined) return toJson(answer);
    const head = answerHead(answer);
    const headLength = Buffer.byteLength(head);
    const body = Buffer.allocUnsafe(headLength + bytes.length + 1);
    body.write(head, 0, 'utf8');
    bytes.copy(body, headLength);
    body[body.length - 1] = 0x7d; // }
    return body;
  }

  /**
   * A 200 answer goes out as the client asked: JSON, or one SSE message event when it accepts only
   * a stream. (A function of the door, not a closure per request: see standardHeaders.)
   */
  function respond(reply: FastifyReply, mode: 'json' | 'sse', status: number, answer: unknown) {
    if (status === 200 && mode === 'sse') return stream(reply, [answer]);
    return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(toBody(answer));
  }

  /** Messages as one SSE response stream, the answer last: it ends the stream. */
  function stream(reply: FastifyReply, messages: unknown[]) {
    return reply
      .code(200)
      .headers(SSE_HEADERS)
      .send(messages.map((m) => `event: message\ndata: ${toJson(m)}\n\n`).join(''));
  }

  const sendRejection = (reply: FastifyReply, rejection: Rejection, id: Id | null) => reply.code(rejection.status).send(rpcError(id, rejection.code, rejection.message, rejection.data));

  /** What a message counts as against the per-address limits: a call of a tool that changes something is a write. */
  function messageKind(msg: unknown): RequestKind {
    if (!isObject(msg) || msg.method !== 'tools/call' || !isObject(msg.params) || typeof msg.params.name !== 'string') return 'read';
    return tools.byName.get(msg.params.name)?.annotations?.readOnlyHint === true ? 'read' : 'write';
  }

  const limitedAnswer = (id: Id | null, kind: RequestKind, s: LimitState) =>
    rpcError(id, RATE_LIMITED, `rate_limited: the limit of ${s.limit} ${kind}s per minute from this address is reached; retry in ${s.resetS} s`, { retry_after_s: s.resetS, limit: s.limit });

  const tooLarge = (id: Id | null) =>
    rpcError(id, ANSWER_TOO_LARGE, `not run: the batch's answers reached MCP_BATCH_MAX_BYTES (${mcpBatchMaxBytes} bytes) before this message; send it again alone or in a smaller batch`, { max_bytes: mcpBatchMaxBytes, ran: false });

  /**
   * A batch (legacy era): at most MCP_BATCH_MAX messages, each counted against the limits (messages
   * past them answer -32029). The messages run one after another, in order: once the answers so far
   * reach MCP_BATCH_MAX_BYTES, the messages left answer -32028 and do not run, so the answer of every
   * message that ran is delivered (a refusal after the work would lose a token shown once).
   */
  async function batch(request: FastifyRequest, reply: FastifyReply, body: unknown[], mode: 'json' | 'sse', headers: Record<string, string>) {
    if (body.length > mcpBatchMax) return reply.code(400).send(rpcError(null, -32600, `Invalid Request: a batch holds at most ${mcpBatchMax} messages (this one has ${body.length}); nothing was run`));
    const kinds = body.map(messageKind);
    const { fits, refused } = await limits.takeMessages(request.ip, kinds);
    const answers: JsonRpcResponse[] = [];
    let bytes = 2; // the brackets
    for (const [i, m] of body.entries()) {
      const id = isObject(m) && (typeof m.id === 'string' || typeof m.id === 'number') ? (m.id as Id) : null;
      const notification = isObject(m) && !('id' in m);
      let answer: JsonRpcResponse | null;
      if (!fits[i]) answer = notification ? null : limitedAnswer(id, kinds[i]!, refused[kinds[i]!]!);
      else if (bytes >= mcpBatchMaxBytes) answer = notification ? null : tooLarge(id);
      else answer = await legacyMessage(request, m, headers);
      if (answer === null) continue;
      answers.push(answer);
      bytes += Buffer.byteLength(toJson(answer)) + 1;
    }
    const firstRefused = refused.write ?? refused.read;
    if (firstRefused) reply.header('retry-after', String(firstRefused.resetS));
    reply.headers(headers);
    return answers.length ? respond(reply, mode, 200, answers) : reply.code(202).send();
  }

  /** Counts one message against the limits; past them, answers 429 with -32029 and Retry-After (true: answered). */
  async function refusedAlone(request: FastifyRequest, reply: FastifyReply, body: unknown, id: Id | null): Promise<boolean> {
    const kind = messageKind(body);
    const { fits, refused } = await limits.takeMessages(request.ip, [kind]);
    if (fits[0]) return false;
    const s = refused[kind]!;
    reply.code(429).headers({ ...limitHeaders(s), 'retry-after': String(s.resetS) }).send(limitedAnswer(id, kind, s));
    return true;
  }

  async function post(request: FastifyRequest, reply: FastifyReply) {
    const standard = standardHeaders(request.headers);
    const version = standard.protocolVersion;
    /** Response headers tool calls ask for (x402). */
    const headers: Record<string, string> = {};
    const body = request.body;
    const id = echoableId(body);
    const mode = acceptMode(request.headers.accept);
    if (mode === 'none') {
      return reply.code(406).send(rpcError(id, -32600, 'Not Acceptable: the response is application/json or text/event-stream; accept one of them'));
    }
    if (version !== undefined && !(SUPPORTED_VERSIONS as readonly string[]).includes(version)) {
      return reply.code(400).send(rpcError(id, -32022, `Unsupported protocol version: ${version}`, { supported: [...SUPPORTED_VERSIONS], requested: version }));
    }
    if (body === undefined || body === null) return reply.code(400).send(rpcError(null, -32600, 'Invalid Request: empty body'));
    if (Array.isArray(body)) {
      if (batchHasModernMessage(body)) return reply.code(400).send(rpcError(null, -32600, `Invalid Request: JSON-RPC batches may not contain ${MODERN_VERSION} requests`));
      if (version !== undefined && !BATCH_VERSIONS.has(version)) return reply.code(400).send(rpcError(null, -32600, `Invalid Request: protocol ${version} does not allow batches`));
      if (body.length === 0) return reply.code(400).send(rpcError(null, -32600, 'Invalid Request: empty batch'));
      return batch(request, reply, body, mode, headers);
    }
    if (await refusedAlone(request, reply, body, id)) return reply;
    const era = classifyMessage(body, standard);
    if (era.era === 'reject') return sendRejection(reply, era.rejection, id);
    if (era.era === 'modern') {
      if (era.kind === 'notification') return reply.code(202).send();
      // A modern request always has a readable id here (classifyMessage sends the others to the legacy rules).
      const answer = await modernRequest(request, id!, era.method, era.params, headers);
      reply.headers(headers);
      // Log messages need a stream; a client that takes only JSON is sent the answer alone.
      if (answer.notifications && answer.status === 200 && (mode === 'sse' || acceptsEventStream(request.headers.accept))) return stream(reply, [...answer.notifications, answer.body]);
      return respond(reply, mode, answer.status, answer.body);
    }
    const answer = await legacyMessage(request, body, headers);
    reply.headers(headers);
    if (!answer) return reply.code(202).send();
    // One rule for a message that is not a valid request (null, 42, {}, a bad id): HTTP 400 with
    // -32600, as for an empty body. Inside a batch each answer travels in the 200 body instead.
    return respond(reply, mode, 'error' in answer && answer.error.code === -32600 ? 400 : 200, answer);
  }

  const toolNames = tools.list.map((t) => t.name);
  const discovery = {
    server_card: `${base}/.well-known/mcp/server-card.json`,
    mcp_json: `${base}/.well-known/mcp.json`,
    discovery_json: `${base}/discovery.json`,
    agent_card: `${base}/.well-known/agent-card.json`,
    ai_catalog: `${base}/.well-known/ai-catalog.json`,
    openapi: `${base}/openapi.json`,
    llms_txt: `${base}/llms.txt`,
    jwks: `${base}/.well-known/jwks.json`,
  };
  const restByOperation = new Map(restRoutes.map((r) => [r.operation.name, `${r.method} ${base}${r.path}`]));
  // The GET info object (SPEC.md 4.2): what a browser, a crawler or a plain client learns here.
  const info = {
    ok: true,
    name: 'rollcall',
    transport: 'streamable-http',
    mcp_release: MODERN_VERSION,
    stateless: true,
    version: MCP_SERVER_VERSION,
    endpoint: `${base}${endpoint.paths[0]}`,
    aliases: endpoint.paths.slice(1).map((p) => `${base}${p}`),
    ...(toolset ? { toolset, purpose: TOOLSET_PURPOSE[toolset], every_tool: `${base}${MCP_PATHS[0]}` } : {}),
    // Connect to the registry toolset first: its tools find, list and claim; find_tools points at the rest.
    ...toolsetLinks(base),
    // server/discover is the 2026-07-28 handshake; initialize and ping belong to the legacy era.
    methods: SERVED_METHODS,
    protocol_versions: SUPPORTED_VERSIONS,
    tools: toolNames,
    server_card: discovery.server_card,
    mcp_json: discovery.mcp_json,
    discovery,
    hard_next: {
      tool: 'list_yourself',
      args: {},
      needs: ['url'],
      why: 'List yourself first (url: your agent card or MCP server URL): Rollcall probes it and makes it Live; check_status then tells you the next step.',
      rest: `POST ${base}/api/publish`,
    },
    deal: dealObject(base),
    note: 'POST JSON-RPC 2.0 here. Stateless: no session id, no server-sent event stream. Both protocol eras are served: send the 2026-07-28 _meta envelope for the modern one.',
    card: serverCard(services.config, toolNames),
    dual_as_tool: {
      note: 'Every REST surface that is also a tool: call it either way, the same operation answers.',
      tools: Object.fromEntries(toolNames.filter((t) => restByOperation.has(t)).map((t) => [t, restByOperation.get(t)])),
    },
  };

  // The info object is a public document like those of the discovery door: encoded once, with an
  // ETag, cacheable and open to every origin (a GET here changes nothing, so a foreign page may read it).
  const infoBody = Buffer.from(JSON.stringify(info));
  const infoEtag = `"${createHash('sha256').update(infoBody).digest('base64url').slice(0, 32)}"`;
  const infoHeaders = { etag: infoEtag, 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag', vary: 'Accept' };

  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      // Host is checked on every method (DNS rebinding); Origin only where a call can act.
      const crossOriginRead = request.method === 'GET' || request.method === 'HEAD';
      if (!hostAllowed(request.hostname, base) || (!crossOriginRead && !originAllowed(request.headers.origin, base))) {
        return reply.code(403).send(rpcError(null, -32600, 'Forbidden: Host or Origin is not this server'));
      }
    });
    // Transport failures (bad JSON, oversize, wrong media type) answer in JSON-RPC, not the REST shape.
    scope.setErrorHandler((err, request, reply) => {
      const appError = toAppError(err);
      if (appError.code === 'unavailable') request.log.warn({ err }, 'mcp request: the database is unavailable');
      else if (appError.status >= 500) request.log.error({ err }, 'mcp request failed');
      const code = appError.code === 'invalid_json' ? -32700 : appError.status >= 500 ? -32603 : -32600;
      const message = appError.code === 'invalid_json' ? 'Parse error' : appError.message;
      const data = appError.code === 'invalid_input' ? { request_id: request.id, error: appError.toBody() } : { request_id: request.id };
      return reply.code(appError.status).headers(appError.headers).send(rpcError(null, code, message, data));
    });
    for (const path of endpoint.paths) {
      scope.post(path, post);
      scope.get(path, async (request, reply) => {
        const noStream = refuseEventStream(request, reply);
        if (noStream) return noStream;
        if (matchesEtag(request.headers['if-none-match'], infoEtag)) return reply.code(304).headers(infoHeaders).send();
        return reply.headers({ ...infoHeaders, 'content-type': 'application/json; charset=utf-8' }).send(infoBody);
      });
      scope.delete(path, async (_request, reply) =>
        reply.code(405).header('allow', 'GET, POST').send(rpcError(null, -32000, 'Method not allowed: this server keeps no sessions')),
      );
    }
  });
  return post;
}
