// findListingsByName against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { findListingsByName } from './find-listings-by-name.ts';

const d = migratedDbPerFile();

const add = async (url: string, name: string, at: string) => (await insertListingIfNew(d.ex, { url, kind: 'agent', name, submittedName: null, contactEmail: null, source: null, rankParts: {} }, at)).row;

test('matches the whole name in any case, oldest first, up to the limit', async () => {
  const second = await add('https://name.example/2', 'Weather Bot', '2026-11-02T00:00:00.000Z');
  const first = await add('https://name.example/1', 'weather bot', '2026-11-01T00:00:00.000Z');
  await add('https://name.example/3', 'Weather Bot Pro', '2026-11-01T00:00:00.000Z');
  assert.deepEqual((await findListingsByName(d.ex, 'WEATHER BOT', 10)).map((r) => r.id), [first.id, second.id]);
  assert.deepEqual((await findListingsByName(d.ex, 'weather bot', 1)).map((r) => r.id), [first.id]);
  assert.deepEqual(await findListingsByName(d.ex, 'nobody', 10), []);
});
