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

/** Outcomes per UTC day since a day and per `from` label (get_exonomics): count, ok count, summed quality. */
export async function dailyOutcomes(ex: Executor, sinceDay: string): Promise<{ day: string; from: string | null; count: number; ok: number; quality: number }[]> {
  const rows = await q(ex)
    .selectFrom('trace_outcomes')
    .select((eb) => ['day', 'from_label', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('ok').as('ok'), eb.fn.sum<number>('quality').as('q')])
    .where('day', '>=', sinceDay)
    .groupBy(['day', 'from_label'])
    .execute();
  return rows
    .map((r) => ({ day: r.day, from: r.from_label, count: Number(r.n), ok: Number(r.ok ?? 0), quality: Number(r.q ?? 0) }))
    .sort((a, b) => a.day.localeCompare(b.day) || (a.from ?? '').localeCompare(b.from ?? ''));
}

/** What each listing received from others (abundance_rank): outcomes (count, summed quality) and endorsements. */
export async function receivedByListing(ex: Executor): Promise<Map<string, { outcomes: number; quality: number; endorsements: number }>> {
  const out = new Map<string, { outcomes: number; quality: number; endorsements: number }>();
  const entry = (id: string) => out.get(id) ?? { outcomes: 0, quality: 0, endorsements: 0 };
  const outcomes = await q(ex)
    .selectFrom('trace_outcomes')
    .select((eb) => ['listing_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('quality').as('q')])
    .where('listing_id', 'is not', null)
    .groupBy('listing_id')
    .execute();
  for (const r of outcomes) out.set(r.listing_id!, { ...entry(r.listing_id!), outcomes: Number(r.n), quality: Number(r.q ?? 0) });
  const endorsed = await q(ex).selectFrom('trace_endorsements').select((eb) => ['to_listing_id', eb.fn.countAll<number>().as('n')]).groupBy('to_listing_id').execute();
  for (const r of endorsed) out.set(r.to_listing_id, { ...entry(r.to_listing_id), endorsements: Number(r.n) });
  return out;
}
