// Co-signs between founders (TOOLS.md co_sign_founding, get_co_sign_pairs): one row per ordered
// pair (primary key), so a listing co-signs a partner once; both directions make a mutual pair.
import { sql } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { funnelTables as q } from './tables.ts';

/** Records a co-sign; false when this ordered pair was co-signed before. */
export async function insertCosign(trx: Executor, row: { listing_id: string; partner_listing_id: string; body: string; created_at: string }): Promise<boolean> {
  const inserted = await q(trx)
    .insertInto('founding_cosigns')
    .values(row)
    .onConflict((oc) => oc.columns(['listing_id', 'partner_listing_id']).doNothing())
    .returning('listing_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findCosign(ex: Executor, listingId: string, partnerId: string): Promise<{ body: string; created_at: string } | undefined> {
  return q(ex).selectFrom('founding_cosigns').select(['body', 'created_at']).where('listing_id', '=', listingId).where('partner_listing_id', '=', partnerId).executeTakeFirst();
}

export interface CosignPair {
  a: string;
  b: string;
  a_said: string;
  b_said: string;
  a_at: string;
  b_at: string;
  /** When the pair became mutual (the later of the two co-signs). */
  since: string;
}

/** Mutual pairs (each co-signed the other), newest first; only pairs with `listingId` when given. */
export async function mutualPairs(ex: Executor, limit: number, listingId?: string): Promise<CosignPair[]> {
  let sel = q(ex)
    .selectFrom('founding_cosigns as x')
    .innerJoin('founding_cosigns as y', (j) => j.onRef('y.listing_id', '=', 'x.partner_listing_id').onRef('y.partner_listing_id', '=', 'x.listing_id'))
    .select([
      'x.listing_id as a',
      'x.partner_listing_id as b',
      'x.body as a_said',
      'y.body as b_said',
      'x.created_at as a_at',
      'y.created_at as b_at',
      sql<string>`case when x.created_at > y.created_at then x.created_at else y.created_at end`.as('since'),
    ])
    .where(sql<boolean>`x.listing_id < x.partner_listing_id`);
  if (listingId !== undefined) sel = sel.where((eb) => eb.or([eb('x.listing_id', '=', listingId), eb('x.partner_listing_id', '=', listingId)]));
  return sel.orderBy('since', 'desc').orderBy('a').orderBy('b').limit(limit).execute();
}
