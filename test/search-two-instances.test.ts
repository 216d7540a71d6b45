// Two instances on one database answer every query alike, however their indexes were built: one
// follows the catalog's sync through the change feed (half of the community dev catalog of
// ../shared/data indexed as changes, after a start on the other half), the other indexes it all at
// its start. Every query of the dev set, through /api/ard/search, gives both the same hits, scores,
// reasons and match. Runs on RC_TEST_ENGINE (on PostgreSQL: two instances, one database).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { DEV_FILE } from './peers/upstream-registry.ts';
import { parseCatalogDocument } from '../src/catalog/file.ts';
import { loadCatalogItems } from '../src/catalog/load.ts';
import { DEV_QUERIES } from '../bench/search-quality/dev-queries.ts';

const apps: TestApp[] = [];
after(async () => {
  for (const app of apps.reverse()) await app.close();
});

test(`two instances, one indexing the catalog as it arrives and one at its start, answer every query alike (${engine})`, async () => {
  const items = parseCatalogDocument(fs.readFileSync(DEV_FILE, 'utf8'), DEV_FILE).items;
  // Interleaved halves, so the follower's index holds its documents in another order than the other's.
  const [first, second] = [items.filter((_, i) => i % 2 === 0), items.filter((_, i) => i % 2 === 1)];
  const follower = await startApp({ env: { SEARCH_POLL_MS: '0' } });
  apps.push(follower);
  await loadCatalogItems({ db: follower.services.db.kysely, clock: follower.clock }, second);
  await follower.services.search.poll();
  await loadCatalogItems({ db: follower.services.db.kysely, clock: follower.clock }, first);
  const starter = await startApp({ joinStore: follower.store, env: { SEARCH_POLL_MS: '0' } });
  apps.push(starter);

  const ask = async (app: TestApp, q: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/ard/search?q=${encodeURIComponent(q)}&limit=20` });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { match: string; hits: { identifier: string; score: number; match: string; why: string[] }[] };
    return { match: body.match, hits: body.hits.map((h) => [h.identifier, h.score, h.match, h.why.join('; ')]) };
  };
  let compared = 0;
  for (const q of DEV_QUERIES) {
    const [a, b] = [await ask(follower, q.text), await ask(starter, q.text)];
    assert.deepEqual(a, b, q.text);
    compared += a.hits.length;
  }
  assert.ok(compared > DEV_QUERIES.length * 5, `${compared} hits compared`);
});
