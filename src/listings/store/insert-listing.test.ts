// insertListingIfNew against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { engine } from '../../../test/helpers/store.ts';
import { part, write } from '../../platform/db/together.ts';
import { insertListingIfNew, type NewListing } from './insert-listing.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

const input = (url: string, over: Partial<NewListing> = {}): NewListing => ({ url, kind: 'mcp', name: 'n', submittedName: 'Sub', contactEmail: 'x@example.com', source: 'cli', rankParts: { funnel: -3, probe: 1 }, ...over });
const changesOf = (id: string) => d.sql.selectFrom('changes').select(['entity', 'op']).where('entity_id', '=', id).execute();

test('creates a queued listing in no category yet (other), summed rank and a change', async () => {
  const { row, created } = await insertListingIfNew(d.ex, input('https://new.example/mcp'), NOW);
  assert.equal(created, true);
  assert.match(row.id, /^lst_/);
  assert.equal(row.lane, 'queued');
  assert.equal(row.category_id, 'other');
  assert.equal(row.rank, -2);
  assert.equal(row.submitted_name, 'Sub');
  assert.equal(row.contact_email, 'x@example.com');
  assert.equal(row.created_at, NOW);
  const stored = await d.sql.selectFrom('listings').select('rank_parts').where('id', '=', row.id).executeTakeFirstOrThrow();
  assert.deepEqual(JSON.parse(stored.rank_parts), { funnel: -3, probe: 1 });
  assert.deepEqual(await changesOf(row.id), [{ entity: 'listing', op: 'upsert' }]);
});

test('another spelling of a known URL answers the known listing, unchanged', async () => {
  const first = await insertListingIfNew(d.ex, input('https://again.example/a', { kind: 'agent' }), NOW);
  const second = await insertListingIfNew(d.ex, input('https://again.example/a/', { name: 'other' }), NOW);
  assert.equal(second.created, false);
  assert.deepEqual(second.row, first.row);
  assert.equal((await changesOf(first.row.id)).length, 1);
});

test('concurrent publishes of one URL converge on one row', async () => {
  const results = await Promise.all([1, 2, 3].map(() => insertListingIfNew(d.ex, input('https://race.example/x'), NOW)));
  assert.equal(new Set(results.map((r) => r.row.id)).size, 1);
  assert.equal(results.filter((r) => r.created).length, 1);
});

test('a listing from before aliases keeps its URL and gets the spelling', async () => {
  const { row } = await insertListingIfNew(d.ex, input('https://legacy.example/a'), NOW);
  await d.sql.deleteFrom('listing_aliases').where('listing_id', '=', row.id).execute();
  const again = await insertListingIfNew(d.ex, input('https://legacy.example/a'), NOW);
  assert.equal(again.created, false);
  assert.equal(again.row.id, row.id);
  const alias = await d.sql.selectFrom('listing_aliases').select('listing_id').where('key', '=', 'https://legacy.example/a').executeTakeFirst();
  assert.equal(alias?.listing_id, row.id);
});

test("what other domains write with a new listing goes in its batch (one statement on PostgreSQL), and a part's refusal leaves nothing", async () => {
  const withFeed = async (listing: { id: string }) => [write(d.sql.insertInto('feed_events').values({ at: NOW, type: 'listing.listed', listing_id: listing.id, data: '{}' }))];
  const mark = d.store.db.sent.mark();
  const { row } = await insertListingIfNew(d.ex, input('https://with.example/mcp'), NOW, withFeed);
  // BEGIN, the spelling's claim (with the exact URL's read), the listing with its change and what came with it, COMMIT.
  assert.deepEqual(d.store.db.sent.since(mark), { statements: engine === 'postgres' ? 4 : 7, transactions: 1 });
  assert.equal((await d.sql.selectFrom('feed_events').select('seq').where('listing_id', '=', row.id).execute()).length, 1);
  // A known URL sends none of it.
  await insertListingIfNew(d.ex, input('https://with.example/mcp/'), NOW, withFeed);
  assert.equal((await d.sql.selectFrom('feed_events').select('seq').where('listing_id', '=', row.id).execute()).length, 1);
  const refusing = async () => [
    part(d.sql.selectFrom('listings').select('id').where('id', '=', 'lst_none'), () => {
      throw new Error('refused');
    }),
  ];
  await assert.rejects(insertListingIfNew(d.ex, input('https://refused.example/mcp'), NOW, refusing), /refused/);
  assert.equal(await d.sql.selectFrom('listings').select('id').where('url', '=', 'https://refused.example/mcp').executeTakeFirst(), undefined);
  assert.equal(await d.sql.selectFrom('listing_aliases').select('key').where('key', '=', 'https://refused.example/mcp').executeTakeFirst(), undefined);
});
