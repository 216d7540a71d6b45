// A listing's bound key replaced, compare and swap on the key it had.
import type { Executor } from '../../platform/db/executor.ts';
import { iso } from '../../platform/clock.ts';
import { identityTables as q } from '../tables.ts';
import { publicPart, type Ed25519PublicJwk } from '../keys.ts';

/** Replaces the listing's key if it is still `expectedKid` (compare and swap): false when it changed meanwhile. */
export async function replaceBinding(ex: Executor, listingId: string, expectedKid: string, jwk: Ed25519PublicJwk, kid: string, now: Date): Promise<boolean> {
  const result = await q(ex)
    .updateTable('identity_bindings')
    .set({ public_jwk: JSON.stringify(publicPart(jwk)), kid, bound_at: iso(now) })
    .where('listing_id', '=', listingId)
    .where('kid', '=', expectedKid)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
