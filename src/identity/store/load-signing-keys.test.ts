// loadSigningKeys and describeSigningKeys against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { ensureSigningKey } from './ensure-signing-key.ts';
import { KEY_OVERLAP_MS, KEY_PUBLISH_LEAD_MS, rotateSigningKey } from './rotate-signing-key.ts';
import { describeSigningKeys, loadSigningKeys } from './load-signing-keys.ts';

const d = migratedDbPerFile();
const T0 = new Date('2026-11-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

test('published keys newest first; the signing one is the newest already active', async () => {
  assert.deepEqual(await loadSigningKeys(d.ex, T0), []);
  assert.deepEqual(await describeSigningKeys(d.ex, T0), []);
  await ensureSigningKey(d.ex, T0);
  const rotation = await rotateSigningKey(d.ex, at(1000));
  const keys = await loadSigningKeys(d.ex, at(2000));
  assert.deepEqual(keys.map((k) => k.generation), [1, 0]);
  const described = await describeSigningKeys(d.ex, at(2000));
  assert.deepEqual(described.map((k) => [k.generation, k.signing]), [[1, false], [0, true]]);
  assert.equal(described.some((k) => 'privateJwk' in k || 'private_jwk' in k), false);
  assert.equal(described[0]?.kid, rotation.kid);
  assert.deepEqual((await describeSigningKeys(d.ex, at(1000 + KEY_PUBLISH_LEAD_MS))).map((k) => k.signing), [true, false]);
  // Past the overlap the old key is no longer published.
  assert.deepEqual((await loadSigningKeys(d.ex, at(1000 + KEY_PUBLISH_LEAD_MS + KEY_OVERLAP_MS))).map((k) => k.generation), [1]);
});
