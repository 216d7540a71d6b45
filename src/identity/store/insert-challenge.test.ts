// insertChallenge against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertChallenge, type Challenge } from './insert-challenge.ts';

const d = migratedDbPerFile();
const challenge = (id: string, created: string, expires: string): Challenge => ({ id, listing_id: 'lst_a', nonce: `n-${id}`, created_at: created, expires_at: expires, used_at: null });

test('stores the challenge and drops the expired ones of any listing', async () => {
  await insertChallenge(d.ex, { ...challenge('c1', '2026-11-01T00:00:00.000Z', '2026-11-01T00:10:00.000Z'), listing_id: 'lst_other' });
  await insertChallenge(d.ex, challenge('c2', '2026-11-01T00:05:00.000Z', '2026-11-01T00:15:00.000Z'));
  await insertChallenge(d.ex, challenge('c3', '2026-11-01T00:12:00.000Z', '2026-11-01T00:22:00.000Z'));
  const ids = (await d.sql.selectFrom('identity_challenges').select('id').orderBy('id').execute()).map((r) => r.id);
  assert.deepEqual(ids, ['c2', 'c3']);
  await assert.rejects(insertChallenge(d.ex, challenge('c3', '2026-11-01T00:12:00.000Z', '2026-11-01T00:22:00.000Z')));
});
