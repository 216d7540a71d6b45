// claimSpellings against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { claimSpellings, claimSpellingsPart, heldByOther, spellingsHeldPart } from './claim-spellings.ts';
import { together } from '../../platform/db/together.ts';
import { dbFailure, StaleRead } from '../../platform/db/failures.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string) => (await insertListingIfNew(d.ex, { url, kind: 'agent', name: url, submittedName: null, contactEmail: null, source: null, rankParts: {} }, NOW)).row;
const aliasesOf = async (id: string) => (await d.sql.selectFrom('listing_aliases').select('key').where('listing_id', '=', id).orderBy('key').execute()).map((r) => r.key);

test('claims new spellings (deduplicated) and nothing for none', async () => {
  const row = await add('https://claim.example/a');
  assert.equal(await claimSpellings(d.ex, row.id, ['https://claim.example/card', 'https://claim.example/card/', 'https://claim.example/a'], NOW), undefined);
  assert.deepEqual(await aliasesOf(row.id), ['https://claim.example/a', 'https://claim.example/card']);
  assert.equal(await claimSpellings(d.ex, row.id, [], NOW), undefined);
});

test('a spelling another listing holds makes this one its duplicate, and nothing is claimed', async () => {
  const original = await add('https://claim.example/original');
  const copy = await add('https://claim.example/copy');
  assert.equal(await claimSpellings(d.ex, copy.id, ['https://claim.example/new', 'https://claim.example/original/'], NOW), original.id);
  assert.deepEqual(await aliasesOf(copy.id), ['https://claim.example/copy']);
});

test('a spelling another listing took after the read makes the claim a StaleRead: the transaction runs again and finds the duplicate', async () => {
  const mine = await add('https://claim.example/mine');
  const theirs = await add('https://claim.example/theirs');
  const urls = ['https://claim.example/contested'];
  const [held] = await together(d.ex, [spellingsHeldPart(d.ex, urls)]);
  assert.equal(heldByOther(held, mine.id), undefined);
  // Another instance's probe claims it between this one's read and its write.
  await claimSpellings(d.ex, theirs.id, urls, NOW);
  const err = await together(d.ex, [claimSpellingsPart(d.ex, mine.id, urls, held, NOW)]).catch((e: unknown) => e);
  assert.ok(err instanceof StaleRead);
  assert.equal(dbFailure(err), 'conflict');
  assert.deepEqual(await aliasesOf(mine.id), ['https://claim.example/mine']);
  assert.equal(await claimSpellings(d.ex, mine.id, urls, NOW), theirs.id);
});
