// The catalog's load of a local file (src/catalog/file.ts, load.ts; `rollcall sync-catalog --file`
// runs it, test/catalog-cli.test.ts): the shapes a file may have, and a load that stops halfway or
// meets a running sync stores nothing. Runs on the engine of this run (RC_TEST_ENGINE).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from './helpers/db.ts';
import { seedItems, OFFICIAL } from './peers/upstream-registry.ts';
import { CatalogFileError, parseCatalogDocument } from '../src/catalog/file.ts';
import { loadCatalogItems, LoadStopped } from '../src/catalog/load.ts';
import { beginSyncRun, releaseSyncRun, SyncBusy } from '../src/catalog/sync-state.ts';
import { countCatalog } from '../src/catalog/store.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { locateJsonError } from '../src/platform/json-syntax.ts';

const d = migratedDbPerFile();
const clock = new ManualClock('2026-11-01T12:00:00.000Z');
const valid = () => seedItems().filter((i) => i.server.name);

test('a file may be the list answer, a plain array of server.json, or the seed: the same items either way', () => {
  const item = valid()[0]!;
  const list = parseCatalogDocument(JSON.stringify({ servers: [item], metadata: { count: 1 } }), 'list.json');
  assert.deepEqual(list, { format: 'server_list', items: [item] });
  const plain = parseCatalogDocument(JSON.stringify([item.server]), 'plain.json');
  assert.deepEqual(plain, { format: 'server_json_array', items: [{ server: item.server }] });
  // The registry's early answers carried _meta inside each server.json.
  const inside = parseCatalogDocument(JSON.stringify({ servers: [{ ...item.server, _meta: item._meta }] }), 'v0.json');
  assert.deepEqual(inside.items, [item]);
  const seed = parseCatalogDocument(
    JSON.stringify([
      {
        name: 'io.github.example/seeded',
        description: 'A seeded server.',
        repository: { url: 'https://github.com/example/seeded', source: 'github' },
        version_detail: { version: '0.0.1-seed', release_date: '2025-05-16T18:56:49Z', is_latest: true },
        packages: [{ registry_name: 'npm', name: '@example/seeded', version: '1.0.0', environment_variables: [{ name: 'API_KEY', is_required: true }] }],
        remotes: [{ transport_type: '', url: 'https://seeded.example/sse' }],
      },
    ]),
    'seed.json',
  );
  assert.deepEqual(seed.items, [
    {
      server: {
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
        name: 'io.github.example/seeded',
        description: 'A seeded server.',
        version: '0.0.1-seed',
        repository: { url: 'https://github.com/example/seeded', source: 'github' },
        packages: [{ registryType: 'npm', identifier: '@example/seeded', version: '1.0.0', transport: { type: 'stdio' }, environmentVariables: [{ name: 'API_KEY', isRequired: true }] }],
        remotes: [{ type: 'sse', url: 'https://seeded.example/sse' }],
      },
      _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2025-05-16T18:56:49.000Z', updatedAt: '2025-05-16T18:56:49.000Z', isLatest: true } },
    },
  ]);
});

test('a file that cannot be a catalog is refused whole, saying where', () => {
  const refused = (text: string) => {
    try {
      parseCatalogDocument(text, 'x.json');
    } catch (err) {
      assert.ok(err instanceof CatalogFileError);
      return `${err.code}: ${err.message}`;
    }
    assert.fail(`accepted ${text}`);
  };
  assert.equal(refused('{"servers": [\n  {"a": 1} {"b": 2}\n]}'), `not_json: x.json is not JSON: expected ',' or ']' after an array element, found "{" at line 2, column 12`);
  assert.equal(refused('[{"a": "b'), 'not_json: x.json is not JSON: a string is not closed at line 1, column 10');
  assert.equal(refused(''), 'not_json: x.json is not JSON: expected a value, found the end of the text at line 1, column 1');
  assert.equal(refused('null'), `not_a_server_list: x.json holds null: expected the registry's list answer {"servers": [{"server": {...}, "_meta": {...}}], "metadata": {...}} or an array of server.json objects`);
  assert.match(refused('{"servers": [], "metadata": {"count": "one"}}'), /^not_a_server_list: x\.json is not a server list: at metadata\.count, /);
});

test('the JSON locator agrees with JSON.parse on what is JSON', () => {
  for (const text of ['{}', '[]', ' 1 ', '-0.5e+3', '"a\\u00e9\\n"', '{"a": [true, false, null, {"b": "c"}]}']) {
    JSON.parse(text);
    assert.equal(locateJsonError(text), undefined, text);
  }
  for (const text of ['{,}', '[1,]', '01', '"\t"', '{"a" 1}', '[1] 2', 'tru', '"\\x"']) {
    assert.throws(() => JSON.parse(text));
    assert.ok(locateJsonError(text), text);
  }
});

test('a load stopped halfway stores nothing, nor does one that meets a running sync; a whole load counts each entry once', async () => {
  const items = seedItems();
  const stop = new AbortController();
  await assert.rejects(
    loadCatalogItems({ db: d.ex, clock }, items, {
      signal: stop.signal,
      onProgress: (p) => {
        if (p.done >= 200) stop.abort();
      },
    }),
    LoadStopped,
  );
  assert.deepEqual(await countCatalog(d.ex), { servers: 0, versions: 0 }, 'the 200 stored before the stop were rolled back');

  const run = await beginSyncRun(d.ex, { upstream: 'https://registry.example', holder: 'another-process', now: clock.now(), leaseS: 300, full: false });
  await assert.rejects(loadCatalogItems({ db: d.ex, clock }, items), SyncBusy);
  assert.deepEqual(await countCatalog(d.ex), { servers: 0, versions: 0 });
  await releaseSyncRun(d.ex, run, null, clock.now());

  const seen: number[] = [];
  const result = await loadCatalogItems({ db: d.ex, clock }, items, { onProgress: (p) => seen.push(p.done) });
  assert.deepEqual([result.read, result.added, result.updated, result.unchanged, result.refused], [471, 464, 0, 0, 7]);
  assert.deepEqual(seen, [100, 200, 300, 400, 464]);
  assert.deepEqual(await countCatalog(d.ex), { servers: 464, versions: 464 });
  assert.equal(valid().length, 464);
});
