// A signing key as the runtime holds it, and the one insert both the first key and a rotation make.
import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db/executor.ts';
import { iso } from '../../platform/clock.ts';
import { identityTables as q, type SigningKeysTable } from '../tables.ts';
import { generateEd25519, publicPart, thumbprint, type Ed25519PrivateJwk, type Ed25519PublicJwk } from '../keys.ts';

export interface SigningKeyRecord {
  kid: string;
  generation: number;
  publicJwk: Ed25519PublicJwk;
  privateJwk: Ed25519PrivateJwk;
  activeFrom: Date;
  retireAt: Date | null;
}

export const toRecord = (r: Selectable<SigningKeysTable>): SigningKeyRecord => ({
  kid: r.kid,
  generation: r.generation,
  publicJwk: publicPart(JSON.parse(r.public_jwk) as Ed25519PublicJwk),
  privateJwk: JSON.parse(r.private_jwk) as Ed25519PrivateJwk,
  activeFrom: new Date(r.active_from),
  retireAt: r.retire_at === null ? null : new Date(r.retire_at),
});

/** Inserts a new key of this generation unless one exists; the unique generation makes racing inserts end with one row. */
export async function insertKey(ex: Executor, generation: number, now: Date, activeFrom: Date): Promise<void> {
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
