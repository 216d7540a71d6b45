// findListingById / ByIds / ByUrl and lockListing against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { findListingById, findListingByUrl, findListingsByIds, lockListing } from './find-listing.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string) => (await insertListingIfNew(d.ex, { url, kind: 'agent', name: url, submittedName: null, contactEmail: 'a@example.com', source: null, rankParts: { p: 2 } }, NOW)).row;

test('finds a listing by id and by URL, without its rank parts', async () => {
  const row = await add('https://find.example/a');
  const byId = await findListingById(d.ex, row.id);
  assert.deepEqual(byId, row);
  assert.equal(byId && 'rank_parts' in byId, false);
  assert.equal(byId?.contact_email, 'a@example.com');
  assert.deepEqual(await findListingByUrl(d.ex, 'https://find.example/a'), row);
  assert.equal(await findListingById(d.ex, 'lst_missing'), undefined);
  assert.equal(await findListingByUrl(d.ex, 'https://find.example/none'), undefined);
});

test('finds several by ids, none for an empty list', async () => {
  const a = await add('https://find.example/b');
  const b = await add('https://find.example/c');
  const rows = await findListingsByIds(d.ex, [a.id, b.id, 'lst_missing']);
  assert.deepEqual(rows.map((r) => r.id).sort(), [a.id, b.id].sort());
  assert.deepEqual(await findListingsByIds(d.ex, []), []);
});

test('locks a listing inside a transaction and reads it', async () => {
  const row = await add('https://find.example/d');
  const locked = await d.store.db.kysely.transaction().execute((trx) => lockListing(trx, row.id));
  assert.deepEqual(locked, row);
  assert.equal(await d.store.db.kysely.transaction().execute((trx) => lockListing(trx, 'lst_missing')), undefined);
});
