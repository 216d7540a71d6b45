// insertKey against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertKey, toRecord } from './signing-key-row.ts';
import { thumbprint } from '../keys.ts';

const d = migratedDbPerFile();
const NOW = new Date('2026-11-01T12:00:00.000Z');

test('inserts a fresh Ed25519 key of a generation once; its kid is the public thumbprint', async () => {
  await insertKey(d.ex, 0, NOW, new Date('2026-11-01T12:10:00.000Z'));
  await insertKey(d.ex, 0, NOW, NOW);
  const rows = await d.sql.selectFrom('signing_keys').selectAll().execute();
  assert.equal(rows.length, 1);
  const key = toRecord(rows[0]!);
  assert.equal(key.kid, await thumbprint(key.publicJwk));
  assert.deepEqual(Object.keys(key.publicJwk).sort(), ['crv', 'kty', 'x']);
  assert.equal(typeof key.privateJwk.d, 'string');
  assert.deepEqual([key.generation, key.activeFrom.toISOString(), key.retireAt, rows[0]!.created_at], [0, '2026-11-01T12:10:00.000Z', null, NOW.toISOString()]);
});
