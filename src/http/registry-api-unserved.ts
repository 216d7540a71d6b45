// What the registry API defines but this read-only mirror does not do. Its optional writes (publish,
// update and delete of a version) answer 501, as the API says a registry without them should; the
// status changes, which the API gives no 501, answer it too, since nothing here can change an
// upstream entry. Any other method on a path that is served is a 405 with Allow, and anything else
// below /v0.1 a 404, all in the API's `{error}` body (errors.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.ts';
import { sendError } from './errors.ts';
import { REGISTRY_API_PREFIX } from './registry-api-errors.ts';

export const REGISTRY_API_PATH = `${REGISTRY_API_PREFIX}/servers`;
export const REGISTRY_PUBLISH_PATH = `${REGISTRY_API_PREFIX}/publish`;

/** Methods the read paths serve (HEAD comes with GET). */
export const READ_METHODS = 'GET, HEAD';
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

const WHY = "Rollcall's /v0.1 catalog is a read-only mirror of an upstream registry; list a server of your own with POST /api/publish";

export const notImplemented = (what: string) => new AppError(501, 'not_implemented', `${what} not supported by this registry. ${WHY}`);

export const methodNotAllowed = (method: string, path: string) =>
  new AppError(405, 'method_not_allowed', `${method} is not served at ${path}; use ${READ_METHODS}`).withHeaders({ allow: READ_METHODS });

/** A path below /v0.1/servers/ that only a status change (PATCH) uses: `…/status`. */
export const isStatusPath = (path: string) => path.startsWith(`${REGISTRY_API_PATH}/`) && path.endsWith('/status');

/** The error for a method other than GET/HEAD on a path below /v0.1/servers/ (`target`: what the path names, if anything). */
export function unservedMethod(method: string, path: string, target: { name: string; version?: string } | undefined): AppError {
  if (target?.version !== undefined && method === 'PUT') return notImplemented('Updating a server version is');
  if (target?.version !== undefined && method === 'DELETE') return notImplemented('Deleting a server version is');
  if (target) return methodNotAllowed(method, path);
  if (method === 'PATCH' && isStatusPath(path)) return notImplemented('Changing the status of a server is');
  return new AppError(404, 'not_found', `no route ${method} ${path}`);
}

const refuse = (error: AppError) => (request: FastifyRequest, reply: FastifyReply) => sendError(error, request, reply);

/** The list path's other methods, and the publish path (every method). */
export function registerUnservedRoutes(app: FastifyInstance) {
  app.route({ method: OTHER_METHODS, url: REGISTRY_API_PATH, handler: (request, reply) => sendError(methodNotAllowed(request.method, REGISTRY_API_PATH), request, reply) });
  app.route({ method: ['GET', ...OTHER_METHODS], url: REGISTRY_PUBLISH_PATH, handler: refuse(notImplemented('Publishing is')) });
}
