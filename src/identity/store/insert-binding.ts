// A listing's first bound key: one INSERT, so of two first bindings racing one wins.
import type { Executor } from '../../platform/db/executor.ts';
import { iso } from '../../platform/clock.ts';
import { identityTables as q } from '../tables.ts';
import { publicPart, type Ed25519PublicJwk } from '../keys.ts';

/**
 * Binds a key to a listing that has none: false when another binding got there first (two
 * first bindings racing on one listing end with one of them).
 */
export async function insertBindingIfAbsent(ex: Executor, listingId: string, jwk: Ed25519PublicJwk, kid: string, now: Date): Promise<boolean> {
  const result = await q(ex)
    .insertInto('identity_bindings')
    .values({ listing_id: listingId, public_jwk: JSON.stringify(publicPart(jwk)), kid, bound_at: iso(now) })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
