// Counts of trace deposits by depositor and channel since a time (the dogfood read surface: how
// often Rollcall itself, depositor "system", marks trails).
import type { Executor } from '../platform/db/executor.ts';
import { traceTables as q } from './tables.ts';

export async function depositCounts(ex: Executor, depositor: string, sinceMs: number): Promise<{ channel: string; deposits: number; intensity: number }[]> {
  const rows = await q(ex)
    .selectFrom('trace_deposits')
    .select((eb) => ['channel', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('intensity').as('sum')])
    .where('depositor', '=', depositor)
    .where('at_ms', '>=', sinceMs)
    .groupBy('channel')
    .execute();
  return rows.map((r) => ({ channel: r.channel, deposits: Number(r.n), intensity: Number(r.sum) })).sort((a, b) => a.channel.localeCompare(b.channel));
}

/** Outcomes reported (deposit_outcome) since a time: count, ok count, average quality. */
export async function outcomeCounts(ex: Executor, sinceIso: string): Promise<{ count: number; ok: number; avg_quality: number | null }> {
  const r = await q(ex)
    .selectFrom('trace_outcomes')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('ok').as('ok'), eb.fn.avg<number>('quality').as('q')])
    .where('at', '>=', sinceIso)
    .executeTakeFirstOrThrow();
  const n = Number(r.n);
  return { count: n, ok: Number(r.ok ?? 0), avg_quality: n ? Math.round(Number(r.q) * 1000) / 1000 : null };
}

/** Trace deposits per UTC day since `sinceDay` (every depositor; the /grow page's trail activity). */
export async function dailyDepositCounts(ex: Executor, sinceDay: string): Promise<{ day: string; deposits: number }[]> {
  const rows = await q(ex).selectFrom('trace_deposits').select((eb) => ['day', eb.fn.countAll<number>().as('n')]).where('day', '>=', sinceDay).groupBy('day').orderBy('day').execute();
  return rows.map((r) => ({ day: r.day, deposits: Number(r.n) }));
}
