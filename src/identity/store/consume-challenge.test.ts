// consumeChallenge against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertChallenge } from './insert-challenge.ts';
import { findChallenge } from './find-challenge.ts';
import { consumeChallenge } from './consume-challenge.ts';

const d = migratedDbPerFile();
const add = (id: string) => insertChallenge(d.ex, { id, listing_id: 'lst_a', nonce: 'n', created_at: '2026-11-01T00:00:00.000Z', expires_at: '2026-11-01T00:10:00.000Z', used_at: null });
const NOW = new Date('2026-11-01T00:05:00.000Z');

test("used once, by its own listing, before it expires", async () => {
  await add('c1');
  assert.equal(await consumeChallenge(d.ex, 'c1', 'lst_other', NOW), false);
  assert.equal(await consumeChallenge(d.ex, 'c1', 'lst_a', NOW), true);
  assert.equal((await findChallenge(d.ex, 'c1'))?.used_at, NOW.toISOString());
  assert.equal(await consumeChallenge(d.ex, 'c1', 'lst_a', NOW), false);
  await add('c2');
  assert.equal(await consumeChallenge(d.ex, 'c2', 'lst_a', new Date('2026-11-01T00:10:00.000Z')), false);
  assert.equal(await consumeChallenge(d.ex, 'c_none', 'lst_a', NOW), false);
});

test('of two racing proofs exactly one gets it', async () => {
  await add('c3');
  const wins = await Promise.all([1, 2].map(() => consumeChallenge(d.ex, 'c3', 'lst_a', NOW)));
  assert.deepEqual(wins.sort(), [false, true]);
});
