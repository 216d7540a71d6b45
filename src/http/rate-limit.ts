// Per-address limits (DESIGN.md "Limits"): reads and writes counted apart, per minute; shared
// across instances through Redis when REDIS_URL is set. 0 turns a limit off.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';

const isRead = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS';

export async function registerRateLimit(app: FastifyInstance, config: Config, redis?: Redis) {
  const read = config.rateLimitReadPerMin;
  const write = config.rateLimitWritePerMin;
  if (read === 0 && write === 0) return;
  // While Redis is unreachable the limits let requests through (skipOnError).
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
