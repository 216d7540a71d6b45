// Outcome records (SPEC.md 2.7): kept apart from the decaying field, because network value sums
// their quality (DESIGN.md network_value Q) and loop ticks read a caller's outcomes since its last tick.
import type { Executor } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { traceTables as q } from './tables.ts';

export interface Outcome {
  id: string;
  listing_id: string | null;
  ok: boolean;
  quality: number;
  body: string | null;
  from: string | null;
  depositor: string;
  at: string;
}

export async function recordOutcome(ex: Executor, o: Omit<Outcome, 'id'>): Promise<Outcome> {
  const id = newId('out');
  await q(ex)
    .insertInto('trace_outcomes')
    .values({ id, listing_id: o.listing_id, ok: o.ok ? 1 : 0, quality: o.quality, body: o.body, from_label: o.from, depositor: o.depositor, day: o.at.slice(0, 10), at: o.at })
    .execute();
  return { id, ...o };
}

/** Outcomes after `sinceIso` (exclusive), oldest first, by depositor and/or listing. */
export async function outcomesSince(ex: Executor, by: { depositor?: string; listing_id?: string }, sinceIso: string, limit: number): Promise<Outcome[]> {
  let sel = q(ex).selectFrom('trace_outcomes').selectAll().where('at', '>', sinceIso).orderBy('at').orderBy('id').limit(limit);
  if (by.depositor !== undefined) sel = sel.where('depositor', '=', by.depositor);
  if (by.listing_id !== undefined) sel = sel.where('listing_id', '=', by.listing_id);
  return (await sel.execute()).map((r) => ({ id: r.id, listing_id: r.listing_id, ok: Number(r.ok) === 1, quality: Number(r.quality), body: r.body, from: r.from_label, depositor: r.depositor, at: r.at }));
}

/** Count and summed quality of outcomes up to a time, optionally of one listing (network value Q). */
export async function outcomeTotals(ex: Executor, untilIso: string, listingId?: string): Promise<{ count: number; quality: number }> {
  let sel = q(ex)
    .selectFrom('trace_outcomes')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('quality'), eb.lit(0)).as('q')])
    .where('at', '<=', untilIso);
  if (listingId !== undefined) sel = sel.where('listing_id', '=', listingId);
  const row = await sel.executeTakeFirstOrThrow();
  return { count: Number(row.n), quality: Number(row.q) };
}

/** The newest outcomes deposited by a caller or reported on a listing (get_agent_runs), newest first. */
export async function recentOutcomes(ex: Executor, by: { depositor: string; listing_id?: string }, limit: number): Promise<Outcome[]> {
  const rows = await q(ex)
    .selectFrom('trace_outcomes')
    .selectAll()
    .where((eb) => (by.listing_id !== undefined ? eb.or([eb('depositor', '=', by.depositor), eb('listing_id', '=', by.listing_id)]) : eb('depositor', '=', by.depositor)))
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, listing_id: r.listing_id, ok: Number(r.ok) === 1, quality: Number(r.quality), body: r.body, from: r.from_label, depositor: r.depositor, at: r.at }));
}
