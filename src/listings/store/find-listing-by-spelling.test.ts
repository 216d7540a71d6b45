// findListingBySpelling and spellingOwnedByOther against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { claimSpellings } from './claim-spellings.ts';
import { findListingBySpelling, spellingOwnedByOther } from './find-listing-by-spelling.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string) => (await insertListingIfNew(d.ex, { url, kind: 'mcp', name: url, submittedName: null, contactEmail: null, source: null, rankParts: {} }, NOW)).row;

test('an alias a probe claimed reaches its listing; a trailing slash is the same spelling', async () => {
  const row = await add('https://spell.example/mcp');
  await claimSpellings(d.ex, row.id, ['https://spell.example/other-endpoint'], NOW);
  assert.equal((await findListingBySpelling(d.ex, 'https://spell.example/other-endpoint/'))?.id, row.id);
  assert.equal((await findListingBySpelling(d.ex, 'https://spell.example/mcp'))?.id, row.id);
  assert.equal(await findListingBySpelling(d.ex, 'https://spell.example/unknown'), undefined);
});

test('a listing from before aliases is found by its exact URL', async () => {
  const row = await add('https://spell.example/old');
  await d.sql.deleteFrom('listing_aliases').where('listing_id', '=', row.id).execute();
  assert.equal((await findListingBySpelling(d.ex, 'https://spell.example/old'))?.id, row.id);
});

test('names the other owner of a spelling, not the listing itself', async () => {
  const a = await add('https://spell.example/a');
  const b = await add('https://spell.example/b');
  assert.equal(await spellingOwnedByOther(d.ex, 'https://spell.example/a', b.id), a.id);
  assert.equal(await spellingOwnedByOther(d.ex, 'https://spell.example/a', a.id), undefined);
  assert.equal(await spellingOwnedByOther(d.ex, 'https://spell.example/free', a.id), undefined);
});

test('the other owner of an exact URL that has no alias, in one statement, the alias first', async () => {
  const old = await add('https://spell.example/legacy');
  const other = await add('https://spell.example/other');
  await d.sql.deleteFrom('listing_aliases').where('listing_id', '=', old.id).execute();
  const mark = d.store.db.sent.mark();
  assert.equal(await spellingOwnedByOther(d.ex, 'https://spell.example/legacy', other.id), old.id);
  assert.deepEqual(d.store.db.sent.since(mark), { statements: 1, transactions: 0 });
  // The alias wins over the exact URL when both name a listing.
  await d.sql.insertInto('listing_aliases').values({ key: 'https://spell.example/legacy', listing_id: other.id, created_at: NOW }).execute();
  assert.equal(await spellingOwnedByOther(d.ex, 'https://spell.example/legacy', old.id), other.id);
});
