// Counters of budgets shared by every instance: in the database (one conditional upsert, so two
// instances never pass a limit together), or in Redis when it is configured (INCR, given back when
// it passed the limit). A take that would pass the limit takes nothing.
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Executor } from '../db/executor.ts';
import { budgetTables as q } from './tables.ts';

export interface BudgetCounters {
  /** Counts one more under `key` in `period` when fewer than `limit` are counted: whether it did. */
  takeBelow(key: string, period: string, limit: number, ttlMs: number): Promise<boolean>;
  /** How many are counted under `key` in `period`. */
  count(key: string, period: string): Promise<number>;
}

export class DbCounters implements BudgetCounters {
  constructor(private readonly db: Executor) {}

  async takeBelow(key: string, period: string, limit: number): Promise<boolean> {
    if (limit < 1) return false;
    const row = await q(this.db)
      .insertInto('budget_counters')
      .values({ key, period, n: 1 })
      .onConflict((oc) => oc.columns(['key', 'period']).doUpdateSet({ n: sql`budget_counters.n + 1` }).where('budget_counters.n', '<', limit))
      .returning('n')
      .executeTakeFirst();
    return row !== undefined;
  }

  async count(key: string, period: string): Promise<number> {
    const row = await q(this.db).selectFrom('budget_counters').select('n').where('key', '=', key).where('period', '=', period).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

/** Periods older than `before` (a UTC day) are of no use: the sweep removes them. */
export async function pruneBudgetCounters(ex: Executor, before: string): Promise<void> {
  await q(ex).deleteFrom('budget_counters').where('period', '<', before).execute();
}

export class RedisCounters implements BudgetCounters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Where the counts go while Redis is unreachable (the database). */
    private readonly fallback: BudgetCounters,
  ) {}

  private keyOf(key: string, period: string) {
    return `${this.prefix}budget:${key}:${period}`;
  }

  async takeBelow(key: string, period: string, limit: number, ttlMs: number): Promise<boolean> {
    if (limit < 1) return false;
    const redisKey = this.keyOf(key, period);
    try {
      const replies = await this.redis.multi().incr(redisKey).pexpire(redisKey, ttlMs).exec();
      const n = Number(replies?.[0]?.[1]);
      if (!Number.isFinite(n)) throw new Error('no count from Redis');
      if (n <= limit) return true;
      await this.redis.decr(redisKey);
      return false;
    } catch {
      return this.fallback.takeBelow(key, period, limit, ttlMs);
    }
  }

  async count(key: string, period: string): Promise<number> {
    try {
      return Number((await this.redis.get(this.keyOf(key, period))) ?? 0);
    } catch {
      return this.fallback.count(key, period);
    }
  }
}
