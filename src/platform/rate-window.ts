// Counts per key per fixed window (a minute, say): how many a caller may still do and when the
// window resets. In process, or in Redis so every instance shares the count (DESIGN.md "Caller
// identity": budgets hold across instances). When Redis fails, the in-process count stands in.
import type { Redis } from 'ioredis';

export interface WindowTake {
  allowed: boolean;
  /** The count in this window, this take included. */
  count: number;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetS: number;
}

export interface RateWindow {
  /** Counts `n` more under `key` in the window of `now` (`allowed`: all of them fit). */
  take(key: string, limit: number, windowMs: number, now: number, n?: number): Promise<WindowTake>;
}

const result = (count: number, limit: number, windowStart: number, windowMs: number, now: number): WindowTake => ({
  allowed: count <= limit,
  count,
  limit,
  remaining: Math.max(0, limit - count),
  resetS: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
});

export class MemoryWindow implements RateWindow {
  private readonly counts = new Map<string, { start: number; count: number }>();
  constructor(private readonly maxKeys = 10_000) {}

  async take(key: string, limit: number, windowMs: number, now: number, n = 1): Promise<WindowTake> {
    const start = now - (now % windowMs);
    const entry = this.counts.get(key);
    const current = entry && entry.start === start ? entry : { start, count: 0 };
    current.count += n;
    this.counts.delete(key);
    this.counts.set(key, current);
    // Bounded under many callers: the least recently counted go first.
    while (this.counts.size > this.maxKeys) this.counts.delete(this.counts.keys().next().value!);
    return result(current.count, limit, start, windowMs, now);
  }
}

export class RedisWindow implements RateWindow {
  private readonly fallback = new MemoryWindow();
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async take(key: string, limit: number, windowMs: number, now: number, n = 1): Promise<WindowTake> {
    const start = now - (now % windowMs);
    const redisKey = `${this.prefix}${key}:${start}`;
    try {
      const replies = await this.redis.multi().incrby(redisKey, n).pexpire(redisKey, windowMs * 2).exec();
      const count = Number(replies?.[0]?.[1]);
      if (!Number.isFinite(count)) throw new Error('no count from Redis');
      return result(count, limit, start, windowMs, now);
    } catch {
      return this.fallback.take(key, limit, windowMs, now, n);
    }
  }
}
