// activeLiveSince against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { updateListing } from './update-listing.ts';
import { activeLiveSince } from './active-live-since.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string, lane: 'active' | 'dormant', liveSince: string | null) => {
  const { row } = await insertListingIfNew(d.ex, { url, kind: 'agent', name: url, submittedName: null, contactEmail: null, source: null, rankParts: {} }, NOW);
  await updateListing(d.ex, row.id, { lane, live_since: liveSince }, NOW);
  return row.id;
};

test('active listings Live at or before the time, no others', async () => {
  const early = await add('https://grace.example/early', 'active', '2026-10-01T00:00:00.000Z');
  const edge = await add('https://grace.example/edge', 'active', '2026-10-15T00:00:00.000Z');
  await add('https://grace.example/late', 'active', '2026-10-20T00:00:00.000Z');
  await add('https://grace.example/never', 'active', null);
  await add('https://grace.example/dormant', 'dormant', '2026-09-01T00:00:00.000Z');
  assert.deepEqual((await activeLiveSince(d.ex, '2026-10-15T00:00:00.000Z')).sort(), [early, edge].sort());
});
