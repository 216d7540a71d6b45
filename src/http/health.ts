// /healthz: the process is up. /readyz: the database answers. Neither is rate limited. /metrics is
// not here: it has a listener of its own (platform/metrics-listener.ts), off the public port.
import type { FastifyInstance } from 'fastify';
import type { BaseServices } from '../platform/operation.ts';

export function registerHealth(app: FastifyInstance, services: BaseServices) {
  const config = { rateLimit: false };
  app.get('/healthz', { config }, async () => ({ ok: true, version: services.config.version }));
  app.get('/readyz', { config }, async (request, reply) => {
    try {
      await services.db.ping();
      return { ok: true, database: services.db.engine };
    } catch (err) {
      request.log.warn({ err }, 'database not reachable');
      return reply.code(503).send({
        ok: false,
        error: { code: 'database_unreachable', message: `the ${services.db.engine} database does not answer` },
        request_id: request.id,
      });
    }
  });
}
