// insertBindingIfAbsent against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertBindingIfAbsent } from './insert-binding.ts';
import { findBinding } from './find-binding.ts';
import { generateEd25519, publicPart, thumbprint } from '../keys.ts';
const key = async () => {
  const { publicJwk } = generateEd25519();
  return { jwk: publicJwk, kid: await thumbprint(publicJwk) };
};

const d = migratedDbPerFile();
const NOW = new Date('2026-11-01T12:00:00.000Z');

test("binds a listing's first key (its public part only), once", async () => {
  const k = await key();
  assert.equal(await insertBindingIfAbsent(d.ex, 'lst_a', { ...k.jwk, d: 'secret' } as typeof k.jwk, k.kid, NOW), true);
  assert.deepEqual(await findBinding(d.ex, 'lst_a'), { listing_id: 'lst_a', public_jwk: publicPart(k.jwk), kid: k.kid, bound_at: NOW.toISOString() });
  const stored = await d.sql.selectFrom('identity_bindings').select('public_jwk').where('listing_id', '=', 'lst_a').executeTakeFirstOrThrow();
  assert.equal(stored.public_jwk.includes('secret'), false);
  const other = await key();
  assert.equal(await insertBindingIfAbsent(d.ex, 'lst_a', other.jwk, other.kid, NOW), false);
  assert.equal((await findBinding(d.ex, 'lst_a'))?.kid, k.kid);
});

test('of two first bindings racing one wins', async () => {
  const [a, b] = [await key(), await key()];
  const wins = await Promise.all([insertBindingIfAbsent(d.ex, 'lst_b', a.jwk, a.kid, NOW), insertBindingIfAbsent(d.ex, 'lst_b', b.jwk, b.kid, NOW)]);
  assert.deepEqual(wins.sort(), [false, true]);
});
