// findChallenge against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertChallenge } from './insert-challenge.ts';
import { findChallenge } from './find-challenge.ts';

const d = migratedDbPerFile();

test('reads a challenge back by id; undefined for an unknown one', async () => {
  const c = { id: 'chl_1', listing_id: 'lst_a', nonce: 'abc', created_at: '2026-11-01T00:00:00.000Z', expires_at: '2026-11-01T00:10:00.000Z', used_at: null };
  await insertChallenge(d.ex, c);
  assert.deepEqual(await findChallenge(d.ex, 'chl_1'), c);
  assert.equal(await findChallenge(d.ex, 'chl_none'), undefined);
});
