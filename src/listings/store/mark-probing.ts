// The lane a listing shows while its probe runs: written when the probe job is claimed, in the
// claim's transaction, so a probe costs no transaction of its own for it.
//
// Lock order: every transaction that writes a listing and its job locks the listing first (publish,
// the probe's result, deletion, check_liveness), except the claim, which must pick jobs before it
// knows their listings. So the claim never waits for a listing: on PostgreSQL a listing another
// transaction holds is skipped (SKIP LOCKED) and keeps its lane until the probe's result is written.
// Waiting there closed a cycle with a republish holding the listing and waiting for the job (40P01).
import { takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { recordChanges } from '../../platform/db/changes.ts';
import { listingTables as q } from '../tables.ts';
import { LISTING_ENTITY, toRow, type ListingRow } from './row.ts';

/** Lanes that show `probing` while a probe runs (a Live or dormant listing keeps its lane). */
const SHOWN_PROBING = ['queued', 'failed'] as const;

/**
 * Moves the listings `ids` that are queued or failed to the `probing` lane (one statement for all,
 * each change fed). Returns every listing found as it was before, by id.
 */
export async function markProbing(trx: Executor, ids: readonly string[], now: string): Promise<Map<string, ListingRow>> {
  if (!ids.length) return new Map();
  const rows = (await q(trx).selectFrom('listings').selectAll().where('id', 'in', [...ids]).execute()).map(toRow);
  const waiting = rows.filter((r) => (SHOWN_PROBING as readonly string[]).includes(r.lane)).map((r) => r.id);
  if (waiting.length) {
    // The lane is checked again by the update itself: a listing that moved meanwhile keeps its lane.
    const free = takesRowLocks(trx)
      ? q(trx).selectFrom('listings').select('id').where('id', 'in', waiting).where('lane', 'in', SHOWN_PROBING).forUpdate().skipLocked()
      : waiting;
    const moved = await q(trx).updateTable('listings').set({ lane: 'probing', updated_at: now }).where('id', 'in', free).where('lane', 'in', SHOWN_PROBING).returning('id').execute();
    await recordChanges(trx, LISTING_ENTITY, moved.map((r) => r.id), 'upsert', now);
  }
  return new Map(rows.map((r) => [r.id, r]));
}
