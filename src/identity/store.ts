// Identity storage: the deployment's signing keys (created once, race-free, and rotated with an
// overlap), bind_identity's one-time challenges and each listing's bound key. Private keys are read
// only by the runtime that signs with them (runtime.ts); nothing here logs or returns them elsewhere.
import type { Selectable } from 'kysely';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { DAY_MS, iso } from '../platform/clock.ts';
import { identityTables as q, type SigningKeysTable } from './tables.ts';
import { generateEd25519, publicPart, thumbprint, type Ed25519PrivateJwk, type Ed25519PublicJwk } from './keys.ts';

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

export interface SigningKeyRecord {
  kid: string;
  generation: number;
  publicJwk: Ed25519PublicJwk;
  privateJwk: Ed25519PrivateJwk;
  activeFrom: Date;
  retireAt: Date | null;
}

const toRecord = (r: Selectable<SigningKeysTable>): SigningKeyRecord => ({
  kid: r.kid,
  generation: r.generation,
  publicJwk: publicPart(JSON.parse(r.public_jwk) as Ed25519PublicJwk),
  privateJwk: JSON.parse(r.private_jwk) as Ed25519PrivateJwk,
  activeFrom: new Date(r.active_from),
  retireAt: r.retire_at === null ? null : new Date(r.retire_at),
});

/** Keys still published at `now` (not retired), newest first. */
export async function loadSigningKeys(ex: Executor, now: Date): Promise<SigningKeyRecord[]> {
  const rows = await q(ex)
    .selectFrom('signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', iso(now))]))
    .orderBy('generation', 'desc')
    .execute();
  return rows.map(toRecord);
}

/** Inserts a new key of this generation unless one exists; the unique generation makes racing inserts end with one row. */
async function insertKey(ex: Executor, generation: number, now: Date, activeFrom: Date): Promise<void> {
  const { publicJwk, privateJwk } = generateEd25519();
  await q(ex)
    .insertInto('signing_keys')
    .values({
      kid: await thumbprint(publicJwk),
      generation,
      public_jwk: JSON.stringify(publicJwk),
      private_jwk: JSON.stringify(privateJwk),
      created_at: iso(now),
      active_from: iso(activeFrom),
      retire_at: null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The deployment's first key, made once: instances starting together on one database each try
 * to insert generation 0 and all but one insert nothing, then everyone reads the same row.
 */
export async function ensureSigningKey(ex: Executor, now: Date): Promise<void> {
  const any = await q(ex).selectFrom('signing_keys').select('kid').limit(1).executeTakeFirst();
  if (!any) await insertKey(ex, 0, now, now);
}

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

// bind_identity's challenges.

export interface Challenge {
  id: string;
  listing_id: string;
  nonce: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Stores a challenge; challenges already expired (of any listing) are deleted on the way, so the table stays small. */
export async function insertChallenge(ex: Executor, challenge: Challenge): Promise<void> {
  await q(ex).deleteFrom('identity_challenges').where('expires_at', '<', challenge.created_at).execute();
  await q(ex).insertInto('identity_challenges').values(challenge).execute();
}

export async function findChallenge(ex: Executor, id: string): Promise<Challenge | undefined> {
  return q(ex).selectFrom('identity_challenges').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Marks the challenge used if it is this listing's, unused and unexpired, in one conditional
 * update: of two proofs racing (on one instance or several), exactly one gets true.
 */
export async function consumeChallenge(ex: Executor, id: string, listingId: string, now: Date): Promise<boolean> {
  const at = iso(now);
  const result = await q(ex)
    .updateTable('identity_challenges')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('listing_id', '=', listingId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// Bound keys.

export interface Binding {
  listing_id: string;
  public_jwk: Ed25519PublicJwk;
  kid: string;
  bound_at: string;
}

const toBinding = (r: { listing_id: string; public_jwk: string; kid: string; bound_at: string }): Binding => ({
  listing_id: r.listing_id,
  public_jwk: publicPart(JSON.parse(r.public_jwk) as Ed25519PublicJwk),
  kid: r.kid,
  bound_at: r.bound_at,
});

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

/** The published signing keys without their private halves, newest first (`rollcall keys list`, stats). */
export async function describeSigningKeys(ex: Executor, now: Date): Promise<{ kid: string; generation: number; active_from: string; retire_at: string | null; signing: boolean }[]> {
  const keys = await loadSigningKeys(ex, now);
  // As runtime.ts picks it: the newest key already active signs; a newer one waits for its turn.
  const signing = (keys.find((k) => k.activeFrom <= now) ?? keys[keys.length - 1])?.kid;
  return keys.map((k) => ({ kid: k.kid, generation: k.generation, active_from: iso(k.activeFrom), retire_at: k.retireAt ? iso(k.retireAt) : null, signing: k.kid === signing }));
}
