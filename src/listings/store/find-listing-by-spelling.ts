// Reading a listing by any spelling of its URL (its card location, its endpoint): the aliases a
// probe claimed, else the normalized URL itself.
import type { Executor } from '../../platform/db/executor.ts';
import { endpointKey } from '../identity.ts';
import { listingTables as q } from '../tables.ts';
import { findListingById, findListingByUrl } from './find-listing.ts';
import type { ListingRow } from './row.ts';

/** The listing another spelling of this URL (or its card, or its endpoint) already reached, if any. */
export async function findListingBySpelling(ex: Executor, url: string): Promise<ListingRow | undefined> {
  const alias = await q(ex).selectFrom('listing_aliases').select('listing_id').where('key', '=', endpointKey(url)).executeTakeFirst();
  if (alias) return findListingById(ex, alias.listing_id);
  return findListingByUrl(ex, url);
}

/** The listing other than `exceptId` that owns this URL's spelling (the unique_url check), if any. */
export async function spellingOwnedByOther(ex: Executor, url: string, exceptId: string): Promise<string | undefined> {
  // Only the owner's id is needed (the prober asks this once or twice a probe): no row is read.
  const alias = await q(ex).selectFrom('listing_aliases').select('listing_id').where('key', '=', endpointKey(url)).executeTakeFirst();
  const owner = alias ? alias.listing_id : (await q(ex).selectFrom('listings').select('id').where('url', '=', url).executeTakeFirst())?.id;
  return owner !== undefined && owner !== exceptId ? owner : undefined;
}
