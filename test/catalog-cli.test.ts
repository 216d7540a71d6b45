// `sync-catalog` as an operator runs it (`npm run sync-catalog`): a real process against the local
// upstream registry and a fresh store, with its progress bar and summary; Ctrl-C in the middle
// keeps the cursor, and the next run resumes there. Runs on RC_TEST_ENGINE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freshStore, engine, type TestStore } from './helpers/app.ts';
import { startUpstreamRegistry, type UpstreamRegistry } from './peers/upstream-registry.ts';
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

function start(env: Record<string, string>, args: string[] = []): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'sync-catalog', ...args], {
    cwd: root,
    env: { ...base, LOG_LEVEL: 'silent', ...store.env, ...env },
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

test(`sync-catalog without UPSTREAM_REGISTRY_URL says what to set and exits 2 (${engine})`, async () => {
  const { code, err } = await start({}).done;
  assert.equal(code, 2);
  assert.match(err, /set UPSTREAM_REGISTRY_URL/);
});

test(`sync-catalog pulls the upstream registry with a progress bar; Ctrl-C keeps its place, the next run resumes there, then only changes are pulled (${engine})`, async () => {
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
  assert.match(second.err, /catalog sync \|[█░=\- ]*\| \d+\/\d+ entries \| page \d+ \| \d+ stored/, 'a progress bar');
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
