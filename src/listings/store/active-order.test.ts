// activeOrder and rowsInOrder against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { updateListing } from './update-listing.ts';
import { activeOrder, rowsInOrder } from './active-order.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string, kind: 'agent' | 'mcp', rank: number, lane: 'active' | 'failed' = 'active') => {
  const { row } = await insertListingIfNew(d.ex, { url, kind, name: url, submittedName: null, contactEmail: null, source: null, rankParts: {} }, NOW);
  await updateListing(d.ex, row.id, { lane }, NOW, { probe: rank });
  return row.id;
};

test('active ids of one kind by rank, highest first; rows of ids still in the lane, in the given order', async () => {
  const low = await add('https://order.example/low', 'agent', 1);
  const high = await add('https://order.example/high', 'agent', 9);
  const failed = await add('https://order.example/failed', 'agent', 50, 'failed');
  const mcp = await add('https://order.example/mcp', 'mcp', 5);
  assert.deepEqual(await activeOrder(d.ex, 'agent'), [high, low]);
  assert.deepEqual(await activeOrder(d.ex, 'mcp'), [mcp]);
  assert.deepEqual((await rowsInOrder(d.ex, [low, failed, 'lst_missing', high], 'active')).map((r) => r.id), [low, high]);
  assert.deepEqual((await rowsInOrder(d.ex, [low, failed], 'failed')).map((r) => r.id), [failed]);
  assert.deepEqual(await rowsInOrder(d.ex, [], 'active'), []);
});
