// `sync-catalog` as an operator runs it (`npm run sync-catalog`): a real process against the local
// upstream registry and a fresh store, with its progress and summary; Ctrl-C in the middle keeps
// the cursor, and the next run resumes there; a refused upstream says why and what to do; progress
// is a bar only on a terminal; `--file` loads the seed file without the network, and a bad file
// stores nothing. Runs on RC_TEST_ENGINE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freshStore, engine, type TestStore } from './helpers/app.ts';
import { startUpstreamRegistry, seedItems, SEED_FILE, type UpstreamItem, type UpstreamRegistry } from './peers/upstream-registry.ts';
import { countCatalog } from '../src/catalog/store.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';

const root = path.resolve(import.meta.dirname, '..');
let upstream: UpstreamRegistry;
let store: TestStore;

before(async () => {
  upstream = await startUpstreamRegistry({ pageSize: 50 });
  store = await freshStore();
});
after(async () => {
  await store.db.close();
  await store.drop();
  await upstream.close();
});

/** The command's environment: the store's, and nothing of this process's own database, upstream or address policy. */
function commandEnv(on: TestStore, env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of ['DATABASE_URL', 'UPSTREAM_REGISTRY_URL', 'PROBE_ALLOW_PRIVATE']) delete base[name];
  return { ...base, LOG_LEVEL: 'silent', ...on.env, ...env };
}

function start(env: Record<string, string>, args: string[] = [], on: TestStore = store): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'sync-catalog', ...args], {
    cwd: root,
    env: commandEnv(on, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) => child.on('close', (code) => resolve({ code, out, err })));
  return { child, done };
}

const ENV = () => ({ UPSTREAM_REGISTRY_URL: upstream.base, PROBE_ALLOW_PRIVATE: '1' });

/** stderr of a run whose stderr is not a terminal: no bar and its redraws, only whole lines of their own. */
function assertNoBar(err: string) {
  assert.doesNotMatch(err, /\|.*\|/, `no progress bar on a pipe: ${err}`);
  for (const line of err.trim().split('\n')) assert.match(line, /^(syncing|resuming|loading|catalog (sync|load): \d)/, `a line of its own: ${line}`);
}

test(`sync-catalog without UPSTREAM_REGISTRY_URL says what to set and exits 2 (${engine})`, async () => {
  const { code, err } = await start({}).done;
  assert.equal(code, 2);
  assert.match(err, /set UPSTREAM_REGISTRY_URL/);
});

test(`sync-catalog refuses a loopback upstream before asking it anything, and says why and what to do instead (${engine})`, async () => {
  const asked = upstream.requests.length;
  // The fixture's own port, then port 80 of the same loopback address.
  const port = await start({ UPSTREAM_REGISTRY_URL: upstream.base }).done;
  assert.equal(port.code, 1, port.err);
  assert.equal(port.out, '');
  assert.equal(port.err.trim().split('\n').length, 1, port.err);
  assert.match(port.err, new RegExp(`^rollcall sync-catalog: refused UPSTREAM_REGISTRY_URL=${upstream.base}: port \\d+ is not allowed: only 80 and 443 are probed\\. `));
  assert.match(port.err, /To load a local catalog use --file PATH; to sync from a registry on your own machine \(development only\) set PROBE_ALLOW_PRIVATE=1\n$/);

  const address = await start({ UPSTREAM_REGISTRY_URL: 'http://127.0.0.1' }, ['--json']).done;
  assert.equal(address.code, 1, address.err);
  const error = JSON.parse(address.out).error;
  assert.equal(error.code, 'upstream_refused');
  assert.match(error.message, /^refused UPSTREAM_REGISTRY_URL=http:\/\/127\.0\.0\.1: 127\.0\.0\.1 is not a public address\. To load a local catalog use --file PATH; .* set PROBE_ALLOW_PRIVATE=1$/);
  assert.equal(upstream.requests.length, asked, 'nothing was asked of the upstream');
});

test(`sync-catalog pulls the upstream registry with its progress on stderr; Ctrl-C keeps its place, the next run resumes there, then only changes are pulled (${engine})`, async () => {
  // Interrupted: upstream stops answering after page 2; the operator presses Ctrl-C.
  upstream.failOnceAfterPage(2, 'hang');
  const first = start(ENV());
  const deadline = Date.now() + 30_000;
  while (upstream.requests.length < 3) {
    assert.ok(Date.now() < deadline, 'the CLI reached page 3');
    await new Promise((r) => setTimeout(r, 50));
  }
  first.child.kill('SIGINT');
  const stopped = await first.done;
  assert.equal(stopped.code, 130, stopped.err);
  assert.match(stopped.err, /syncing http:\/\/127\.0\.0\.1:\d+: everything/);
  assert.match(stopped.err, /interrupted\. The next run resumes at page 3\./);

  upstream.requests.length = 0;
  const second = await start(ENV(), ['--json']).done;
  assert.equal(second.code, 0, second.err);
  assert.match(second.err, /resuming the interrupted sync of http:\/\/127\.0\.0\.1:\d+ at page 3 \(everything\)/);
  assertNoBar(second.err);
  assert.equal(upstream.requests[0]?.cursor, upstream.cursorAt(100), 'resumed from the cursor of page 3, not from the start');
  assert.equal(upstream.requests.length, 8);
  // --json: the result is the one line on stdout.
  assert.equal(second.out.trim().split('\n').length, 1);
  const summary = JSON.parse(second.out);
  assert.equal(summary.ok, true);
  assert.deepEqual(
    [summary.mode, summary.resumed, summary.fetched, summary.pages, summary.stored, summary.unchanged],
    ['full', true, 371, 8, 366, 0],
  );
  assert.equal(summary.skipped, 5, 'two of the seven blank records were on the pages before the interruption');
  assert.equal(summary.runPages, 10);
  assert.deepEqual(summary.catalog, { servers: 464, versions: 464 });
  assert.deepEqual(summary._meta['io.rollcall/sync'], { skipped: 5, skipped_reasons: { 'invalid server.name': 5 } });

  // The next run pulls only what changed since the watermark (nothing here).
  upstream.requests.length = 0;
  const third = await start(ENV()).done;
  assert.equal(third.code, 0, third.err);
  assert.equal(upstream.requests.length, 1);
  assert.ok(upstream.requests[0]?.updated_since, 'asked with updated_since');
  // Without --json: one summary line.
  assert.match(third.out, /^catalog sync done \(incremental\): 0 fetched in 1 pages, 0 stored, 0 unchanged, 0 skipped as invalid; the catalog holds 464 servers \(464 versions\)\n$/);

  // --full pulls everything again, and finds it unchanged.
  const full = await start(ENV(), ['--full', '--json']).done;
  assert.equal(full.code, 0, full.err);
  const fullSummary = JSON.parse(full.out);
  assert.equal(fullSummary.mode, 'full');
  assert.equal(fullSummary.unchanged, 464);
  assert.equal(fullSummary.skipped, 7);
  assert.deepEqual(fullSummary._meta['io.rollcall/sync'], { skipped: 7, skipped_reasons: { 'invalid server.name': 7 } });

  await migrateToLatest(store.db, schemaHistory(store.db));
  assert.deepEqual(await countCatalog(store.db.kysely), { servers: 464, versions: 464 });
});

test(`sync-catalog with stderr on a pipe prints no progress bar: no line per redraw, however long the sync (${engine})`, async () => {
  // Three seconds or more of sync: a bar redrawn every second would write a line each time.
  const slow = await startUpstreamRegistry({ pageSize: 50, delayMs: 300 });
  const own = await freshStore();
  try {
    const started = Date.now();
    const run = await start({ UPSTREAM_REGISTRY_URL: slow.base, PROBE_ALLOW_PRIVATE: '1' }, [], own).done;
    const elapsed = Date.now() - started;
    assert.equal(run.code, 0, run.err);
    assert.ok(elapsed >= 3000, `a sync of ${elapsed} ms`);
    assertNoBar(run.err);
    const lines = run.err.trim().split('\n');
    assert.equal(lines[0], `syncing ${slow.base}: everything`);
    // A plain line at most every 10 s (none at all on a quick machine).
    assert.ok(lines.length <= 1 + Math.floor(elapsed / 10_000), run.err);
    assert.match(run.out, /^catalog sync done \(full\): 471 fetched in 10 pages, 464 stored, 0 unchanged, 7 skipped as invalid; the catalog holds 464 servers \(464 versions\)\n$/);
  } finally {
    await own.db.close();
    await own.drop();
    await slow.close();
  }
});

test(`sync-catalog on a terminal draws its progress bar (${engine})`, async () => {
  // script(1) gives the command a terminal; the bar ends at the number of valid entries.
  const own = await freshStore();
  try {
    const line = [process.execPath, '--import', 'tsx', 'src/main.ts', 'sync-catalog', '--file', SEED_FILE].join(' ');
    const run = spawnSync('script', ['-qec', line, '/dev/null'], { cwd: root, env: commandEnv(own, {}), encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /catalog load \|[^|]+\| 464\/464 entries \| 464 added, 0 updated, 0 unchanged, 7 refused/);
  } finally {
    await own.db.close();
    await own.drop();
  }
});

/** A catalog file in this store's folder. */
const writeCatalog = (on: TestStore, name: string, content: unknown) => {
  const file = path.join(on.dataDir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const catalogOf = async (on: TestStore) => {
  await migrateToLatest(on.db, schemaHistory(on.db));
  return countCatalog(on.db.kysely);
};

test(`sync-catalog --file loads the seed file without the network: each entry checked like a synced one, then stored, updated or found unchanged (${engine})`, async () => {
  const own = await freshStore();
  try {
    // The seed file as it is (a plain array of server.json in the seed's shape); no upstream set.
    const first = await start({}, ['--file', SEED_FILE, '--json'], own).done;
    assert.equal(first.code, 0, first.err);
    assert.deepEqual(first.err.trim().split('\n'), [`loading ${SEED_FILE}: 471 entries (an array of server.json)`]);
    const loaded = JSON.parse(first.out);
    assert.deepEqual(
      { ok: loaded.ok, format: loaded.format, read: loaded.read, added: loaded.added, updated: loaded.updated, unchanged: loaded.unchanged, refused: loaded.refused, catalog: loaded.catalog },
      { ok: true, format: 'server_json_array', read: 471, added: 464, updated: 0, unchanged: 0, refused: 7, catalog: { servers: 464, versions: 464 } },
    );
    assert.deepEqual(loaded.refusedReasons, { 'invalid server.name': 7 }, 'the seven blank records, refused as a sync refuses them');

    const again = await start({}, ['--file', SEED_FILE], own).done;
    assert.equal(again.code, 0, again.err);
    assert.equal(again.out, `catalog loaded from ${SEED_FILE}: 471 entries read, 0 added, 0 updated, 464 unchanged, 7 refused as invalid; the catalog holds 464 servers (464 versions)\n`);

    // The registry's list answer: one server changed, one new; the others as stored.
    const items: UpstreamItem[] = seedItems().filter((i) => i.server.name).slice(0, 20);
    items[3]!.server.description = 'A new description for the file.';
    items.push({ ...items[0]!, server: { ...items[0]!.server, name: 'io.github.rollcall-tests/from-a-file' } });
    const list = writeCatalog(own, 'list.json', { servers: items, metadata: { count: items.length } });
    const fromList = JSON.parse((await start({}, ['--file', list, '--json'], own).done).out);
    assert.deepEqual([fromList.format, fromList.read, fromList.added, fromList.updated, fromList.unchanged, fromList.refused], ['server_list', 21, 1, 1, 19, 0]);

    // A plain array of server.json in the current shape.
    const plain = writeCatalog(own, 'plain.json', [{ ...items[0]!.server, name: 'io.github.rollcall-tests/plain', version: '1.0.0' }]);
    const fromPlain = JSON.parse((await start({}, ['--file', plain, '--json'], own).done).out);
    assert.deepEqual([fromPlain.format, fromPlain.added, fromPlain.catalog], ['server_json_array', 1, { servers: 466, versions: 466 }]);
    assert.deepEqual(await catalogOf(own), { servers: 466, versions: 466 });
  } finally {
    await own.db.close();
    await own.drop();
  }
});

test(`sync-catalog --file refuses a missing file, one that is not JSON and one that is not a server list: exit 1, one line saying what and where, nothing stored (${engine})`, async () => {
  const own = await freshStore();
  try {
    const seed = fs.readFileSync(SEED_FILE, 'utf8');
    const cases: [string, RegExp, string][] = [
      [path.join(own.dataDir, 'missing.json'), /: no such file$/, 'file_not_found'],
      // The seed cut short: hundreds of valid entries before the break, and none may be stored.
      [writeCatalog(own, 'cut.json', seed.slice(0, Math.floor(seed.length * 0.9))), /cut\.json is not JSON: .* at line \d+, column \d+$/, 'not_json'],
      [writeCatalog(own, 'comma.json', '{"servers": [\n  {"server": {}},,\n]}'), /comma\.json is not JSON: expected a value, found "," at line 2, column 18$/, 'not_json'],
      [writeCatalog(own, 'other.json', { items: [] }), /other\.json holds an object with "items" and no "servers": expected the registry's list answer/, 'not_a_server_list'],
      [writeCatalog(own, 'servers.json', { servers: { a: 1 } }), /servers\.json is not a server list: at servers, /, 'not_a_server_list'],
      [writeCatalog(own, 'number.json', '42'), /number\.json holds a number: expected/, 'not_a_server_list'],
    ];
    for (const [file, message, code] of cases) {
      const run = await start({}, ['--file', file], own).done;
      assert.equal(run.code, 1, `${file}: ${run.err}`);
      assert.equal(run.out, '', file);
      const lines = run.err.trim().split('\n');
      assert.equal(lines.length, 1, run.err);
      assert.ok(lines[0]!.startsWith(`rollcall sync-catalog: ${file}`), lines[0]);
      assert.match(lines[0]!, message);
      const json = await start({}, ['--file', file, '--json'], own).done;
      assert.equal(JSON.parse(json.out).error.code, code, file);
    }
    assert.deepEqual(await catalogOf(own), { servers: 0, versions: 0 });
  } finally {
    await own.db.close();
    await own.drop();
  }
});

test(`sync-catalog --file stopped by Ctrl-C stores nothing of the file: exit 130 (${engine})`, async () => {
  const own = await freshStore();
  try {
    // Ten copies of the seed under other names: thousands of entries, stored in batches of 100.
    const copies = Array.from({ length: 10 }, (_, k) => seedItems().map((i) => ({ ...i, server: { ...i.server, name: i.server.name ? `${i.server.name}-${k}` : '' } }))).flat();
    const file = writeCatalog(own, 'copies.json', { servers: copies });
    const load = start({}, ['--file', file], own);
    let err = '';
    const onErr = (c: Buffer) => {
      err += c;
      if (!err.includes('loading ')) return;
      // Ctrl-C once, as soon as the load has begun.
      load.child.kill('SIGINT');
      load.child.stderr!.off('data', onErr);
    };
    load.child.stderr!.on('data', onErr);
    const stopped = await load.done;
    assert.equal(stopped.code, 130, stopped.err);
    assert.match(stopped.err, /^rollcall sync-catalog: interrupted: the load was stopped before it finished; nothing was stored$/m);
    assert.deepEqual(await catalogOf(own), { servers: 0, versions: 0 });
  } finally {
    await own.db.close();
    await own.drop();
  }
});

test(`sync-catalog --file after a sync of the same servers finds them unchanged: one way of checking and storing (${engine})`, async () => {
  const run = await start({}, ['--file', SEED_FILE, '--json']).done;
  assert.equal(run.code, 0, run.err);
  const loaded = JSON.parse(run.out);
  assert.deepEqual([loaded.added, loaded.updated, loaded.unchanged, loaded.refused], [0, 0, 464, 7]);
});
