// markDuplicate against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { markDuplicate } from './mark-duplicate.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const LATER = '2026-11-01T13:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string) => (await insertListingIfNew(d.ex, { url, kind: 'agent', name: url, submittedName: null, contactEmail: null, source: null, rankParts: {} }, NOW)).row;

test('fails the duplicate and hands its spellings to the original', async () => {
  const original = await add('https://dup.example/a');
  const copy = await add('https://dup.example/b');
  const marked = await markDuplicate(d.ex, copy.id, original.id, LATER);
  assert.equal(marked?.lane, 'failed');
  assert.equal(marked?.lane_reason, 'duplicate_of');
  assert.equal(marked?.duplicate_of, original.id);
  assert.equal(marked?.updated_at, LATER);
  const aliases = await d.sql.selectFrom('listing_aliases').select('listing_id').where('key', '=', 'https://dup.example/b').executeTakeFirst();
  assert.equal(aliases?.listing_id, original.id);
});

test('an unknown listing is undefined', async () => {
  const original = await add('https://dup.example/c');
  assert.equal(await markDuplicate(d.ex, 'lst_missing', original.id, LATER), undefined);
});
