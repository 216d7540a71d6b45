// markProbing against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { insertListingIfNew } from './insert-listing.ts';
import { updateListing } from './update-listing.ts';
import { markProbing } from './mark-probing.ts';
import type { Lane } from '../tables.ts';

const NOW = '2026-11-01T12:00:00.000Z';
const LATER = '2026-11-01T12:00:05.000Z';
const d = migratedDbPerFile();

const add = async (url: string, lane: Lane) => {
  const { row } = await insertListingIfNew(d.ex, { url, kind: 'mcp', name: url, submittedName: null, contactEmail: null, source: null, rankParts: { funnel: -5 } }, NOW);
  if (lane !== 'queued') await updateListing(d.ex, row.id, { lane }, NOW, { probe: 40 });
  return row.id;
};
const changes = async (id: string) => (await d.sql.selectFrom('changes').select('seq').where('entity_id', '=', id).execute()).length;

test('queued and failed listings show probing, Live and dormant ones keep their lane; rows come back as they were', async () => {
  const ids = { queued: await add('https://mp.example/q', 'queued'), failed: await add('https://mp.example/f', 'failed'), active: await add('https://mp.example/a', 'active'), dormant: await add('https://mp.example/d', 'dormant') };
  const before = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, await changes(id)])));
  const rows = await markProbing(d.ex, [...Object.values(ids), 'lst_missing'], LATER);
  assert.deepEqual(
    Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, rows.get(id)?.lane])),
    { queued: 'queued', failed: 'failed', active: 'active', dormant: 'dormant' },
  );
  assert.equal(rows.has('lst_missing'), false);
  const stored = await d.sql.selectFrom('listings').select(['id', 'lane', 'rank', 'updated_at']).where('id', 'in', Object.values(ids)).execute();
  const lane = new Map(stored.map((r) => [r.id, r]));
  assert.equal(lane.get(ids.queued)?.lane, 'probing');
  assert.equal(lane.get(ids.failed)?.lane, 'probing');
  assert.equal(lane.get(ids.active)?.lane, 'active');
  assert.equal(lane.get(ids.dormant)?.lane, 'dormant');
  // The rank is untouched; only the moved listings are fed as changed.
  assert.equal(Number(lane.get(ids.failed)?.rank), 35);
  assert.equal(lane.get(ids.queued)?.updated_at, LATER);
  assert.equal(await changes(ids.queued), before.queued + 1);
  assert.equal(await changes(ids.failed), before.failed + 1);
  assert.equal(await changes(ids.active), before.active);
  assert.deepEqual(await markProbing(d.ex, [], LATER), new Map());
});
