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
  const held = await q(trx).selectFrom('listing_aliases').select('listing_id').where('key', 'in', keys).where('listing_id', '!=', id).executeTakeFirst();
  if (held) return held.listing_id;
  await q(trx)
    .insertInto('listing_aliases')
    .values(keys.map((key) => ({ key, listing_id: id, created_at: now })))
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  // A concurrent claimer (another instance) may have won a key between the check and the insert.
  const lost = await q(trx).selectFrom('listing_aliases').select('listing_id').where('key', 'in', keys).where('listing_id', '!=', id).executeTakeFirst();
  return lost?.listing_id;
}
