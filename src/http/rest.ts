// The REST door (SPEC.md 4.1): maps query or body to an operation's input and its result to JSON.
import type { FastifyInstance } from 'fastify';
import type { Operation, Services } from '../platform/operation.ts';
import { runOperation } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { requestCtx } from './context.ts';
import { ResponseCache, matchesEtag } from './response-cache.ts';
import { latestChange } from '../platform/db/changes.ts';
import { publish, checkStatus } from '../listings/operations.ts';
import { listActiveListings } from '../listings/active.ts';
import { talkCheckIn } from '../talk/operations.ts';
import { freeScore, scoreRubric } from '../probe/operations.ts';

export interface RestRoute {
  method: 'GET' | 'POST';
  path: string;
  operation: Operation<any, any>;
  /** Where the input comes from; `body` routes require a JSON object body. */
  from: 'query' | 'body';
  summary: string;
  /** Serve from the response cache while the change feed stands still (ETag, 304). */
  cached?: boolean;
  /** Statuses beyond 200 and the common errors, for /openapi.json. */
  responses?: Record<string, string>;
}

export const restRoutes: RestRoute[] = [
  { method: 'POST', path: '/api/publish', operation: publish, from: 'body', summary: 'List an agent card or MCP server URL' },
  { method: 'GET', path: '/api/listings/status', operation: checkStatus, from: 'query', summary: 'Status of a listing by id or name' },
  {
    method: 'GET',
    path: '/api/listings/active',
    operation: listActiveListings,
    from: 'query',
    summary: 'Live listings in the funnel envelope',
    cached: true,
    responses: { '304': 'Not modified: the If-None-Match ETag is current', '410': 'cursor_expired: start again without cursor' },
  },
  { method: 'GET', path: '/api/talk', operation: talkCheckIn, from: 'query', summary: 'Talk check-in, inbox and next actions' },
  { method: 'GET', path: '/api/score', operation: freeScore, from: 'query', summary: 'Free score of any card or MCP URL (no listing)' },
  { method: 'GET', path: '/api/score/rubric', operation: scoreRubric, from: 'query', summary: 'How the trust score is made' },
];

export function registerRest(app: FastifyInstance, services: Services) {
  const cache = new ResponseCache(services.config.activeCacheMs);
  for (const route of restRoutes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const raw = route.from === 'query' ? request.query : request.body;
        if (route.from === 'body' && (raw === undefined || raw === null)) {
          throw badRequest('body_required', 'a JSON object body is required (content-type: application/json)');
        }
        const run = () => runOperation(route.operation, requestCtx(services, request), raw, 'rest');
        if (!route.cached) return run();
        // Keyed by the parsed input, so unknown or reordered query parameters share one entry.
        const parsed = route.operation.input.safeParse(raw ?? {});
        if (!parsed.success) return run(); // answers with the invalid_input error
        const key = `${route.path}${JSON.stringify(parsed.data)}`;
        const version = await latestChange(services.db.kysely);
        const now = services.clock.now().getTime();
        const entry = cache.get(key, version, now) ?? cache.set(key, version, now, await run());
        reply.header('etag', entry.etag).header('cache-control', 'no-cache');
        if (matchesEtag(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
        return reply.type('application/json; charset=utf-8').send(entry.body);
      },
    });
  }
}
