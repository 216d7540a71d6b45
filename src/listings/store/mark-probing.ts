// The lane a listing shows while its probe runs: written when the probe job is claimed, in the
// claim's transaction, so a probe costs no transaction of its own for it.
//
// Lock order: every transaction that writes a listing and its job locks the listing first (publish,
// the probe's result, deletion, check_liveness), except the claim, which must pick jobs before it
// knows their listings. So the claim never waits for a listing: on PostgreSQL a listing another
// transaction holds is skipped (SKIP LOCKED) and keeps its lane until the probe's result is written.
// Waiting there closed a cycle with a republish holding the listing and waiting for the job (40P01).
import { takesRowLocks, type Executor } from '../../platform/db/executor.ts';
import { changesOfPart } from '../../platform/db/changes.ts';
import { part, together, write, type Part } from '../../platform/db/together.ts';
import { listingTables as q, type ListingsTable } from '../tables.ts';
import type { Selectable } from 'kysely';
import { LISTING_ENTITY, toRow, type ListingRow } from './row.ts';

/** Lanes that show `probing` while a probe runs (a Live or dormant listing keeps its lane). */
const SHOWN_PROBING = ['queued', 'failed'] as const;

/**
 * Moves the listings `ids` that are queued or failed to the `probing` lane, each change fed, and
 * returns every listing found as it was before, by id: one batch (platform/db/together.ts), one
 * statement on PostgreSQL, where the read and the change rows see the listings as they were before
 * the update. A listing another transaction holds keeps its lane but is fed as changed all the
 * same: that transaction is changing it.
 */
export async function markProbing(trx: Executor, ids: readonly string[], now: string): Promise<Map<string, ListingRow>> {
  if (!ids.length) return new Map();
  const [rows] = await together(trx, markProbingParts(trx, ids, now));
  return rows;
}

/** markProbing as parts of the caller's batch (its first part's value is the rows); `ids` not empty. */
export function markProbingParts(trx: Executor, ids: readonly string[], now: string): [Part<Map<string, ListingRow>>, Part<void>, Part<void>] {
  const waiting = () => q(trx).selectFrom('listings').where('id', 'in', [...ids]).where('lane', 'in', SHOWN_PROBING);
  const free = takesRowLocks(trx) ? waiting().select('id').forUpdate().skipLocked() : [...ids];
  return [
    part(q(trx).selectFrom('listings').selectAll().where('id', 'in', [...ids]), (found) => new Map((found as Selectable<ListingsTable>[]).map(toRow).map((r) => [r.id, r]))),
    // Before the update: on SQLite the parts run in turn, and the update changes the lanes read here.
    changesOfPart(trx, LISTING_ENTITY, waiting().select('id as entity_id'), 'upsert', now),
    // The lane is checked again by the update itself: a listing that moved meanwhile keeps its lane.
    write(q(trx).updateTable('listings').set({ lane: 'probing', updated_at: now }).where('id', 'in', free).where('lane', 'in', SHOWN_PROBING)),
  ];
}
