// The one Redis connection of an instance (REDIS_URL), shared by the per-address rate limits and
// the per-caller budgets. While Redis is unreachable, callers fall back to their in-process
// counts; the warning is logged once a minute, not per retry.
import { Redis } from 'ioredis';
import type { Logger } from './log.ts';

export function openRedis(url: string, log: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  let lastWarned = 0;
  redis.on('error', (err) => {
    if (Date.now() - lastWarned < 60_000) return;
    lastWarned = Date.now();
    log.warn({ err: err.message }, 'Redis unreachable: limits are counted per instance until it is back');
  });
  return redis;
}

export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}
