// countActive and countListings against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { updateListing } from './update-listing.ts';
import { countActive, countListings } from './count-listings.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string, kind: 'agent' | 'mcp', lane: 'queued' | 'active' | 'failed') => {
  const { row } = await insertListingIfNew(d.ex, { url, kind, name: url, submittedName: null, contactEmail: null, source: null, rankParts: {} }, NOW);
  if (lane !== 'queued') await updateListing(d.ex, row.id, { lane }, NOW);
};

test('zero everywhere on an empty table', async () => {
  assert.deepEqual(await countActive(d.ex), { agent: 0, mcp: 0 });
  const zero = { queued: 0, probing: 0, active: 0, failed: 0, dormant: 0 };
  assert.deepEqual(await countListings(d.ex), { agent: zero, mcp: zero });
});

test('counts active listings per kind, and every lane per kind', async () => {
  await add('https://count.example/1', 'agent', 'active');
  await add('https://count.example/2', 'agent', 'active');
  await add('https://count.example/3', 'agent', 'failed');
  await add('https://count.example/4', 'mcp', 'active');
  await add('https://count.example/5', 'mcp', 'queued');
  assert.deepEqual(await countActive(d.ex), { agent: 2, mcp: 1 });
  assert.deepEqual(await countListings(d.ex), {
    agent: { queued: 0, probing: 0, active: 2, failed: 1, dormant: 0 },
    mcp: { queued: 1, probing: 0, active: 1, failed: 0, dormant: 0 },
  });
});
