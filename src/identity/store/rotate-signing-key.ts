// Key rotation with an overlap: the next key is published before it signs, the old ones stay
// published a while after, and keys past their end are deleted with their private halves.
import { inTransaction, type Executor } from '../../platform/db/executor.ts';
import { DAY_MS, iso } from '../../platform/clock.ts';
import { identityTables as q } from '../tables.ts';
import { insertKey } from './signing-key-row.ts';

/**
 * How long a replaced key stays in the JWKS after its successor starts signing: attestations it
 * signed (24 h) and caches of the JWKS (5 min) outlive the switch by far less than this.
 */
export const KEY_OVERLAP_MS = 7 * DAY_MS;
/**
 * A rotated-in key is published this long before it signs, so a verifier holding a cached JWKS
 * (Cache-Control max-age 300 s) never meets a signature by a key it cannot have seen.
 */
export const KEY_PUBLISH_LEAD_MS = 10 * 60_000;

export interface Rotation {
  kid: string;
  active_from: string;
  /** Keys being replaced: published until `retire_at`, then dropped from the JWKS. */
  retiring: { kid: string; retire_at: string }[];
}

/**
 * Adds the next key: published at once, signing from `now + KEY_PUBLISH_LEAD_MS`. Every older
 * key still without an end is retired KEY_OVERLAP_MS after that; keys already past their end are
 * deleted with their private half. Two rotations racing add one key (the generation is unique).
 */
export async function rotateSigningKey(ex: Executor, now: Date): Promise<Rotation> {
  return inTransaction(ex, async (trx) => {
    const newest = await q(trx).selectFrom('signing_keys').select('generation').orderBy('generation', 'desc').limit(1).executeTakeFirst();
    const generation = newest ? newest.generation + 1 : 0;
    const activeFrom = newest ? new Date(now.getTime() + KEY_PUBLISH_LEAD_MS) : now;
    await insertKey(trx, generation, now, activeFrom);
    const added = await q(trx).selectFrom('signing_keys').select(['kid', 'active_from']).where('generation', '=', generation).executeTakeFirstOrThrow();
    const retireAt = iso(new Date(new Date(added.active_from).getTime() + KEY_OVERLAP_MS));
    await q(trx).updateTable('signing_keys').set({ retire_at: retireAt }).where('generation', '<', generation).where('retire_at', 'is', null).execute();
    await q(trx).deleteFrom('signing_keys').where('retire_at', '<=', iso(now)).execute();
    const retiring = await q(trx)
      .selectFrom('signing_keys')
      .select(['kid', 'retire_at'])
      .where('generation', '<', generation)
      .orderBy('generation', 'desc')
      .execute();
    return { kid: added.kid, active_from: added.active_from, retiring: retiring.map((r) => ({ kid: r.kid, retire_at: r.retire_at! })) };
  });
}
