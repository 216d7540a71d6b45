// Reading a listing by any spelling of its URL (its card location, its endpoint): the aliases a
// probe claimed, else the normalized URL itself.
import { sql } from 'kysely';
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
  // Only the owner's id is needed (the prober asks this once or twice a probe): no row is read, and
  // the spelling's alias and the exact URL are looked up in one statement, the alias first.
  const byAlias = q(ex).selectFrom('listing_aliases').select([sql.lit(0).as('rank'), 'listing_id as id']).where('key', '=', endpointKey(url));
  const byUrl = q(ex).selectFrom('listings').select([sql.lit(1).as('rank'), 'id']).where('url', '=', url);
  const owner = (await byAlias.unionAll(byUrl).orderBy('rank').limit(1).executeTakeFirst())?.id;
  return owner !== undefined && owner !== exceptId ? owner : undefined;
}
