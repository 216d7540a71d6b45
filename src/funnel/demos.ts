// Demos taken (SPEC.md 3.1 "Live -> demoed"): one row per listing, written by its first demo, so
// a repeat demo serves what the first one built (and never shows the access token again).
import type { Executor } from '../platform/db/executor.ts';
import { funnelTables as q, type FunnelDemosTable } from './tables.ts';

export type DemoRecord = FunnelDemosTable;

export async function findDemo(ex: Executor, listingId: string): Promise<DemoRecord | undefined> {
  return q(ex).selectFrom('funnel_demos').selectAll().where('listing_id', '=', listingId).executeTakeFirst();
}

/** Records a listing's first demo; false when another demo of it was recorded first. */
export async function insertDemo(trx: Executor, row: DemoRecord): Promise<boolean> {
  const inserted = await q(trx).insertInto('funnel_demos').values(row).onConflict((oc) => oc.column('listing_id').doNothing()).returning('listing_id').executeTakeFirst();
  return inserted !== undefined;
}
