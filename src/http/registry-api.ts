// The sub-registry door: the generic MCP registry API over the catalog, so clients that speak the
// official registry API can point at Rollcall. `GET /v0.1/servers` (cursor, limit, search,
// updated_since, version, include_deleted), `GET /v0.1/servers/{serverName}/versions` and
// `GET /v0.1/servers/{serverName}/versions/{version}` (`latest` included). Server names contain a
// slash: it may come URL-encoded (%2F, as the API says) or bare, and both are served. Errors are the
// API's own `{error}` body (registry-api-errors.ts); the writes it defines answer 501
// (registry-api-unserved.ts). The paths are described in /openapi.json from the same operations.
import type { FastifyInstance } from 'fastify';
import { inputJsonSchema, runOperation, type BaseServices } from '../platform/operation.ts';
import { AppError, badRequest } from '../platform/errors.ts';
import { requestCtx } from './context.ts';
import { sendError } from './errors.ts';
import { getCatalogServerVersion, listCatalogServers, listCatalogServerVersions } from '../registry/catalog-view.ts';
import { REGISTRY_API_PATH, REGISTRY_PUBLISH_PATH, registerUnservedRoutes, unservedMethod } from './registry-api-unserved.ts';

export { REGISTRY_API_PATH };

/** What a path below /v0.1/servers/ asks for: a server's versions, or one version of it. */
export function parseServerPath(url: string): { name: string; version?: string } | undefined {
  const path = url.split(/[?#]/, 1)[0]!;
  if (!path.startsWith(`${REGISTRY_API_PATH}/`)) return undefined;
  let segments: string[];
  try {
    segments = path
      .slice(REGISTRY_API_PATH.length + 1)
      .split('/')
      .map((s) => decodeURIComponent(s));
  } catch {
    throw badRequest('invalid_path', 'the path is not valid percent-encoding');
  }
  const at = segments.lastIndexOf('versions');
  // `versions` is last (the list) or next to last (one version); the name is everything before it.
  if (at < 1 || at < segments.length - 2) return undefined;
  const name = segments.slice(0, at).join('/');
  const version = segments[at + 1];
  if (version === '') return undefined;
  return version === undefined ? { name } : { name, version };
}

export function registerRegistryApi(app: FastifyInstance, services: BaseServices) {
  app.get(REGISTRY_API_PATH, (request) => runOperation(listCatalogServers, requestCtx(services, request), request.query, 'rest'));
  app.get(`${REGISTRY_API_PATH}/*`, (request) => {
    const target = parseServerPath(request.url);
    if (!target) {
      throw new AppError(404, 'not_found', `no such route; use ${REGISTRY_API_PATH}/{serverName}/versions or ${REGISTRY_API_PATH}/{serverName}/versions/{version}`);
    }
    const ctx = requestCtx(services, request);
    const input = { ...target, include_deleted: (request.query as { include_deleted?: unknown }).include_deleted };
    return target.version === undefined ? runOperation(listCatalogServerVersions, ctx, input, 'rest') : runOperation(getCatalogServerVersion, ctx, input, 'rest');
  });
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: `${REGISTRY_API_PATH}/*`,
    handler: (request, reply) => sendError(unservedMethod(request.method, request.url.split(/[?#]/, 1)[0]!, parseServerPath(request.url)), request, reply),
  });
  registerUnservedRoutes(app);
}

const limitedRef = { $ref: '#/components/responses/RegistryRateLimited' };
/** An error answer in the registry API's own body. */
const registryError = (description: string) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } } } },
});
const internal = registryError('Internal error (the request id is in the x-request-id header)');
const includeDeletedParam = (description: string) => ({ name: 'include_deleted', in: 'query', required: false, description, schema: { type: 'boolean', default: false } });

const pathParam = (name: string, description: string, example: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string', examples: [example] } });
const serverNameParam = pathParam('serverName', 'URL-encoded server name (the slash as %2F; a bare slash is accepted too).', 'io.github.owner%2Frepo');
const versionParam = pathParam('version', 'URL-encoded version, or "latest".', '1.0.2');

/** A write the API defines and this mirror answers 501. */
const unservedWrite = (operationId: string, summary: string, parameters: unknown[]) => ({
  operationId,
  tags: ['registry'],
  summary,
  description: 'Optional in the registry API; this registry is a read-only mirror and answers 501.',
  parameters,
  responses: { '429': limitedRef, '501': registryError('Not implemented by this registry') },
});

/** The /v0.1 paths for /openapi.json, generated from the operations. */
export function registryApiPaths(): Record<string, Record<string, unknown>> {
  const list = inputJsonSchema(listCatalogServers.input) as { properties?: Record<string, { description?: string }>; required?: string[] };
  const serverResponse = { type: 'object', required: ['server', '_meta'], properties: { server: { type: 'object' }, _meta: { type: 'object' } } };
  const itemList = {
    description: '{servers: [{server, _meta}], metadata: {nextCursor?, count}}',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['servers', 'metadata'],
          properties: { servers: { type: 'array', items: serverResponse }, metadata: { type: 'object', required: ['count'], properties: { nextCursor: { type: 'string' }, count: { type: 'integer' } } } },
        },
      },
    },
  };
  const notFound = registryError('No such server or version');
  return {
    [REGISTRY_API_PATH]: {
      get: {
        operationId: listCatalogServers.name,
        tags: ['registry'],
        summary: 'List catalog servers (generic MCP registry API v0.1)',
        description: listCatalogServers.description,
        parameters: Object.entries(list.properties ?? {}).map(([name, s]) =>
          name === 'include_deleted'
            ? includeDeletedParam(s.description ?? '')
            : { name, in: 'query', required: (list.required ?? []).includes(name), description: s.description, schema: { ...s, description: undefined } },
        ),
        responses: { '200': itemList, '400': registryError('Bad parameter'), '429': limitedRef, '500': internal },
      },
    },
    [`${REGISTRY_API_PATH}/{serverName}/versions`]: {
      get: {
        operationId: listCatalogServerVersions.name,
        tags: ['registry'],
        summary: 'List the versions of a catalog server',
        description: listCatalogServerVersions.description,
        parameters: [serverNameParam, includeDeletedParam('Also versions upstream marked deleted (default false).')],
        responses: { '200': itemList, '400': registryError('Bad parameter'), '404': notFound, '429': limitedRef, '500': internal },
      },
    },
    [`${REGISTRY_API_PATH}/{serverName}/versions/{version}`]: {
      get: {
        operationId: getCatalogServerVersion.name,
        tags: ['registry'],
        summary: 'Get one version of a catalog server ("latest" for its latest)',
        description: getCatalogServerVersion.description,
        parameters: [serverNameParam, versionParam, includeDeletedParam('Also a version upstream marked deleted (default false).')],
        responses: { '200': { description: '{server, _meta}', content: { 'application/json': { schema: serverResponse } } }, '400': registryError('Bad parameter'), '404': notFound, '429': limitedRef, '500': internal },
      },
      put: unservedWrite('update_catalog_server_version', 'Update a server version (not implemented: 501)', [serverNameParam, versionParam]),
      delete: unservedWrite('delete_catalog_server_version', 'Delete a server version (not implemented: 501)', [serverNameParam, versionParam]),
    },
    [REGISTRY_PUBLISH_PATH]: {
      post: unservedWrite('publish_catalog_server', 'Publish a server to the registry (not implemented: 501)', []),
    },
  };
}
