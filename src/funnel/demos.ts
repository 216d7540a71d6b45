// Demos taken (SPEC.md 3.1 "Live -> demoed"): one row per listing and holder (who took it), written
// by that holder's first demo, so a repeat demo serves what the first one built (and never shows
// the access token again). A demo is its caller's: it never replaces what the listing's owner built.
import type { Executor } from '../platform/db/executor.ts';
import { funnelTables as q, type FunnelDemosTable } from './tables.ts';

export type DemoRecord = FunnelDemosTable;

export async function findDemo(ex: Executor, listingId: string, holder: string): Promise<DemoRecord | undefined> {
  return q(ex).selectFrom('funnel_demos').selectAll().where('listing_id', '=', listingId).where('holder', '=', holder).executeTakeFirst();
}

/** Records a holder's first demo of a listing; false when another demo of theirs was recorded first. */
export async function insertDemo(trx: Executor, row: DemoRecord): Promise<boolean> {
  const inserted = await q(trx)
    .insertInto('funnel_demos')
    .values(row)
    .onConflict((oc) => oc.columns(['listing_id', 'holder']).doNothing())
    .returning('listing_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Forgets a holder's demo of a listing (its owner changed: the new owner's first demo is a first demo). */
export async function forgetDemo(ex: Executor, listingId: string, holder: string): Promise<void> {
  await q(ex).deleteFrom('funnel_demos').where('listing_id', '=', listingId).where('holder', '=', holder).execute();
}
