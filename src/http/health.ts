// /healthz: the process is up. /readyz: the database answers. /metrics: Prometheus text (counts
// only, no personal data). None is rate limited.
import type { FastifyInstance } from 'fastify';
import type { BaseServices } from '../platform/operation.ts';

export function registerHealth(app: FastifyInstance, services: BaseServices) {
  const config = { rateLimit: false };
  app.get('/healthz', { config }, async () => ({ ok: true, version: services.config.version }));
  app.get('/metrics', { config }, async (_request, reply) => {
    const { registry } = services.metrics;
    return reply.type(registry.contentType).send(await registry.metrics());
  });
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
