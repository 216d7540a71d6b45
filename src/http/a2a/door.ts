// The A2A door (SPEC.md 1.8, 4.1; DESIGN.md stack row "A2A"): POST /api/a2a is JSON-RPC 2.0
// served by the @a2a-js/sdk transport handlers, mounted on Fastify without Express: v1
// (`SendMessage`, `GetTask`, `CancelTask`; header `A2A-Version: 1.0`), v0.3 (`message/send`,
// `tasks/get`, `tasks/cancel`; no header or 0.3) and the v0.1 `tasks/send` shim. GET /api/a2a is
// the endpoint's info with the agent-card pointer. Tasks persist through the a2a domain's store.
// The same endpoint also answers MCP (it is a remote of the MCP server card): a message with an
// MCP method goes to the MCP door's own POST handler (protocol-of.ts says which is which).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AgentCard as SdkAgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  JsonRpcTransportHandler,
  ServerCallContext,
  UnauthenticatedUser,
  STATE_HEADERS_KEY,
} from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { VersionNotSupportedError } from '@a2a-js/sdk/errors';
import type { AnyOperation, BaseServices } from '../../platform/operation.ts';
import { DbTaskStore } from '../../a2a/task-store.ts';
import { requestCtx } from '../context.ts';
import { databaseUnavailable, toAppError } from '../errors.ts';
import { limitHeaders, type RequestLimits } from '../rate-limit.ts';
import { hostAllowed, originAllowed } from '../origin.ts';
import { matchesEtag } from '../response-cache.ts';
import { buildToolList, MCP_PATHS, RATE_LIMITED, refuseEventStream, type McpPost } from '../mcp.ts';
import { agentCardDocument } from '../discovery/agent-card.ts';
import { buildModel } from '../discovery/model.ts';
import { A2A_PATH, DOCUMENT_PATHS } from '../discovery/paths.ts';
import { CTX_KEY, DB_FAILURE_KEY, noteDbFailure, RollcallExecutor, type FailureHolder } from './executor.ts';
import { INTENTS } from './intents.ts';
import { a2aInfo, METHODS, resolveVersion } from './info.ts';
import { responseToV01, V01_METHOD, v01ToMessageSend } from './v01.ts';
import { protocolOf } from './protocol-of.ts';

type Id = string | number | null;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const rpcError = (id: Id, code: number, message: string, data?: unknown) => ({ jsonrpc: '2.0' as const, id, error: { code, message, ...(data !== undefined ? { data } : {}) } });
const idOf = (body: unknown): Id => {
  const id = isObject(body) ? body.id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
};

/** A2A methods that only read (a task's state); every other one counts as a write against the limits. */
const READ_METHODS = new Set(['tasks/get', 'GetTask']);

export function registerA2a(app: FastifyInstance, services: BaseServices, catalog: readonly AnyOperation[], limits: RequestLimits, mcpPost: McpPost) {
  const base = services.config.publicBaseUrl;
  const model = buildModel({ config: services.config, catalog });
  const operations = new Map(catalog.map((op) => [op.name, op]));
  const tools = buildToolList(catalog).byName;
  const intents = INTENTS.filter((i) => operations.has(i.operation));
  const executor = new RollcallExecutor({
    operations,
    tools,
    help: { intents, tools: [...tools.keys()], agentCard: model.docs.agentCard, mcpEndpoint: `${base}${MCP_PATHS[0]}` },
  });
  // The SDK reads the card for versions and input modes; the card served to clients is the
  // discovery door's (signed) copy of the same document.
  const card = SdkAgentCard.fromJSON(agentCardDocument(model));
  const taskStore = new DbTaskStore(services.db.kysely, services.clock, (context, err) => noteDbFailure(context?.state, err));
  const handler = new DefaultRequestHandler(card, taskStore, executor);
  const v1 = new JsonRpcTransportHandler(handler);
  const v03 = new LegacyJsonRpcTransportHandler(handler);

  async function post(request: FastifyRequest, reply: FastifyReply) {
    const body = request.body;
    const id = idOf(body);
    const send = (answer: unknown) => reply.code(200).header('content-type', 'application/json; charset=utf-8').send(withoutInternals(request, answer));
    // MCP is answered by the MCP door itself, which counts its messages against the limits.
    const protocol = protocolOf(body);
    if (protocol === 'mcp') return mcpPost(request, reply);
    if (protocol === 'mixed') {
      return send(rpcError(null, -32600, `Invalid Request: this batch mixes MCP and A2A messages; nothing was run. Send MCP messages alone or in an MCP batch, A2A messages one per request.`));
    }
    if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string' || ('id' in body && body.id !== null && id === null)) {
      return send(rpcError(id, -32600, 'Invalid Request: send one JSON-RPC 2.0 object with jsonrpc "2.0", a string method and a string or number id (batches are not served)'));
    }
    const method = body.method;
    // One message, one request of its kind (the MCP door counts a batch's messages the same way).
    const kind = READ_METHODS.has(method) ? 'read' : 'write';
    const taken = await limits.take(request.ip, kind);
    if (taken && taken.allowed === 0) {
      return reply
        .code(429)
        .headers({ ...limitHeaders(taken), 'retry-after': String(taken.resetS) })
        .send(rpcError(id, RATE_LIMITED, `rate_limited: the limit of ${taken.limit} ${kind}s per minute from this address is reached; retry in ${taken.resetS} s`, { retry_after_s: taken.resetS, limit: taken.limit }));
    }
    const version = resolveVersion(request.headers['a2a-version'], method);
    if ('unsupported' in version) {
      const error = new VersionNotSupportedError(`A2A-Version ${JSON.stringify(version.unsupported.slice(0, 32))} is not supported; send 1.0, 0.3 or no header (0.3)`);
      return send({ jsonrpc: '2.0', id, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
    }
    const ctx = requestCtx(services, request);
    const holder: FailureHolder = {};
    const context = new ServerCallContext({
      user: new UnauthenticatedUser(),
      requestedVersion: version.version,
      state: new Map<string, unknown>([
        [CTX_KEY, ctx],
        [STATE_HEADERS_KEY, request.headers],
        [DB_FAILURE_KEY, holder],
      ]),
    });
    // The SDK answers any throw with a JSON-RPC error; a database that could not answer is a 503.
    const unavailable = () => {
      const e = databaseUnavailable();
      request.log.warn({ err: holder.failure }, 'a2a request: the database is unavailable');
      return reply.code(e.status).headers(e.headers).send(rpcError(id, -32603, e.message, { request_id: request.id }));
    };
    if (method === V01_METHOD) {
      const mapped = v01ToMessageSend(body);
      if (!mapped.ok) return send(rpcError(id, -32602, mapped.message));
      const answer = await v03.handle(mapped.request, context);
      return holder.failure ? unavailable() : send(responseToV01(answer as Json));
    }
    const served = METHODS[version.version];
    if (!(served as readonly string[]).includes(method)) return send(rpcError(id, -32601, methodNotFound(method, version.version)));
    const answer = await (version.version === '1.0' ? v1 : v03).handle(body, context);
    return holder.failure ? unavailable() : send(answer);
  }

  const infoBody = Buffer.from(JSON.stringify(a2aInfo({ base, model, intents, tools: [...tools.keys()] })));
  const infoEtag = `"${createHash('sha256').update(infoBody).digest('base64url').slice(0, 32)}"`;
  const infoHeaders = { etag: infoEtag, 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag' };

  app.register(async (scope) => {
    // v1 clients may label the body with A2A's own media type; it is JSON all the same.
    scope.addContentTypeParser('application/a2a+json', { parseAs: 'string' }, scope.getDefaultJsonParser('error', 'error'));
    scope.addHook('onRequest', async (request, reply) => {
      // Host is checked on every method (DNS rebinding); Origin only where a call can act.
      const crossOriginRead = request.method === 'GET' || request.method === 'HEAD';
      if (!hostAllowed(request.hostname, base) || (!crossOriginRead && !originAllowed(request.headers.origin, base))) {
        return reply.code(403).send(rpcError(null, -32600, 'Forbidden: Host or Origin is not this server'));
      }
    });
    // Failures before JSON-RPC (bad JSON, oversize, wrong media type) answer in JSON-RPC with their HTTP status.
    scope.setErrorHandler((err, request, reply) => {
      const appError = toAppError(err);
      if (appError.status >= 500) request.log.error({ err }, 'a2a request failed');
      const code = appError.code === 'invalid_json' ? -32700 : appError.status >= 500 ? -32603 : -32600;
      const message = appError.code === 'invalid_json' ? 'Parse error: the body is not valid JSON' : appError.message;
      return reply.code(appError.status).headers(appError.headers).send(rpcError(null, code, message, { request_id: request.id }));
    });
    scope.post(A2A_PATH, post);
    scope.get(A2A_PATH, async (request, reply) => {
      // Neither protocol streams here; an MCP client asks for a stream after initialize.
      const noStream = refuseEventStream(request, reply);
      if (noStream) return noStream;
      if (matchesEtag(request.headers['if-none-match'], infoEtag)) return reply.code(304).headers(infoHeaders).send();
      return reply.headers({ ...infoHeaders, 'content-type': 'application/json; charset=utf-8' }).send(infoBody);
    });
  });
}

/** The SDK answers an unexpected failure with its message (a database error's text): keep that in the log. */
function withoutInternals(request: FastifyRequest, answer: unknown): unknown {
  if (!isObject(answer) || !isObject(answer.error) || answer.error.code !== -32603) return answer;
  request.log.error({ error: answer.error }, 'a2a request failed');
  return { ...answer, error: { code: -32603, message: `Internal error; quote request_id ${request.id} when reporting it` } };
}

function methodNotFound(method: string, version: '1.0' | '0.3'): string {
  const named = JSON.stringify(method.slice(0, 64));
  const other = version === '1.0' ? METHODS['0.3'] : METHODS['1.0'];
  const hint = (other as readonly string[]).includes(method)
    ? version === '1.0'
      ? ` ${named} is a v0.3 method: drop the A2A-Version header (or send 0.3), or use ${METHODS['1.0'].join(', ')}.`
      : ` ${named} is a v1 method: send the header A2A-Version: 1.0.`
    : '';
  return `Method not found: ${named}.${hint} Served here: ${METHODS['1.0'].join(', ')} (A2A-Version: 1.0); ${METHODS['0.3'].join(', ')} (0.3, the default); ${V01_METHOD} (0.1). Endpoint info: GET ${A2A_PATH}; agent card: ${DOCUMENT_PATHS.agentCard}.`;
}
