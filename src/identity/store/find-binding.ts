// Reading bound keys: a listing's, the listings of one key, how many listings have one.
import type { Executor } from '../../platform/db/executor.ts';
import { identityTables as q } from '../tables.ts';
import { toBinding, type Binding } from './binding-row.ts';

export async function findBinding(ex: Executor, listingId: string): Promise<Binding | undefined> {
  const row = await q(ex).selectFrom('identity_bindings').selectAll().where('listing_id', '=', listingId).executeTakeFirst();
  return row && toBinding(row);
}

/** Listings that bound this key (one key may serve several listings of one operator). */
export async function findBindingsByKid(ex: Executor, kid: string, limit = 100): Promise<Binding[]> {
  const rows = await q(ex).selectFrom('identity_bindings').selectAll().where('kid', '=', kid).orderBy('listing_id').limit(limit).execute();
  return rows.map(toBinding);
}

/** Listings with a bound key (bind_identity). */
export async function countBindings(ex: Executor): Promise<number> {
  const row = await q(ex).selectFrom('identity_bindings').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}
