// /openapi.json, generated from the REST route table and the operations' zod schemas, so the
// description cannot drift from the code (SPEC.md 9: format 3.1.0, version 1.9.0).
import type { FastifyInstance } from 'fastify';
import { inputJsonSchema, type Services } from '../platform/operation.ts';
import { restRoutes } from './rest.ts';
import { MCP_PATHS } from './mcp.ts';

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
        details: { description: 'For invalid_input: every failing field as {field, message}.' },
      },
    },
    request_id: { type: 'string' },
  },
};

const errorResponses = {
  '400': { $ref: '#/components/responses/Error' },
  '404': { $ref: '#/components/responses/Error' },
  '413': { $ref: '#/components/responses/Error' },
  '415': { $ref: '#/components/responses/Error' },
  '429': { $ref: '#/components/responses/Error' },
  '500': { $ref: '#/components/responses/Error' },
};

export function openApiDocument(base: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of restRoutes) {
    const schema = inputJsonSchema(route.operation.input) as { properties?: Record<string, any>; required?: string[] };
    const operation: Record<string, unknown> = {
      operationId: route.operation.name,
      summary: route.summary,
      description: route.operation.description,
      responses: {
        '200': { description: 'ok: true and the result' },
        ...Object.fromEntries(Object.entries(route.responses ?? {}).map(([status, description]) => [status, { description }])),
        ...errorResponses,
      },
    };
    if (route.from === 'query') {
      operation.parameters = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
        name,
        in: 'query',
        required: (schema.required ?? []).includes(name),
        description: s.description,
        schema: { ...s, description: undefined },
      }));
    } else {
      operation.requestBody = { required: true, content: { 'application/json': { schema } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  for (const path of MCP_PATHS) {
    paths[path] = {
      post: {
        operationId: `mcp_${path.replace(/\W+/g, '_')}`,
        summary: 'MCP JSON-RPC 2.0 (stateless streamable HTTP): initialize, ping, tools/list, tools/call',
        requestBody: { required: true, content: { 'application/json': { schema: { type: ['object', 'array'] } } } },
        responses: { '200': { description: 'JSON-RPC response' }, '202': { description: 'notification accepted' } },
      },
      get: { summary: 'Server info; 405 when asked for an SSE stream', responses: { '200': { description: 'info object' }, '405': { description: 'no SSE stream' } } },
    };
  }
  paths['/healthz'] = { get: { summary: 'The process is up', responses: { '200': { description: 'ok' } } } };
  paths['/metrics'] = { get: { summary: 'Prometheus metrics (text exposition format)', responses: { '200': { description: 'metrics' } } } };
  paths['/readyz'] = { get: { summary: 'The database answers', responses: { '200': { description: 'ok' }, '503': { $ref: '#/components/responses/Error' } } } };
  return {
    openapi: '3.1.0',
    info: { title: 'Rollcall registry', version: '1.9.0', description: 'A public registry of A2A agents and MCP servers, probed for real before they are listed.' },
    servers: [{ url: base }],
    paths,
    components: {
      responses: { Error: { description: 'Error', content: { 'application/json': { schema: errorSchema } } } },
    },
  };
}

export function registerOpenApi(app: FastifyInstance, services: Services) {
  const doc = openApiDocument(services.config.publicBaseUrl);
  app.get('/openapi.json', async () => doc);
}
