// rotateSigningKey against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { ensureSigningKey } from './ensure-signing-key.ts';
import { KEY_OVERLAP_MS, KEY_PUBLISH_LEAD_MS, rotateSigningKey } from './rotate-signing-key.ts';

const d = migratedDbPerFile();
const T0 = new Date('2026-11-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();

test('the first rotation on an empty table signs at once', async () => {
  const r = await rotateSigningKey(d.ex, T0);
  assert.deepEqual([r.active_from, r.retiring], [T0.toISOString(), []]);
  await d.sql.deleteFrom('signing_keys').execute();
});

test('a rotation publishes ahead, retires the old key after the overlap, and deletes keys past their end', async () => {
  await ensureSigningKey(d.ex, T0);
  const old = await d.sql.selectFrom('signing_keys').select('kid').executeTakeFirstOrThrow();
  const r1 = await rotateSigningKey(d.ex, T0);
  assert.equal(r1.active_from, iso(KEY_PUBLISH_LEAD_MS));
  assert.deepEqual(r1.retiring, [{ kid: old.kid, retire_at: iso(KEY_PUBLISH_LEAD_MS + KEY_OVERLAP_MS) }]);
  // Long after, the next rotation deletes the first key (past its end) and retires the second.
  const later = KEY_PUBLISH_LEAD_MS + KEY_OVERLAP_MS + 1000;
  const r2 = await rotateSigningKey(d.ex, at(later));
  assert.deepEqual(r2.retiring.map((k) => k.kid), [r1.kid]);
  const kids = (await d.sql.selectFrom('signing_keys').select('kid').orderBy('generation').execute()).map((k) => k.kid);
  assert.deepEqual(kids, [r1.kid, r2.kid]);
});

test('two rotations racing add one key', async () => {
  const before = (await d.sql.selectFrom('signing_keys').select('kid').execute()).length;
  const settled = await Promise.allSettled([rotateSigningKey(d.ex, at(10 * KEY_OVERLAP_MS)), rotateSigningKey(d.ex, at(10 * KEY_OVERLAP_MS))]);
  assert.ok(settled.some((s) => s.status === 'fulfilled'));
  const gens = (await d.sql.selectFrom('signing_keys').select('generation').execute()).map((k) => k.generation);
  assert.equal(new Set(gens).size, gens.length);
  assert.ok(gens.length <= before + 1);
});
