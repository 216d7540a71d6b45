// The sub-registry door (issue 11): the generic MCP registry API over the catalog, so clients that
// speak the official registry API can point at Rollcall. `GET /v0.1/servers` (cursor, limit,
// search, updated_since, version), `GET /v0.1/servers/{serverName}/versions` and
// `GET /v0.1/servers/{serverName}/versions/{version}` (`latest` included). Server names contain a
// slash: it may come URL-encoded (%2F, as the API says) or bare, and both are served. Errors are
// the REST error shape. The paths are described in /openapi.json from the same operations.
import type { FastifyInstance } from 'fastify';
import { inputJsonSchema, runOperation, type BaseServices } from '../platform/operation.ts';
import { AppError, badRequest } from '../platform/errors.ts';
import { requestCtx } from './context.ts';
import { getCatalogServerVersion, listCatalogServers, listCatalogServerVersions } from '../registry/catalog-view.ts';

export const REGISTRY_API_PATH = '/v0.1/servers';

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
    return target.version === undefined ? runOperation(listCatalogServerVersions, ctx, target, 'rest') : runOperation(getCatalogServerVersion, ctx, target, 'rest');
  });
}

const errorRef = { $ref: '#/components/responses/Error' };
const limitedRef = { $ref: '#/components/responses/RegistryRateLimited' };

const pathParam = (name: string, description: string, example: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string', examples: [example] } });
const serverNameParam = pathParam('serverName', 'URL-encoded server name (the slash as %2F; a bare slash is accepted too).', 'io.github.owner%2Frepo');

/** The /v0.1 paths for /openapi.json, generated from the operations. */
export function registryApiPaths(): Record<string, Record<string, unknown>> {
  const list = inputJsonSchema(listCatalogServers.input) as { properties?: Record<string, { description?: string }>; required?: string[] };
  const itemList = { description: '{servers: [{server, _meta}], metadata: {nextCursor?, count}}' };
  return {
    [REGISTRY_API_PATH]: {
      get: {
        operationId: listCatalogServers.name,
        tags: ['registry'],
        summary: 'List catalog servers (generic MCP registry API v0.1)',
        description: listCatalogServers.description,
        parameters: Object.entries(list.properties ?? {}).map(([name, s]) => ({
          name,
          in: 'query',
          required: (list.required ?? []).includes(name),
          description: s.description,
          schema: { ...s, description: undefined },
        })),
        responses: { '200': itemList, '400': errorRef, '429': limitedRef, '500': errorRef },
      },
    },
    [`${REGISTRY_API_PATH}/{serverName}/versions`]: {
      get: {
        operationId: listCatalogServerVersions.name,
        tags: ['registry'],
        summary: 'List the versions of a catalog server',
        description: listCatalogServerVersions.description,
        parameters: [serverNameParam],
        responses: { '200': itemList, '404': errorRef, '429': limitedRef, '500': errorRef },
      },
    },
    [`${REGISTRY_API_PATH}/{serverName}/versions/{version}`]: {
      get: {
        operationId: getCatalogServerVersion.name,
        tags: ['registry'],
        summary: 'Get one version of a catalog server ("latest" for its latest)',
        description: getCatalogServerVersion.description,
        parameters: [serverNameParam, pathParam('version', 'URL-encoded version, or "latest".', '1.0.2')],
        responses: { '200': { description: '{server, _meta}' }, '404': errorRef, '429': limitedRef, '500': errorRef },
      },
    },
  };
}
