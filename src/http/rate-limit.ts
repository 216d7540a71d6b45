// Per-address limits (DESIGN.md "Limits"): reads and writes counted apart, per minute; shared
// across instances through Redis when REDIS_URL is set. 0 turns a limit off.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';

const isRead = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS';

export async function registerRateLimit(app: FastifyInstance, config: Config) {
  const read = config.rateLimitReadPerMin;
  const write = config.rateLimitWritePerMin;
  if (read === 0 && write === 0) return;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 }) : undefined;
  if (redis) {
    // While Redis is unreachable the limits let requests through (skipOnError); say so once a minute, not per retry.
    let lastWarned = 0;
    redis.on('error', (err) => {
      if (Date.now() - lastWarned < 60_000) return;
      lastWarned = Date.now();
      app.log.warn({ err: err.message }, 'Redis unreachable: rate limits are not shared until it is back');
    });
    app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  }
  await app.register(rateLimit, {
    global: true,
    timeWindow: 60_000,
    enableDraftSpec: true, // RateLimit-* headers and Retry-After
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}rl:`, skipOnError: true } : {}),
    // Reads and writes are separate budgets, so a burst of polling never blocks a publish.
    keyGenerator: (request) => `${isRead(request) ? 'r' : 'w'}:${request.ip}`,
    max: (request) => (isRead(request) ? read : write),
    allowList: (request) => (isRead(request) ? read === 0 : write === 0),
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`rate limit of ${context.max} requests per minute reached; retry in ${context.after}`), { statusCode: 429 }),
  });
}
