// A probe's spellings of a listing's URL become that listing's aliases, unless another owns one.
import type { Executor } from '../../platform/db/executor.ts';
import { endpointKey } from '../identity.ts';
import { listingTables as q } from '../tables.ts';

/**
 * Claims the spellings a probe reached for listing `id` (its card location, its endpoint). When
 * another listing owns one of them already, claims nothing and returns that listing's id: this
 * one is its duplicate. Call it in the transaction that applies the probe.
 */
export async function claimSpellings(trx: Executor, id: string, urls: string[], now: string): Promise<string | undefined> {
  const keys = [...new Set(urls.map(endpointKey))];
  if (!keys.length) return undefined;
  // Insert first, then look: the usual probe (a re-probe of spellings this listing holds already)
  // costs two statements, and a concurrent claimer (another instance) that won a key between
  // them is seen by the look.
  const inserted = await q(trx)
    .insertInto('listing_aliases')
    .values(keys.map((key) => ({ key, listing_id: id, created_at: now })))
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .execute();
  const held = await q(trx).selectFrom('listing_aliases').select('listing_id').where('key', 'in', keys).where('listing_id', '!=', id).executeTakeFirst();
  if (!held) return undefined;
  // Another listing owns one of them: this one is its duplicate and claims none.
  if (inserted.length) await q(trx).deleteFrom('listing_aliases').where('key', 'in', inserted.map((r) => r.key)).where('listing_id', '=', id).execute();
  return held.listing_id;
}
