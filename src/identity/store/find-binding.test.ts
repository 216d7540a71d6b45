// findBinding, findBindingsByKid and countBindings against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertBindingIfAbsent } from './insert-binding.ts';
import { countBindings, findBinding, findBindingsByKid } from './find-binding.ts';
import { generateEd25519, thumbprint } from '../keys.ts';
const key = async () => {
  const { publicJwk } = generateEd25519();
  return { jwk: publicJwk, kid: await thumbprint(publicJwk) };
};

const d = migratedDbPerFile();
const NOW = new Date('2026-11-01T12:00:00.000Z');

test("a listing's binding, the listings of one key, and how many are bound", async () => {
  assert.equal(await countBindings(d.ex), 0);
  const [shared, own] = [await key(), await key()];
  for (const id of ['lst_c', 'lst_a', 'lst_b']) await insertBindingIfAbsent(d.ex, id, shared.jwk, shared.kid, NOW);
  await insertBindingIfAbsent(d.ex, 'lst_d', own.jwk, own.kid, NOW);
  assert.equal((await findBinding(d.ex, 'lst_d'))?.kid, own.kid);
  assert.equal(await findBinding(d.ex, 'lst_none'), undefined);
  assert.deepEqual((await findBindingsByKid(d.ex, shared.kid)).map((b) => b.listing_id), ['lst_a', 'lst_b', 'lst_c']);
  assert.deepEqual((await findBindingsByKid(d.ex, shared.kid, 2)).map((b) => b.listing_id), ['lst_a', 'lst_b']);
  assert.deepEqual(await findBindingsByKid(d.ex, 'kid_none'), []);
  assert.equal(await countBindings(d.ex), 4);
});
