// The catalog sync against a local upstream registry on loopback that serves the 471
// real servers of ../shared/data/mcp-registry-seed-2025-05-16.json in pages of 50: a full sync
// stores the 464 valid ones and counts the 7 blank ones, an upstream edit comes back through
// updated_since, an interrupted sync resumes from the cursor it stopped at, and the periodic job
// does the same on its own. Runs on the engine of this run (RC_TEST_ENGINE).
import { test, beforeEach, afterEach } from 'node:test';
import http from 'node:http';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { startApp, engine, type TestApp } from './helpers/app.ts';
import { startUpstreamRegistry, OFFICIAL, SCHEMA, type UpstreamItem, type UpstreamRegistry } from './peers/upstream-registry.ts';
import { syncCatalog, UpstreamError, type SyncOptions } from '../src/catalog/sync.ts';
import { beginSyncRun, readSyncState, SyncBusy } from '../src/catalog/sync-state.ts';
import { catalogPage, catalogNamesByRemoteUrl, CATALOG_ENTITY, countCatalog, findCatalogEntries } from '../src/catalog/store.ts';
import { createCatalogClient } from '../src/catalog/client.ts';
import { CATALOG_SYNC_JOB } from '../src/catalog/job.ts';
import { findJob } from '../src/platform/jobs/store.ts';
import type { CatalogTables } from '../src/catalog/tables.ts';
import type { ManualClock } from '../src/platform/clock.ts';
import type { GuardedClient } from '../src/platform/net/guarded-client.ts';

let app: TestApp;
let upstream: UpstreamRegistry;
let client: GuardedClient;

const ENV = { PROBE_ALLOW_PRIVATE: '1', PROBE_TIMEOUT_MS: '1500' };

beforeEach(async () => {
  upstream = await startUpstreamRegistry({ pageSize: 50 });
  app = await startApp({ env: ENV });
  client = createCatalogClient(app.config);
});
afterEach(async () => {
  await client.destroy();
  await app.close();
  await upstream.close();
});

const clock = () => app.clock as ManualClock;
const tables = () => app.services.db.kysely as unknown as Kysely<CatalogTables>;
const sync = (more: Partial<SyncOptions> = {}) =>
  syncCatalog({ db: app.services.db.kysely, clock: app.clock }, { upstream: upstream.base, fetcher: client, pageSize: 100, leaseS: 300, overlapS: 300, ...more });
const catalogChanges = async () => (await app.sql.selectFrom('changes').selectAll().where('entity', '=', CATALOG_ENTITY).orderBy('seq').execute()).map((c) => [c.entity_id, c.op]);

test(`a full sync follows nextCursor through every page, stores the 464 valid servers and counts the 7 blank ones (${engine})`, async () => {
  const result = await sync();
  assert.equal(result.mode, 'full');
  assert.equal(result.resumed, false);
  assert.equal(result.fetched, 471);
  assert.equal(result.stored, 464);
  assert.equal(result.skipped, 7);
  assert.deepEqual(result.skippedReasons, { 'invalid server.name': 7 });
  assert.equal(result.pages, 10);
  assert.equal(result.watermark, '2026-11-01T11:55:00.000Z', 'the run start minus CATALOG_SYNC_OVERLAP_S');

  // The fixture pages at 50 whatever is asked: the sync followed its cursors, in order, once each.
  assert.deepEqual(
    upstream.requests.map((r) => r.cursor),
    [null, ...Array.from({ length: 9 }, (_, i) => upstream.cursorAt((i + 1) * 50))],
  );
  assert.ok(upstream.requests.every((r) => r.path === '/v0.1/servers' && r.limit === '100' && r.updated_since === null));

  assert.deepEqual(await countCatalog(app.services.db.kysely), { servers: 464, versions: 464 });
  const all = await catalogPage(app.services.db.kysely, null, 1000);
  assert.equal(all.length, 464);
  assert.deepEqual(
    all.map((e) => e.name),
    [...all.map((e) => e.name)].sort((a, b) => (a < b ? -1 : 1)),
    'ordered by name',
  );
  const paged = [...(await catalogPage(app.services.db.kysely, null, 200)), ...(await catalogPage(app.services.db.kysely, all[199]!.name, 300))];
  assert.deepEqual(
    paged.map((e) => e.name),
    all.map((e) => e.name),
  );

  // Each entry keeps its server.json; the CatalogEntry is what search hydrates from.
  const [magic] = await findCatalogEntries(app.services.db.kysely, ['io.github.21st-dev/magic-mcp']);
  assert.ok(magic);
  assert.equal(magic.version, '0.0.1-seed');
  assert.equal(magic.title, null);
  assert.match(magic.description, /^It's like v0 but in your Cursor/);
  assert.equal(magic.repositoryUrl, 'https://github.com/21st-dev/magic-mcp');
  assert.deepEqual(magic.packages, [{ registryType: 'npm', identifier: '@21st-dev/magic' }]);
  assert.equal(magic.updatedAt, '2025-05-16T18:56:49.000Z');
  assert.equal(magic.server.$schema, SCHEMA);
  assert.deepEqual((magic.server.packages as any[])[0].environmentVariables, [{ description: `$\{input:apiKey}`, name: 'API_KEY' }]);
  const [cloudflare] = await findCatalogEntries(app.services.db.kysely, ['io.github.cloudflare/mcp-server-cloudflare']);
  assert.deepEqual(cloudflare?.remoteUrls, ['https://observability.mcp.cloudflare.com/sse', 'https://bindings.mcp.cloudflare.com/sse']);
  assert.deepEqual(await catalogNamesByRemoteUrl(app.services.db.kysely, 'HTTPS://bindings.mcp.cloudflare.com/sse/'), ['io.github.cloudflare/mcp-server-cloudflare']);
  assert.deepEqual(await findCatalogEntries(app.services.db.kysely, ['io.example/unknown']), []);

  // One change-feed row per server, in the transactions that stored them.
  const changes = await catalogChanges();
  assert.equal(changes.length, 464);
  assert.ok(changes.every(([, op]) => op === 'upsert'));

  // Nothing changed upstream: the next run asks only for what changed since the watermark, and stores nothing.
  upstream.requests.length = 0;
  clock().advance(60_000);
  const again = await sync();
  assert.equal(again.mode, 'incremental');
  assert.equal(again.since, '2026-11-01T11:55:00.000Z');
  assert.deepEqual(
    upstream.requests.map((r) => [r.cursor, r.updated_since]),
    [[null, '2026-11-01T11:55:00.000Z']],
  );
  assert.equal(again.fetched, 0);
  assert.equal((await catalogChanges()).length, 464);
});

test(`an upstream edit is picked up by the next incremental run through updated_since, and only it (${engine})`, async () => {
  await sync();
  const name = 'io.github.21st-dev/magic-mcp';
  upstream.edit(name, { description: 'Build UI components\u0007 from a prompt.\u202e' }, '2026-11-01T12:30:00.000Z');
  clock().advance(2 * 3_600_000);
  upstream.requests.length = 0;
  const result = await sync();
  assert.equal(result.mode, 'incremental');
  assert.deepEqual(
    upstream.requests.map((r) => r.updated_since),
    ['2026-11-01T11:55:00.000Z'],
  );
  assert.equal(result.fetched, 1, 'upstream returned only the changed server');
  assert.equal(result.stored, 1);
  assert.equal(result.watermark, '2026-11-01T13:55:00.000Z');
  const [entry] = await findCatalogEntries(app.services.db.kysely, [name]);
  assert.equal(entry?.description, 'Build UI components from a prompt.', 'upstream text is shown cleaned');
  assert.equal(entry?.updatedAt, '2026-11-01T12:30:00.000Z');
  assert.equal((entry!.server as { description: string }).description, 'Build UI components\u0007 from a prompt.\u202e', 'stored as received');
  const changes = await catalogChanges();
  assert.deepEqual(changes.at(-1), [name, 'upsert']);
  assert.equal(changes.length, 465);

  // A new version upstream takes the latest mark; upstream deleting it gives the mark back to the
  // version before; deleting that one too shows as a removal in the feed.
  const v2: UpstreamItem = {
    server: { $schema: SCHEMA, name, description: 'Magic, version two.', version: '0.0.2' },
    _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2026-11-01T14:00:00.000Z', updatedAt: '2026-11-01T14:00:00.000Z', isLatest: true } },
  };
  upstream.put(v2);
  upstream.items.find((i) => i.server.name === name && i.server.version === '0.0.1-seed')!._meta[OFFICIAL].isLatest = false;
  upstream.edit(name, {}, '2026-11-01T14:00:00.000Z'); // the old version's latest mark changed too
  clock().advance(2 * 3_600_000);
  const third = await sync();
  assert.equal(third.stored, 2);
  assert.deepEqual(await countCatalog(app.services.db.kysely), { servers: 464, versions: 465 });
  assert.equal((await findCatalogEntries(app.services.db.kysely, [name]))[0]?.version, '0.0.2');
  upstream.put({ ...v2, _meta: { [OFFICIAL]: { ...v2._meta[OFFICIAL], status: 'deleted', updatedAt: '2026-11-01T17:00:00.000Z' } } });
  clock().advance(2 * 3_600_000);
  await sync();
  assert.deepEqual((await catalogChanges()).at(-1), [name, 'upsert']);
  assert.equal((await findCatalogEntries(app.services.db.kysely, [name]))[0]?.version, '0.0.1-seed', 'the version before is latest again');
  const first = upstream.items.find((i) => i.server.name === name && i.server.version === '0.0.1-seed')!;
  first._meta[OFFICIAL].status = 'deleted';
  first._meta[OFFICIAL].updatedAt = '2026-11-01T19:00:00.000Z';
  clock().advance(2 * 3_600_000);
  await sync();
  assert.deepEqual((await catalogChanges()).at(-1), [name, 'remove']);
  assert.deepEqual(await findCatalogEntries(app.services.db.kysely, [name]), [], 'search sees no deleted server');
});

test(`an interrupted sync resumes from the cursor it stopped at, not from the start (${engine})`, async () => {
  upstream.failOnceAfterPage(3, 'error');
  await assert.rejects(sync(), (err: Error) => err instanceof UpstreamError && /503 for page 4/.test(err.message));
  assert.deepEqual(
    upstream.requests.map((r) => r.cursor),
    [null, upstream.cursorAt(50), upstream.cursorAt(100), upstream.cursorAt(150)],
  );
  const state = await readSyncState(app.services.db.kysely);
  assert.equal(state?.run_cursor, upstream.cursorAt(150), "page 3's nextCursor is saved with page 3");
  assert.equal(state?.run_pages, 3);
  assert.equal(state?.holder, null, 'the lock is released');
  assert.match(state?.last_error ?? '', /503/);
  const stored = (await countCatalog(app.services.db.kysely)).versions;
  assert.ok(stored > 140 && stored <= 150, `three pages stored (${stored})`);

  // A hang is cut by the client's time limit; the cursor does not move.
  upstream.failOnceAfterPage(3, 'hang');
  upstream.requests.length = 0;
  await assert.rejects(sync(), /no complete answer|time/);
  assert.deepEqual(
    upstream.requests.map((r) => r.cursor),
    [upstream.cursorAt(150)],
  );

  upstream.requests.length = 0;
  clock().advance(600_000);
  const result = await sync();
  assert.equal(result.resumed, true);
  assert.equal(result.mode, 'full');
  assert.deepEqual(
    upstream.requests.map((r) => r.cursor),
    [150, 200, 250, 300, 350, 400, 450].map((o) => upstream.cursorAt(o)),
  );
  assert.equal(result.pages, 7);
  assert.equal(result.runPages, 10);
  assert.equal(result.startedAt, '2026-11-01T12:00:00.000Z', 'the run keeps its first start');
  assert.equal(result.watermark, '2026-11-01T11:55:00.000Z', 'so nothing updated while it was interrupted is missed');
  assert.deepEqual(await countCatalog(app.services.db.kysely), { servers: 464, versions: 464 });
  assert.equal((await catalogChanges()).length, 464);
  const after = await readSyncState(app.services.db.kysely);
  assert.equal(after?.run_started_at, null);
  assert.equal(after?.run_cursor, null);
  assert.equal(after?.last_error, null);
});

test(`one sync at a time: a second is refused while the first holds the lock, and takes over once its lease has run out (${engine})`, async () => {
  await beginSyncRun(app.services.db.kysely, { upstream: upstream.base, holder: 'someone-else', now: app.clock.now(), leaseS: 300, full: false });
  await assert.rejects(sync(), SyncBusy);
  assert.equal(upstream.requests.length, 0);
  clock().advance(301_000);
  const result = await sync();
  assert.equal(result.resumed, true, 'the abandoned run is resumed');
  assert.equal(result.stored, 464);
});

test(`invalid upstream entries are skipped and counted by reason, never fatal; a page that is not a server list stops the run (${engine})`, async () => {
  await upstream.close();
  const item = (server: Record<string, unknown>, meta: Record<string, unknown> = {}): UpstreamItem =>
    ({ server: { $schema: SCHEMA, description: 'A server.', version: '1.0.0', ...server }, _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2026-10-01T00:00:00Z', updatedAt: '2026-10-01T00:00:00Z', isLatest: true, ...meta } } }) as UpstreamItem;
  upstream = await startUpstreamRegistry({
    pageSize: 50,
    items: [
      item({ name: 'io.example/good', remotes: [{ type: 'streamable-http', url: 'https://{tenant}.example.com/mcp' }] }),
      item({ name: 'no-slash' }),
      item({ name: 'io.example/long', description: 'x'.repeat(5000) }),
      item({ name: 'io.example/ftp', remotes: [{ type: 'sse', url: 'ftp://example.com/sse' }] }),
      item({ name: 'io.example/pkg', packages: [{ registryType: 'npm', transport: { type: 'stdio' } }] }),
      item({ name: 'io.example/latest', version: 'latest' }),
      item({ name: 'io.example/bad-meta' }, { status: 'weird', updatedAt: 'yesterday' }),
      { oops: true } as unknown as UpstreamItem,
    ],
  });
  const result = await sync();
  assert.equal(result.stored, 2);
  assert.equal(result.skipped, 6);
  assert.deepEqual(result.skippedReasons, {
    'invalid server.name': 1,
    'invalid server.description': 1,
    'invalid server.remotes.0.url': 1,
    'invalid server.packages.0.identifier': 1,
    'invalid server.version': 1,
    'invalid server': 1,
  });
  const rows = await tables().selectFrom('catalog_servers').select(['name', 'status', 'updated_at']).orderBy('name').execute();
  assert.deepEqual(rows, [
    { name: 'io.example/bad-meta', status: 'active', updated_at: '2026-10-01T00:00:00.000Z' },
    { name: 'io.example/good', status: 'active', updated_at: '2026-10-01T00:00:00.000Z' },
  ]);

  // An answer that is not the API's envelope ends the run at that page (it is retried later).
  await upstream.close();
  const bogus = http.createServer((_req, res) => res.end(JSON.stringify({ items: [] })));
  await new Promise<void>((resolve) => bogus.listen(0, '127.0.0.1', resolve));
  const port = (bogus.address() as { port: number }).port;
  try {
    await assert.rejects(sync({ upstream: `http://127.0.0.1:${port}`, full: true }), /not a server list/);
  } finally {
    bogus.closeAllConnections();
    await new Promise((r) => bogus.close(r));
    upstream = await startUpstreamRegistry({ items: [] }); // for afterEach
  }
});

test(`the periodic task makes the sync job due; the job syncs, and after a failure resumes at its page (${engine})`, async () => {
  await app.close();
  app = await startApp({ env: { ...ENV, UPSTREAM_REGISTRY_URL: upstream.base, CATALOG_SYNC_INTERVAL_S: '3600', CATALOG_SYNC_RETRY_S: '120' } });
  upstream.failOnceAfterPage(2, 'error');
  // The clock starts on the hour: the sweep's first run crosses a period boundary and runs the task.
  const run = async () => {
    await app.jobs.tick();
    await app.jobs.idle();
  };
  assert.equal(await findJob(app.services.db.kysely, CATALOG_SYNC_JOB), undefined);
  await run(); // the sweep: the task makes catalog_sync due now (this tick may already claim it once the sweep committed)
  assert.ok(await findJob(app.services.db.kysely, CATALOG_SYNC_JOB), 'the task scheduled the job');
  if (upstream.requests.length === 0) await run(); // the job: pages 1 and 2, then upstream fails
  assert.deepEqual(
    upstream.requests.map((r) => r.cursor),
    [null, upstream.cursorAt(50), upstream.cursorAt(100)],
  );
  const failed = await findJob(app.services.db.kysely, CATALOG_SYNC_JOB);
  assert.equal(failed?.attempts, 1);
  assert.equal(failed?.due_at, '2026-11-01T12:02:00.000Z', 'retried after CATALOG_SYNC_RETRY_S');
  assert.equal(failed?.lease_token, null);

  upstream.requests.length = 0;
  clock().advance(121_000);
  await run();
  assert.equal(upstream.requests[0]?.cursor, upstream.cursorAt(100), 'the job resumed at page 3');
  assert.deepEqual(await countCatalog(app.services.db.kysely), { servers: 464, versions: 464 });
  const done = await findJob(app.services.db.kysely, CATALOG_SYNC_JOB);
  assert.equal(done?.attempts, 0);
  assert.equal(done?.due_at, '2026-11-01T13:02:01.000Z', 'next in CATALOG_SYNC_INTERVAL_S');
  const state = await readSyncState(app.services.db.kysely);
  assert.equal(state?.watermark, '2026-11-01T11:55:00.000Z');
});
