// replaceBinding against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertBindingIfAbsent } from './insert-binding.ts';
import { findBinding } from './find-binding.ts';
import { replaceBinding } from './replace-binding.ts';
import { generateEd25519, publicPart, thumbprint } from '../keys.ts';
const key = async () => {
  const { publicJwk } = generateEd25519();
  return { jwk: publicJwk, kid: await thumbprint(publicJwk) };
};

const d = migratedDbPerFile();
const NOW = new Date('2026-11-01T12:00:00.000Z');
const LATER = new Date('2026-11-02T12:00:00.000Z');

test('replaces the key only while it is still the expected one', async () => {
  const [a, b, c] = [await key(), await key(), await key()];
  await insertBindingIfAbsent(d.ex, 'lst_a', a.jwk, a.kid, NOW);
  assert.equal(await replaceBinding(d.ex, 'lst_a', a.kid, b.jwk, b.kid, LATER), true);
  assert.deepEqual(await findBinding(d.ex, 'lst_a'), { listing_id: 'lst_a', public_jwk: publicPart(b.jwk), kid: b.kid, bound_at: LATER.toISOString() });
  assert.equal(await replaceBinding(d.ex, 'lst_a', a.kid, c.jwk, c.kid, LATER), false);
  assert.equal((await findBinding(d.ex, 'lst_a'))?.kid, b.kid);
  assert.equal(await replaceBinding(d.ex, 'lst_none', a.kid, c.jwk, c.kid, LATER), false);
});
