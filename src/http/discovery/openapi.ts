// /openapi.json, generated from the REST route table and the operations' zod schemas, so the
// description cannot drift from the code (SPEC.md 9: format 3.1.0, version 1.9.0). The discovery
// documents this folder serves are described too, from the same list that registers them.
import { z } from 'zod';
import { inputJsonSchema } from '../../platform/operation.ts';
import { successJsonSchema } from '../mcp-tools.ts';
import { restRoutes, type RestRoute } from '../rest.ts';
import { MCP_ENDPOINT_PATHS } from '../mcp.ts';
import { TOOLSET_NAMES, TOOLSET_PURPOSE, toolsetPath } from '../mcp-toolsets.ts';
import { A2A_PATH, OPENAPI_VERSION } from './paths.ts';
import { SERVER_DESCRIPTION } from './server-card.ts';
import { registryApiPaths } from '../registry-api.ts';
import { BADGE_NAMES } from '../../registry/badges.ts';
import { BADGE_STYLES } from '../badges.ts';

/** A served document, as /openapi.json describes it. */
export interface DocumentPath {
  path: string;
  summary: string;
  contentType: string;
  /** A second Content-Type, answered when the request's Accept names it (an MCP Server Card's own; OpenAPI ignores an Accept parameter, the content map says it). */
  acceptedType?: string;
}

const errorSchema = {
  type: 'object',
  required: ['ok', 'error', 'request_id'],
  properties: {
    ok: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        field: { type: 'string' },
        details: { description: 'For invalid_input: every failing field as {field, message}. For unknown_argument: {unknown, accepted}, the argument names sent that the operation does not take and those it does.' },
      },
    },
    request_id: { type: 'string' },
  },
};

/** A JSON-RPC 2.0 response (MCP and A2A): a result or an error; a batch is an array of them. */
const jsonRpcResponse = {
  type: 'object',
  required: ['jsonrpc', 'id'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: {},
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
  },
};
const jsonRpcAnswer = { anyOf: [{ $ref: '#/components/schemas/JsonRpcResponse' }, { type: 'array', items: { $ref: '#/components/schemas/JsonRpcResponse' } }] };
const jsonContent = (schema: unknown) => ({ 'application/json': { schema } });
const jsonRpc = (description: string, extra: Record<string, unknown> = {}) => ({ description, ...extra, content: jsonContent({ $ref: '#/components/schemas/JsonRpcResponse' }) });
/** An info object (a GET on a protocol endpoint): `ok: true` and what the endpoint serves. */
const infoObject = (description: string) => ({ description, content: jsonContent({ type: 'object', required: ['ok'], properties: { ok: { const: true } } }) });

const limitHeaders = {
  'Retry-After': { description: 'Seconds until the request may succeed.', schema: { type: 'integer' } },
  'RateLimit-Limit': { description: 'The per-address limit of this kind of request per minute (rate_limited only).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests of this kind left in the minute (rate_limited only).', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the minute starts again (rate_limited only).', schema: { type: 'integer' } },
};

/** Every 429: which limit answered is error.code, and Retry-After says when to come back. */
const RATE_LIMITED_DESCRIPTION =
  'A limit answered, named by error.code: rate_limited (RATE_LIMIT_READ_PER_MIN / RATE_LIMIT_WRITE_PER_MIN per address, a JSON-RPC batch counting each message; PROBE_RATE_PER_MIN on-demand probes per address), host_budget (PUBLISH_HOST_PER_DAY new listings of a host a day from callers who do not own it, or PROBE_HOST_PER_HOUR outbound requests to a host an hour), caller_budget (CALLER_FETCHES_PER_HOUR verifications and scores of unknown URLs, the caller\'s own), claim_spent (20 verifications a claim), quota_exhausted (a free allowance spent), daily_cap_reached (the daily cap of an always-free event: never charged, back at the UTC reset), trace_limit_reached and too_many_claims (daily counts), inbox_full and send_limit (messages listings send a day). Retry-After says when to come back.';

const limited = { $ref: '#/components/responses/RateLimited' };

/** The ARD registry API's error (ard-spec ard.openapi.yaml `Error`): `errorCode` and `message`, Rollcall's fields beside them. */
const ardErrorSchema = {
  type: 'object',
  required: ['errorCode', 'message'],
  properties: { errorCode: { type: 'string' }, message: { type: 'string' }, code: { type: 'string' }, field: { type: 'string' }, request_id: { type: 'string' } },
};
const ardError = (description: string) => ({ description, content: jsonContent({ $ref: '#/components/schemas/ArdError' }) });

/** An ARD route's result as the operation's output schema gives it (inside the document, without its own `$schema`). */
function ardResultSchema(output: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

/** An ARD route's answers: its result as ARD gives it (no `ok`; none for a route that only refuses), its errors in ARD's shape. */
function ardResponses(route: RestRoute, result: string): Record<string, unknown> {
  return {
    ...(route.operation.output ? { '200': { description: 'The result as the ARD API gives it', content: jsonContent({ $ref: `#/components/schemas/${result}` }) } } : {}),
    ...Object.fromEntries(Object.entries(route.responses ?? {}).map(([status, description]) => [status, ardError(description)])),
    '400': ardError('INVALID_ARGUMENT: a malformed request or an unsupported filter key'),
    '413': ardError('INVALID_ARGUMENT: the body is larger than the limit'),
    '415': ardError('INVALID_ARGUMENT: the body is not application/json'),
    '429': { $ref: '#/components/responses/ArdRateLimited' },
    '500': ardError('INTERNAL_ERROR'),
    '503': ardError('UNAVAILABLE: the database cannot answer now; Retry-After says when to come back'),
  };
}

const errorResponses = {
  '400': { $ref: '#/components/responses/Error' },
  '404': { $ref: '#/components/responses/Error' },
  '405': { $ref: '#/components/responses/Error' },
  '413': { $ref: '#/components/responses/Error' },
  '415': { $ref: '#/components/responses/Error' },
  '431': { $ref: '#/components/responses/Error' },
  '429': limited,
  '500': { $ref: '#/components/responses/Error' },
};

export function openApiDocument(base: string, documents: readonly DocumentPath[] = [], routes: readonly RestRoute[] = restRoutes) {
  const paths: Record<string, Record<string, unknown>> = {};
  // Every operation's success, under its own name: the operation's output schema (mcp-tools.ts).
  const schemas: Record<string, unknown> = { Error: errorSchema, ArdError: ardErrorSchema, JsonRpcResponse: jsonRpcResponse };
  // operationIds are unique in a document: an operation served by a second route (GET and POST
  // /api/ard/search) gets its method after its name there.
  const operationIds = new Set<string>();
  for (const route of routes) {
    const operationId = operationIds.has(route.operation.name) ? `${route.operation.name}_${route.method.toLowerCase()}` : route.operation.name;
    operationIds.add(operationId);
    const schema = inputJsonSchema(route.operation.input) as { properties?: Record<string, { description?: string }>; required?: string[] };
    const result = `${route.operation.name}_result`;
    if (route.shape !== 'ard') schemas[result] ??= successJsonSchema(route.operation);
    else if (route.operation.output) schemas[result] ??= ardResultSchema(route.operation.output);
    const operation: Record<string, unknown> = {
      operationId,
      summary: route.summary,
      description: route.operation.description,
      ...(route.operation.ownerOnly ? { security: [{ ownerToken: [] }] } : {}),
      responses: route.shape === 'ard' ? ardResponses(route, result) : {
        '200': { description: 'ok: true and the result', content: jsonContent({ $ref: `#/components/schemas/${result}` }) },
        // A cached read answers with an ETag (http/rest.ts) and honours If-None-Match.
        ...(route.operation.cacheMs ? { '304': { description: 'Not modified: the If-None-Match ETag is current' } } : {}),
        ...Object.fromEntries(Object.entries(route.responses ?? {}).map(([status, description]) => [status, { description, content: jsonContent({ $ref: '#/components/schemas/Error' }) }])),
        ...errorResponses,
      },
    };
    // Fields a path parameter fills are path parameters, not query or body fields.
    const fromPath = new Map(Object.entries(route.params ?? {}).map(([param, field]) => [field, param]));
    const pathParameters = [...fromPath].map(([field, param]) => ({ name: param, in: 'path', required: true, description: schema.properties?.[field]?.description, schema: { type: 'string' } }));
    const own = Object.entries(schema.properties ?? {}).filter(([name]) => !fromPath.has(name));
    const required = (schema.required ?? []).filter((name) => !fromPath.has(name));
    if (route.from === 'query') {
      operation.parameters = [
        ...pathParameters,
        ...own.map(([name, s]) => ({ name, in: 'query', required: required.includes(name), description: s.description, schema: { ...s, description: undefined } })),
      ];
    } else {
      if (pathParameters.length) operation.parameters = pathParameters;
      const body = fromPath.size ? { ...schema, properties: Object.fromEntries(own), required } : schema;
      operation.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    }
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  for (const path of MCP_ENDPOINT_PATHS) {
    const toolset = TOOLSET_NAMES.find((t) => toolsetPath(t) === path);
    paths[path] = {
      post: {
        operationId: `mcp_${path.replace(/\W+/g, '_')}`,
        summary: toolset
          ? `MCP JSON-RPC 2.0, the ${toolset} toolset only (${TOOLSET_PURPOSE[toolset]}), and find_tools`
          : 'MCP JSON-RPC 2.0 over stateless streamable HTTP: tools/list, tools/call and the lifecycle methods of each protocol era',
        requestBody: { required: true, content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
        responses: {
          '200': {
            description: 'JSON-RPC response (an array for a batch); in a batch, a message past the rate limit answers -32029 rate_limited (data.retry_after_s), and once the answers reach MCP_BATCH_MAX_BYTES the messages left answer -32028 without running',
            content: jsonContent(jsonRpcAnswer),
          },
          '202': { description: 'notification accepted' },
          '400': jsonRpc('Invalid Request (-32600): among others, a batch of more than MCP_BATCH_MAX messages (nothing run)'),
          '429': jsonRpc('A single message past the per-address rate limit: JSON-RPC error -32029 rate_limited, with Retry-After and RateLimit-* headers', { headers: limitHeaders }),
        },
      },
      get: { summary: 'Server info; 405 when asked for an SSE stream', responses: { '200': infoObject('info object'), '405': jsonRpc('no SSE stream (-32000)') } },
    };
  }
  paths[A2A_PATH] = {
    post: {
      operationId: 'a2a_jsonrpc',
      summary: 'A2A JSON-RPC 2.0: SendMessage, GetTask, CancelTask (header A2A-Version: 1.0); message/send, tasks/get, tasks/cancel (0.3); tasks/send (0.1)',
      parameters: [{ name: 'A2A-Version', in: 'header', required: false, description: '1.0 or 0.3 (the default).', schema: { type: 'string' } }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': { description: 'JSON-RPC response: a finished Task, or a JSON-RPC error (MCP methods answer as at /api/mcp, batches included)', content: jsonContent(jsonRpcAnswer) },
        '400': jsonRpc('the body is not JSON (-32700)'),
        '403': jsonRpc('Host or Origin is not this server'),
        '429': jsonRpc('Past the per-address rate limit (tasks/get and GetTask count as reads, other methods as writes): JSON-RPC error -32029 rate_limited, with Retry-After', { headers: limitHeaders }),
      },
    },
    get: { summary: 'Endpoint info: the agent-card pointer, versions, methods, the requests understood, examples', responses: { '200': infoObject('info object'), '304': { description: 'Not modified' } } },
  };
  for (const doc of documents) {
    paths[doc.path] = {
      get: {
        summary: doc.summary,
        tags: ['discovery'],
        parameters: [{ name: 'If-None-Match', in: 'header', required: false, description: 'An ETag from an earlier answer.', schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'The document (public, cached for 300 s; ETag is a hash of the bytes)',
            content: {
              [doc.contentType]: { schema: /^application\/([\w.-]+\+)?json\b/.test(doc.contentType) ? { type: 'object' } : { type: 'string' } },
              ...(doc.acceptedType ? { [doc.acceptedType]: { schema: { type: 'object' } } } : {}),
            },
          },
          '304': { description: 'Not modified: the If-None-Match ETag is current' },
        },
      },
    };
  }
  Object.assign(paths, registryApiPaths());
  // The badges (src/http/badges.ts): images for READMEs, so errors are images too.
  paths['/badge/{name}'] = {
    get: {
      operationId: 'badge',
      summary: 'An SVG badge (badge-maker): the registry\'s, or with ?id= a listing\'s; `.svg` after the name is accepted',
      tags: ['badges'],
      parameters: [
        { name: 'name', in: 'path', required: true, description: 'Which badge (optionally with .svg).', schema: { type: 'string', enum: [...BADGE_NAMES] } },
        { name: 'id', in: 'query', required: false, description: 'A listing_id: that listing\'s badge; without it, the registry\'s.', schema: { type: 'string', minLength: 1, maxLength: 64 } },
        { name: 'style', in: 'query', required: false, description: 'badge-maker style (default flat).', schema: { type: 'string', enum: [...BADGE_STYLES] } },
        { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag from an earlier answer.', schema: { type: 'string' } },
      ],
      responses: {
        '200': { description: 'The badge (public, cached for 60 s, ETag)', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
        '304': { description: 'Not modified: the If-None-Match ETag is current' },
        '400': { $ref: '#/components/responses/Error' },
        '404': { description: 'No such badge, no listing with this id, or a badge that does not apply to it: a grey "not found" badge', content: { 'image/svg+xml': { schema: { type: 'string' } } } },
      },
    },
  };
  // Every request counts against its address's limit, so every operation can answer 429; the
  // health routes below are the exception (an orchestrator polls them).
  for (const operations of Object.values(paths)) {
    for (const op of Object.values(operations) as { responses: Record<string, unknown> }[]) op.responses['429'] ??= limited;
  }
  const ok = (properties: Record<string, unknown>) => jsonContent({ type: 'object', required: ['ok', ...Object.keys(properties)], properties: { ok: { const: true }, ...properties } });
  paths['/healthz'] = { get: { summary: 'The process is up', responses: { '200': { description: 'ok', content: ok({ version: { type: 'string' } }) } } } };
  paths['/readyz'] = {
    get: { summary: 'The database answers', responses: { '200': { description: 'ok', content: ok({ database: { enum: ['sqlite', 'postgres'] } }) }, '503': { $ref: '#/components/responses/Error' } } },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Rollcall registry', version: OPENAPI_VERSION, description: SERVER_DESCRIPTION },
    servers: [{ url: base }],
    paths,
    components: {
      schemas,
      responses: {
        Error: { description: 'Error', content: jsonContent({ $ref: '#/components/schemas/Error' }) },
        RateLimited: { description: RATE_LIMITED_DESCRIPTION, headers: limitHeaders, content: jsonContent({ $ref: '#/components/schemas/Error' }) },
        ArdRateLimited: {
          description: 'RATE_LIMIT_EXCEEDED: the address\'s limit of requests a minute, in the ARD API\'s error body; Retry-After says when to come back.',
          headers: limitHeaders,
          content: jsonContent({ $ref: '#/components/schemas/ArdError' }),
        },
        RegistryRateLimited: {
          description: 'rate_limited, in the MCP registry API\'s own error body.',
          headers: limitHeaders,
          content: { 'application/json': { schema: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } } } },
        },
      },
      securitySchemes: {
        ownerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A listing\'s owner token (rco_...), from verify_claim: it acts for that listing.',
        },
      },
    },
  };
}
