// removeBinding against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertBindingIfAbsent } from './insert-binding.ts';
import { findBinding } from './find-binding.ts';
import { removeBinding } from './remove-binding.ts';
import { generateEd25519, thumbprint } from '../keys.ts';

const d = migratedDbPerFile();
const NOW = new Date('2026-11-01T12:00:00.000Z');

test('a listing\'s binding is removed, the others stay', async () => {
  const { publicJwk } = generateEd25519();
  const kid = await thumbprint(publicJwk);
  for (const id of ['lst_a', 'lst_b']) await insertBindingIfAbsent(d.ex, id, publicJwk, kid, NOW);
  assert.equal(await removeBinding(d.ex, 'lst_a'), true);
  assert.equal(await removeBinding(d.ex, 'lst_a'), false);
  assert.equal(await findBinding(d.ex, 'lst_a'), undefined);
  assert.equal((await findBinding(d.ex, 'lst_b'))?.kid, kid);
});
