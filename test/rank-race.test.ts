// Two domains changing their rank parts of one listing at the same moment, from two instances
// (PostgreSQL: two pools), never lose one another's update (docs/decisions/rank-parts.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, postJson } from './helpers/app.ts';
import { updateListing } from '../src/listings/store.ts';

test('concurrent rank-part updates of one listing keep every part and a rank that is their sum', async (t) => {
  const a = await startApp();
  const b = await startApp({ joinStore: a.store });
  t.after(async () => {
    await b.close();
    await a.close();
  });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push((await postJson(a, '/api/publish', { url: `https://race-${i}.example/mcp` })).body.id);
  const now = a.clock.now().toISOString();
  await Promise.all(
    ids.flatMap((id, i) => [
      updateListing(a.services.db.kysely, id, {}, now, { probe: 50 + i }),
      updateListing(b.services.db.kysely, id, {}, now, { funnel: 120 }),
      updateListing(a.services.db.kysely, id, { description: `d${i}` }, now, { trail: 3 }),
    ]),
  );
  const rows = await a.sql.selectFrom('listings').select(['id', 'rank', 'rank_parts', 'description']).where('id', 'in', ids).execute();
  for (const row of rows) {
    const parts = JSON.parse(row.rank_parts);
    const i = ids.indexOf(row.id);
    assert.equal(parts.probe, 50 + i);
    assert.equal(parts.funnel, 120);
    assert.equal(parts.trail, 3);
    assert.equal(row.rank, 50 + i + 120 + 3);
    assert.equal(row.description, `d${i}`);
  }
});
