// ensureSigningKey against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { ensureSigningKey } from './ensure-signing-key.ts';

const d = migratedDbPerFile();

test('instances starting together make one first key, active at once', async () => {
  const now = new Date('2026-11-01T12:00:00.000Z');
  await Promise.all([1, 2, 3].map(() => ensureSigningKey(d.ex, now)));
  await ensureSigningKey(d.ex, new Date('2026-11-02T00:00:00.000Z'));
  const rows = await d.sql.selectFrom('signing_keys').select(['generation', 'active_from', 'retire_at']).execute();
  assert.deepEqual(rows, [{ generation: 0, active_from: now.toISOString(), retire_at: null }]);
});
