// What the service itself serves, counted where it happens (requests in the app's response hook,
// tool calls in runOperation, probe fetches in the prober) without a database write per event:
// counts add up in memory per UTC day and name, and a flush adds them to `usage_counters` in one
// upsert per row (on a timer, at shutdown, and before a reader that wants them current). Several
// instances add to the same rows, so the stored counts are the whole service's.
import { sql } from 'kysely';
import { DAY_MS, type Clock } from '../clock.ts';
import type { Executor } from '../db/executor.ts';
import { usageTables as q } from './tables.ts';

/** Counter names get_platform_cost reports (DESIGN.md "Other tunables" name their unit costs). */
export const COUNTERS = { requests: 'requests', toolCalls: 'tool_calls', probeFetches: 'probe_fetches' } as const;
export const toolCounter = (tool: string) => `tool:${tool}`;

export class UsageCounters {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ex: Executor,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Adds to today's count of `name` in memory: a Map update, nothing more. */
  count(name: string, n = 1): void {
    const key = `${this.today()}\t${name}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
  }

  /** The UTC day of now, formatted once per day rather than per count (several counts per request). */
  private day = { start: 0, end: 0, text: '' };
  private today(): string {
    const now = this.clock.now().getTime();
    if (now < this.day.start || now >= this.day.end) {
      const start = now - (((now % DAY_MS) + DAY_MS) % DAY_MS);
      this.day = { start, end: start + DAY_MS, text: new Date(start).toISOString().slice(0, 10) };
    }
    return this.day.text;
  }

  /** Adds the counts held in memory to the stored rows; counts that fail to land are kept for the next flush. */
  flush(): Promise<void> {
    // Flushes run one after another, so a reader's flush waits for the timer's.
    this.flushing = this.flushing.then(() => this.flushNow());
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      for (const [key, n] of batch) {
        const [day, name] = key.split('\t') as [string, string];
        await q(this.ex)
          .insertInto('usage_counters')
          .values({ day, name, n })
          .onConflict((oc) => oc.columns(['day', 'name']).doUpdateSet({ n: sql<number>`usage_counters.n + excluded.n` }))
          .execute();
        batch.delete(key);
      }
    } catch (err) {
      for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
      this.onError(err);
    }
  }

  /** Flushes every `periodMs` (0: only when asked); the timer never keeps the process alive. */
  start(periodMs: number): void {
    if (periodMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.flush(), periodMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

/** Stored counts per day and name since a day (inclusive), oldest first. */
export async function countersSince(ex: Executor, sinceDay: string, names?: readonly string[]): Promise<{ day: string; name: string; n: number }[]> {
  let sel = q(ex).selectFrom('usage_counters').select(['day', 'name', 'n']).where('day', '>=', sinceDay);
  if (names) sel = sel.where('name', 'in', [...names]);
  const rows = await sel.orderBy('day').orderBy('name').execute();
  return rows.map((r) => ({ day: r.day, name: r.name, n: Number(r.n) }));
}
