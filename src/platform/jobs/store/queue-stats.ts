// The queue's state per kind, for /metrics and `rollcall stats`.
import type { Executor } from '../../db/executor.ts';
import { iso } from '../../clock.ts';
import { leaseFree, q } from './job-row.ts';

export interface QueueStats {
  kind: string;
  due: number;
  running: number;
  oldestDueAt: string | null;
}

/** Per kind: jobs due and free, jobs under a lease, and the oldest due time (for /metrics). */
export async function queueStats(db: Executor, now: Date): Promise<QueueStats[]> {
  const nowIso = iso(now);
  const rows = await q(db)
    .selectFrom('jobs')
    .select((eb) => [
      'kind',
      eb.fn.sum<number>(eb.case().when(eb.and([eb('due_at', '<=', nowIso), leaseFree(nowIso)(eb)])).then(1).else(0).end()).as('due'),
      eb.fn.sum<number>(eb.case().when(eb.and([eb('lease_until', 'is not', null), eb('lease_until', '>=', nowIso)])).then(1).else(0).end()).as('running'),
      eb.fn.min<string>(eb.case().when(eb.and([eb('due_at', '<=', nowIso), leaseFree(nowIso)(eb)])).then(eb.ref('due_at')).else(null).end()).as('oldest'),
    ])
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, due: Number(r.due ?? 0), running: Number(r.running ?? 0), oldestDueAt: r.oldest ?? null }));
}
