// The MCP door (SPEC.md 4.2, DESIGN.md "MCP endpoint"): a stateless JSON-RPC 2.0 dispatcher over
// the operation catalog. This release serves the legacy era (2025-03-26 .. 2025-11-25): initialize
// negotiates, notifications get 202, ping answers, batches are accepted where that era allows them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.ts';
import { inputJsonSchema, runOperation, type Operation, type Services } from '../platform/operation.ts';
import { requestCtx } from './context.ts';
import { toAppError } from './errors.ts';
import { hostAllowed, originAllowed } from './origin.ts';

export const MCP_PATHS = ['/api/mcp', '/mcp', '/api/protocol'] as const;
/** Newest first; the first is what initialize answers to a version it does not know. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export const MCP_SERVER_VERSION = '3.12.0';
const BATCH_VERSIONS = new Set(['2025-03-26']);

type Id = string | number;
type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: Id | null; result: unknown }
  | { jsonrpc: '2.0'; id: Id | null; error: { code: number; message: string; data?: unknown } };

const rpcError = (id: Id | null, code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface ToolEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** tools/list, computed once from the catalog; aliases are listed as tools of their own. */
export function buildToolList(catalog: Operation<any, any>[]): { list: ToolEntry[]; byName: Map<string, Operation<any, any>> } {
  const list: ToolEntry[] = [];
  const byName = new Map<string, Operation<any, any>>();
  for (const op of catalog) {
    if (op.tool === false) continue;
    const inputSchema = inputJsonSchema(op.toolInput ?? op.input);
    for (const name of [op.name, ...(op.aliases ?? [])]) {
      const description = name === op.name ? op.description : `Alias of ${op.name}. ${op.description}`;
      list.push({ name, description, inputSchema });
      byName.set(name, op);
    }
  }
  return { list, byName };
}

export function registerMcp(app: FastifyInstance, services: Services, catalog: Operation<any, any>[]) {
  const tools = buildToolList(catalog);
  const base = services.config.publicBaseUrl;

  async function callTool(request: FastifyRequest, id: Id, params: unknown): Promise<JsonRpcResponse> {
    if (!isObject(params) || typeof params.name !== 'string') return rpcError(id, -32602, 'params.name (the tool name) is required');
    const op = tools.byName.get(params.name);
    if (!op) return rpcError(id, -32602, `Unknown tool: ${params.name}`, { tools: tools.list.map((t) => t.name) });
    const args = params.arguments ?? {};
    if (!isObject(args)) return rpcError(id, -32602, 'params.arguments must be an object');
    try {
      const result = await runOperation(op, requestCtx(services, request), args, 'mcp');
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result } };
    } catch (err) {
      if (!(err instanceof AppError)) {
        request.log.error({ err, tool: params.name }, 'tool failed');
        return rpcError(id, -32603, 'Internal error', { request_id: request.id });
      }
      // A tool that runs and fails is a result a model can read and correct, not a protocol error.
      const body = { ok: false, error: err.toBody(), request_id: request.id };
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true } };
    }
  }

  async function handleMessage(request: FastifyRequest, msg: unknown): Promise<JsonRpcResponse | null> {
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
        const protocolVersion = (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LEGACY_PROTOCOL_VERSIONS[0];
        return {
          jsonrpc: '2.0',
          id: rid,
          result: {
            protocolVersion,
            capabilities: { tools: { listChanged: false } },
            serverInfo: { name: 'rollcall', title: 'Rollcall registry', version: MCP_SERVER_VERSION, websiteUrl: base },
            instructions:
              'Rollcall lists A2A agents and MCP servers after probing them. Call list_yourself with your card or server URL, then check_status until lane is active.',
          },
        };
      }
      case 'ping':
        return { jsonrpc: '2.0', id: rid, result: {} };
      case 'tools/list':
        return { jsonrpc: '2.0', id: rid, result: { tools: tools.list } };
      case 'tools/call':
        return callTool(request, rid, msg.params);
      default:
        return rpcError(rid, -32601, `Method not found: ${msg.method}`);
    }
  }

  async function post(request: FastifyRequest, reply: FastifyReply) {
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !(LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      return reply.code(400).send(rpcError(null, -32600, `Unsupported MCP-Protocol-Version: ${version}`, { supported: LEGACY_PROTOCOL_VERSIONS }));
    }
    const body = request.body;
    if (body === undefined || body === null) return reply.code(400).send(rpcError(null, -32600, 'Invalid Request: empty body'));
    if (Array.isArray(body)) {
      if (typeof version === 'string' && !BATCH_VERSIONS.has(version)) {
        return reply.code(400).send(rpcError(null, -32600, `Invalid Request: protocol ${version} does not allow batches`));
      }
      if (body.length === 0) return reply.code(400).send(rpcError(null, -32600, 'Invalid Request: empty batch'));
      const answers = (await Promise.all(body.map((m) => handleMessage(request, m)))).filter((a): a is JsonRpcResponse => a !== null);
      return answers.length ? reply.send(answers) : reply.code(202).send();
    }
    const answer = await handleMessage(request, body);
    return answer ? reply.send(answer) : reply.code(202).send();
  }

  const info = {
    ok: true,
    name: 'rollcall',
    transport: 'streamable-http',
    mcp_release: '2026-07-28',
    stateless: true,
    version: MCP_SERVER_VERSION,
    endpoint: `${base}${MCP_PATHS[0]}`,
    aliases: MCP_PATHS.slice(1).map((p) => `${base}${p}`),
    methods: ['initialize', 'notifications/initialized', 'ping', 'tools/list', 'tools/call'],
    protocol_versions: LEGACY_PROTOCOL_VERSIONS,
    tools: tools.list.map((t) => t.name),
    note: 'POST JSON-RPC 2.0 here. Stateless: no session id, no server-sent event stream.',
  };

  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!hostAllowed(request.hostname, base) || !originAllowed(request.headers.origin, base)) {
        return reply.code(403).send(rpcError(null, -32600, 'Forbidden: Host or Origin is not this server'));
      }
    });
    // Transport failures (bad JSON, oversize, wrong media type) answer in JSON-RPC, not the REST shape.
    scope.setErrorHandler((err, request, reply) => {
      const appError = toAppError(err);
      if (appError.status >= 500) request.log.error({ err }, 'mcp request failed');
      const code = appError.code === 'invalid_json' ? -32700 : appError.status >= 500 ? -32603 : -32600;
      const message = appError.code === 'invalid_json' ? 'Parse error' : appError.message;
      return reply.code(appError.status).send(rpcError(null, code, message, { request_id: request.id }));
    });
    for (const path of MCP_PATHS) {
      scope.post(path, post);
      scope.get(path, async (request, reply) => {
        if (String(request.headers.accept ?? '').includes('text/event-stream')) {
          return reply.code(405).header('allow', 'POST').send(rpcError(null, -32000, 'Method not allowed: this stateless server offers no SSE stream'));
        }
        return info;
      });
      scope.delete(path, async (_request, reply) =>
        reply.code(405).header('allow', 'GET, POST').send(rpcError(null, -32000, 'Method not allowed: this server keeps no sessions')),
      );
    }
  });
}
