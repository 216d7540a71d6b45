// Counters of budgets shared by every instance: in the database (one conditional upsert, so two
// instances never pass a limit together), or in Redis when it is configured (INCR, given back when
// it passed the limit). A take that would pass the limit takes nothing.
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Executor } from '../db/executor.ts';
import { known, part, together, write, type Part } from '../db/together.ts';
import { budgetTables as q } from './tables.ts';

export interface BudgetCounters {
  /** Counts `n` more under `key` in `period` when the count stays within `limit`: whether it did (all or nothing). */
  takeBelow(key: string, period: string, limit: number, ttlMs: number, n?: number): Promise<boolean>;
  /**
   * takeBelow as a part of the caller's batch (platform/db/together.ts), so the count commits or
   * rolls back with the caller's writes: in the database a statement; in Redis taken now.
   */
  takePart(key: string, period: string, limit: number, ttlMs: number, n?: number): Promise<Part<boolean>>;
  /** How many are counted under `key` in `period`. */
  count(key: string, period: string): Promise<number>;
  /**
   * Uncounts `n` taken earlier under `key` in `period` (taken ahead and not used). In the database
   * it is a statement for the caller to send with its own (platform/db/together.ts); in Redis it
   * is done now and the part sends nothing.
   */
  giveBack(key: string, period: string, n: number): Promise<Part<void>>;
}

export class DbCounters implements BudgetCounters {
  constructor(private readonly db: Executor) {}

  async takeBelow(key: string, period: string, limit: number, ttlMs = 0, n = 1): Promise<boolean> {
    const [taken] = await together(this.db, [await this.takePart(key, period, limit, ttlMs, n)]);
    return taken;
  }

  async takePart(key: string, period: string, limit: number, _ttlMs?: number, n = 1): Promise<Part<boolean>> {
    if (n < 1 || limit < n) return known(false);
    const upsert = q(this.db)
      .insertInto('budget_counters')
      .values({ key, period, n })
      .onConflict((oc) =>
        oc
          .columns(['key', 'period'])
          .doUpdateSet({ n: sql`budget_counters.n + ${n}` })
          .where('budget_counters.n', '<=', limit - n),
      )
      .returning('n');
    return part(upsert, (rows) => rows.length > 0);
  }

  async giveBack(key: string, period: string, n: number): Promise<Part<void>> {
    if (n < 1) return known(undefined);
    return write(q(this.db).updateTable('budget_counters').set({ n: sql`budget_counters.n - ${n}` }).where('key', '=', key).where('period', '=', period));
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

  async takeBelow(key: string, period: string, limit: number, ttlMs: number, n = 1): Promise<boolean> {
    if (n < 1 || limit < n) return false;
    const redisKey = this.keyOf(key, period);
    try {
      const replies = await this.redis.multi().incrby(redisKey, n).pexpire(redisKey, ttlMs).exec();
      const count = Number(replies?.[0]?.[1]);
      if (!Number.isFinite(count)) throw new Error('no count from Redis');
      if (count <= limit) return true;
      await this.redis.decrby(redisKey, n);
      return false;
    } catch {
      return this.fallback.takeBelow(key, period, limit, ttlMs, n);
    }
  }

  async takePart(key: string, period: string, limit: number, ttlMs: number, n = 1): Promise<Part<boolean>> {
    return known(await this.takeBelow(key, period, limit, ttlMs, n));
  }

  async giveBack(key: string, period: string, n: number): Promise<Part<void>> {
    if (n < 1) return known(undefined);
    try {
      await this.redis.decrby(this.keyOf(key, period), n);
      return known(undefined);
    } catch {
      // Redis unreachable: the unused count stays until its period ends (an overcount, never an
      // undercount: where it was taken is not known, and the database may not hold it).
      return known(undefined);
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
