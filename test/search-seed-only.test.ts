// The vocabulary (src/search/concepts.ts) was written while reading the registry's seed; the engine's
// answers on another catalog must not lean on what only the seed uses. With the table's seed-only
// words and phrases taken out (bench/search-quality/seed-only.ts: used by the seed's entries, by
// none of the community dev catalog's entries and none of its judged queries), every query of the
// dev set gets the same answer through /api/ard/search: hits, scores, reasons and match.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { DEV_FILE } from './peers/upstream-registry.ts';
import { parseCatalogDocument } from '../src/catalog/file.ts';
import { loadCatalogItems } from '../src/catalog/load.ts';
import { CONCEPTS } from '../src/search/concepts.ts';
import { useConceptDefinitions } from '../src/search/vocabulary.ts';
import { DEV_QUERIES } from '../bench/search-quality/dev-queries.ts';
import { loadDev, loadSeed } from '../bench/search-quality/seed.ts';
import { withoutSeedOnly } from '../bench/search-quality/seed-only.ts';

after(() => useConceptDefinitions(CONCEPTS));

/** Every dev query's answer from a fresh app that indexed the dev catalog with the table in use now. */
async function devAnswers(): Promise<unknown[]> {
  const app: TestApp = await startApp({ env: { SEARCH_POLL_MS: '0' } });
  try {
    await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, parseCatalogDocument(fs.readFileSync(DEV_FILE, 'utf8'), DEV_FILE).items);
    await app.services.search.poll();
    const answers: unknown[] = [];
    for (const q of DEV_QUERIES) {
      const res = await app.http.inject({ method: 'GET', url: `/api/ard/search?q=${encodeURIComponent(q.text)}&limit=10` });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { match: string; hits: { identifier: string; score: number; match: string; why: string[] }[] };
      answers.push({ match: body.match, hits: body.hits.map((h) => [h.identifier, h.score, h.match, h.why.join('; ')]) });
    }
    return answers;
  } finally {
    await app.close();
  }
}

test(`the dev catalog's answers do not change when the vocabulary's seed-only words are taken out (${engine})`, async () => {
  const withTable = await devAnswers();
  const { defs, removed } = withoutSeedOnly(CONCEPTS, loadSeed(), loadDev(), DEV_QUERIES.map((q) => q.text));
  assert.ok(removed.length > 100, `${removed.length} seed-only words and phrases`);
  useConceptDefinitions(defs);
  const withoutSeedOnlyWords = await devAnswers();
  useConceptDefinitions(CONCEPTS);
  for (const [i, q] of DEV_QUERIES.entries()) assert.deepEqual(withoutSeedOnlyWords[i], withTable[i], q.text);
});
