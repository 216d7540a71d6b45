// Removing a listing's bound key (its listing was deleted: nothing may vouch for it any more).
import type { Executor } from '../../platform/db/executor.ts';
import { identityTables as q } from '../tables.ts';

/** Removes the listing's binding; whether there was one. */
export async function removeBinding(ex: Executor, listingId: string): Promise<boolean> {
  const res = await q(ex).deleteFrom('identity_bindings').where('listing_id', '=', listingId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
