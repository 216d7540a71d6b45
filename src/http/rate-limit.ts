// Per-address limits (DESIGN.md "Limits"): reads and writes counted apart, per minute; shared
// across instances through Redis when REDIS_URL is set (while Redis is unreachable, each instance
// counts on its own). 0 turns a limit off. Every request counts as one of its kind, except on the
// JSON-RPC endpoints: there every message counts (a batch is as many requests as it has messages),
// so the MCP and A2A doors charge each message themselves (RequestLimits.takeMessages).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { MemoryWindow, RedisWindow, type RateWindow } from '../platform/rate-window.ts';

export type RequestKind = 'read' | 'write';

const WINDOW_MS = 60_000;

export interface LimitState {
  limit: number;
  remaining: number;
  resetS: number;
}

/** How many of a caller's requests of one kind fit its minute; off: a limit of 0. */
export interface Taken extends LimitState {
  allowed: number;
}

export const isReadMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

export const limitHeaders = (s: LimitState): Record<string, string> => ({
  'ratelimit-limit': String(s.limit),
  'ratelimit-remaining': String(s.remaining),
  'ratelimit-reset': String(s.resetS),
});

export const rateLimited = (kind: RequestKind, s: LimitState) =>
  new AppError(429, 'rate_limited', `rate limit of ${s.limit} ${kind}s per minute reached; retry in ${s.resetS} s`, undefined, { retry_after_s: s.resetS, limit: s.limit }).withHeaders({
    ...limitHeaders(s),
    'retry-after': String(s.resetS),
  });

export class RequestLimits {
  private readonly window: RateWindow;
  constructor(
    private readonly config: Pick<Config, 'rateLimitReadPerMin' | 'rateLimitWritePerMin' | 'redisPrefix'>,
    private readonly clock: Clock,
    redis?: Redis,
  ) {
    this.window = redis ? new RedisWindow(redis, `${config.redisPrefix}rl:`) : new MemoryWindow();
  }

  private limitOf(kind: RequestKind): number {
    return kind === 'read' ? this.config.rateLimitReadPerMin : this.config.rateLimitWritePerMin;
  }

  /** Takes `n` requests of `kind` for `address`: how many of them fit (the first ones), or undefined when the limit is off. */
  async take(address: string, kind: RequestKind, n = 1): Promise<Taken | undefined> {
    const limit = this.limitOf(kind);
    if (limit === 0 || n === 0) return undefined;
    const t = await this.window.take(`${kind === 'read' ? 'r' : 'w'}:${address}`, limit, WINDOW_MS, this.clock.now().getTime(), n);
    const before = t.count - n;
    return { allowed: Math.max(0, Math.min(n, limit - before)), limit, remaining: t.remaining, resetS: t.resetS };
  }

  /**
   * Takes one request per message, each of its own kind, in order: which messages fit. Messages of
   * a kind whose limit is off always fit.
   */
  async takeMessages(address: string, kinds: readonly RequestKind[]): Promise<{ fits: boolean[]; refused: Partial<Record<RequestKind, LimitState>> }> {
    const fits = kinds.map(() => true);
    const refused: Partial<Record<RequestKind, LimitState>> = {};
    for (const kind of ['read', 'write'] as const) {
      const indexes = kinds.flatMap((k, i) => (k === kind ? [i] : []));
      const taken = await this.take(address, kind, indexes.length);
      if (!taken || taken.allowed === indexes.length) continue;
      for (const i of indexes.slice(taken.allowed)) fits[i] = false;
      refused[kind] = taken;
    }
    return { fits, refused };
  }
}

/** Which paths count messages: the JSON-RPC doors. */
export interface RateLimitPaths {
  /** JSON-RPC endpoints: their doors count each message of a POST themselves. */
  jsonRpc: readonly string[];
}

/**
 * Counts every request of a route that is not a JSON-RPC endpoint, answers 429 `rate_limited` with
 * Retry-After past the limit, and sends the RateLimit headers on every counted answer. A route
 * registered with `config: { rateLimit: false }` (the health routes an orchestrator polls) is not
 * counted.
 */
export function registerRateLimit(app: FastifyInstance, limits: RequestLimits, paths: RateLimitPaths) {
  const perMessage = new Set(paths.jsonRpc);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const path = request.url.split('?')[0]!;
    if (request.method === 'POST' && perMessage.has(path)) return;
    if ((request.routeOptions.config as { rateLimit?: boolean } | undefined)?.rateLimit === false) return;
    const kind: RequestKind = isReadMethod(request.method) ? 'read' : 'write';
    const taken = await limits.take(request.ip, kind);
    if (!taken) return;
    // The error handler shapes the refusal (the registry API's own body under /v0.1).
    if (taken.allowed === 0) throw rateLimited(kind, taken);
    reply.headers(limitHeaders(taken));
  });
}
