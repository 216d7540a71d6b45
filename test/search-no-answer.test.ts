// A need nothing serves, through the real doors, on both catalogs of ../shared/data (the registry
// seed and the community dev catalog, each in an app of its own): no hits (`match: "none"`), or
// hits whose answer says `match: "weak"`, on /api/ard/search, ard_search and search_active (the
// official MCP SDK client); a need the catalog serves says `strong`. And a Live listing found only through
// its tool text: server-everything, probed for real, by what one of its tools does. And two kinds of
// misspelling on the dev catalog: a short word missing a letter, and one some entries share.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startApp, postJson, engine, type TestApp } from './helpers/app.ts';
import { waitForLane } from './helpers/wait.ts';
import { startEverything, type Peer } from './peers/mcp-servers.ts';
import { DEV_FILE, SEED_FILE } from './peers/upstream-registry.ts';
import { parseCatalogDocument } from '../src/catalog/file.ts';
import { loadCatalogItems } from '../src/catalog/load.ts';

const ENV = { PROBE_ALLOW_PRIVATE: '1', SEARCH_POLL_MS: '0' };

interface Catalog {
  app: TestApp;
  base: string;
  mcp: Client;
}
const catalogs: Record<'seed' | 'dev', Catalog> = {} as never;
let everything: Peer;

async function catalogApp(file: string, probing = false): Promise<Catalog> {
  const app = await startApp({ env: ENV, probing });
  await loadCatalogItems({ db: app.services.db.kysely, clock: app.clock }, parseCatalogDocument(fs.readFileSync(file, 'utf8'), file).items);
  await app.services.search.poll();
  const base = await app.listen();
  const mcp = new Client({ name: 'no-answer-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)));
  return { app, base, mcp };
}

before(async () => {
  everything = await startEverything();
  [catalogs.seed, catalogs.dev] = await Promise.all([catalogApp(SEED_FILE, true), catalogApp(DEV_FILE)]);
});
after(async () => {
  for (const c of Object.values(catalogs)) {
    await c.mcp.close();
    await c.app.close();
  }
  await everything.close();
});

interface Answer {
  count: number;
  match: 'strong' | 'weak' | 'none';
  hits: { match?: string; name: string; listing_id?: string; score?: number | null; why: string[] }[];
}

async function rest(c: Catalog, q: string): Promise<Answer> {
  const res = await fetch(`${c.base}/api/ard/search?q=${encodeURIComponent(q)}`);
  assert.equal(res.status, 200);
  return (await res.json()) as Answer;
}

async function tool(c: Catalog, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await c.mcp.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  return result.structuredContent as unknown as Answer;
}

/** Nothing, or only guesses that say so; the same at both doors. */
function assertNoAnswer(a: Answer, q: string) {
  if (a.count === 0) assert.equal(a.match, 'none', q);
  else {
    assert.equal(a.match, 'weak', `${q}: ${JSON.stringify(a.hits.slice(0, 3).map((h) => [h.name, h.why]))}`);
    assert.ok(a.hits.every((h) => h.match === 'weak'), q);
  }
}

const NOTHING = {
  seed: ['wedding dress shopping', 'order pizza delivery', 'find a plumber near me'],
  dev: ['check the winning Powerball lottery numbers', 'book a tee time at a golf course this saturday', "log my baby's feedings, naps and diaper changes"],
};
const SERVED = {
  seed: 'I need to query my postgres database from my agent',
  dev: "I need my agent to run SQL queries against our company's Postgres database and look at the table schemas.",
};

for (const set of ['seed', 'dev'] as const) {
  test(`${set} catalog: a need nothing serves is no hits or weak ones, on /api/ard/search and ard_search; a served one is strong (${engine})`, async () => {
    const c = catalogs[set];
    for (const q of NOTHING[set]) {
      const [viaRest, viaMcp] = await Promise.all([rest(c, q), tool(c, 'ard_search', { q })]);
      assertNoAnswer(viaRest, q);
      assertNoAnswer(viaMcp, q);
      assert.deepEqual(viaMcp.hits.map((h) => h.name), viaRest.hits.map((h) => h.name), 'one answer at both doors');
    }
    const served = await rest(c, SERVED[set]);
    assert.equal(served.match, 'strong');
    assert.equal(served.hits[0]!.match, 'strong');
    assert.match(JSON.stringify(served.hits.slice(0, 3).map((h) => h.name)), /postgres|sql|database/i);
  });
}

test(`search_active: a Live listing is found through its tool text alone; a need it does not serve is no hit or a weak one (${engine})`, async () => {
  const c = catalogs.seed;
  const listed = await postJson(c.app, '/api/publish', { url: everything.url });
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  await waitForLane(c.app, listed.body.listing_id, ['active']);
  await c.app.services.search.poll();
  // Only its gzip tool's name and description say this: not the server's name, nor its description.
  const found = await tool(c, 'search_active', { q: 'compress a file with gzip' });
  assert.equal(found.match, 'strong');
  assert.equal(found.hits[0]!.listing_id, listed.body.listing_id);
  assert.ok(found.hits[0]!.why.some((w) => /gzip/.test(w)), JSON.stringify(found.hits[0]!.why));
  for (const q of ['find a plumber near me', 'book a tee time at a golf course this saturday']) assertNoAnswer(await tool(c, 'search_active', { q }), q);
  // The same relevance as ard_search: "send an email" matched the everything server on "send" alone,
  // and with no other Live listing it scored 100 in search_active while the catalog's mail servers
  // ranked far above it in ard_search. Each search_active hit has ard_search's score and match.
  for (const q of ['send an email', 'compress a file with gzip', 'echo a message back']) {
    const active = await tool(c, 'search_active', { q });
    const all = await tool(c, 'ard_search', { q, limit: 100 });
    for (const hit of active.hits) {
      const same = all.hits.find((h) => h.listing_id === hit.listing_id);
      assert.deepEqual([hit.score, hit.match], [same?.score, same?.match], `${q}: ${JSON.stringify(hit)} against ${JSON.stringify(same)}`);
    }
    if (q === 'send an email') assert.ok(active.hits.every((h) => (h.score ?? 0) < 50), JSON.stringify(active.hits.map((h) => [h.name, h.score, h.why])));
  }
});

test(`dev catalog: a short word missing a letter, and a misspelling a few of its entries share, are corrected (${engine})`, async () => {
  const c = catalogs.dev;
  // "slak": four letters, one missing. "postgress": a word one or two entries use, beside the
  // postgres that many do: both answers lead with what was meant, and say how they read the word.
  for (const [q, meant, read] of [
    ['slak', /slack/i, 'slak → slack (spelling)'],
    ['postgress', /postgres/i, 'postgress → postgres (spelling)'],
  ] as const) {
    const answer = await rest(c, q);
    assert.equal(answer.match, 'strong', q);
    assert.match(answer.hits[0]!.name, meant, `${q}: ${JSON.stringify(answer.hits.slice(0, 3).map((h) => h.name))}`);
    assert.ok(answer.hits.some((h) => h.why.includes(read)), `${q}: ${JSON.stringify(answer.hits.map((h) => h.why))}`);
  }
  assert.equal((await tool(c, 'ard_search', { q: 'exel spreadsheet' })).hits.some((h) => /excel/i.test(h.name)), true);
});
