// updateListing against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { lockedListingPart, updateListing } from './update-listing.ts';
import { inTransaction } from '../../platform/db/executor.ts';
import { together } from '../../platform/db/together.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const LATER = '2026-11-01T13:00:00.000Z';
const d = migratedDbPerFile();

const add = async (url: string) => (await insertListingIfNew(d.ex, { url, kind: 'agent', name: 'old', submittedName: null, contactEmail: null, source: null, rankParts: { funnel: -5 } }, NOW)).row;
const changes = (id: string) => d.sql.selectFrom('changes').select('seq').where('entity_id', '=', id).execute();

test('applies the patch, merges rank parts into the rank, and feeds the change', async () => {
  const row = await add('https://upd.example/a');
  const updated = await updateListing(d.ex, row.id, { name: 'new', lane: 'active' }, LATER, { probe: 8 });
  assert.equal(updated?.name, 'new');
  assert.equal(updated?.lane, 'active');
  assert.equal(updated?.rank, 3);
  assert.equal(updated?.updated_at, LATER);
  assert.equal(updated && 'rank_parts' in updated, false);
  const stored = await d.sql.selectFrom('listings').select(['rank', 'rank_parts', 'name']).where('id', '=', row.id).executeTakeFirstOrThrow();
  assert.deepEqual({ ...stored, rank_parts: JSON.parse(stored.rank_parts) }, { rank: 3, rank_parts: { funnel: -5, probe: 8 }, name: 'new' });
  assert.equal((await changes(row.id)).length, 2);
});

test('an empty patch only marks the listing changed', async () => {
  const row = await add('https://upd.example/b');
  const same = await updateListing(d.ex, row.id, {}, LATER);
  assert.deepEqual(same, { ...row, updated_at: LATER });
  assert.equal((await changes(row.id)).length, 2);
});

test('two transactions changing different parts at once lose neither', async () => {
  const row = await add('https://upd.example/c');
  await Promise.all([updateListing(d.ex, row.id, {}, LATER, { probe: 10 }), updateListing(d.ex, row.id, {}, LATER, { trails: 100 })]);
  const stored = await d.sql.selectFrom('listings').select('rank').where('id', '=', row.id).executeTakeFirstOrThrow();
  assert.equal(Number(stored.rank), 105);
});

test('an unknown listing is undefined and feeds nothing', async () => {
  assert.equal(await updateListing(d.ex, 'lst_missing', { name: 'x' }, LATER), undefined);
  assert.deepEqual(await changes('lst_missing'), []);
});

test('a locked listing changed as parts of a batch: the handle shows the new row at once, the batch writes it with its change', async () => {
  const row = await add('https://upd.example/parts');
  const after = await inTransaction(d.ex, async (trx) => {
    const [locked] = await together(trx, [lockedListingPart(trx, row.id)]);
    const { parts, row: shown } = locked!.updateParts({ lane: 'active' }, LATER, { probe: 7 });
    assert.equal(locked!.row.lane, 'active');
    await together(trx, parts);
    return shown;
  });
  assert.equal(after.rank, 2);
  const stored = await d.sql.selectFrom('listings').select(['lane', 'rank']).where('id', '=', row.id).executeTakeFirstOrThrow();
  assert.deepEqual({ lane: stored.lane, rank: Number(stored.rank) }, { lane: 'active', rank: 2 });
  assert.equal((await changes(row.id)).length, 2);
});
