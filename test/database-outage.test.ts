// A database that stops answering is a 503 with Retry-After, never a 500: REST, MCP (the whole POST,
// a batch too) and A2A alike; /readyz says so while /healthz stays 200, so an orchestrator does not
// restart every instance at once. The job runner waits for the database and resumes by itself, and
// a probe cut off by the outage gives its lease back: its listing does not stay `probing` for
// JOB_LEASE_S. PostgreSQL goes away behind a TCP proxy the test cuts (what clients see when it
// restarts); SQLite is held by another connection's write lock past its busy timeout.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import Database from 'better-sqlite3';
import { engine, freshStore, getJson, logCapture, postJson, startApp, type TestApp, type TestStore } from './helpers/app.ts';
import { openDb } from '../src/platform/db/dialect.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { dbFailure } from '../src/platform/db/failures.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { startTcpProxy, type TcpProxy } from './peers/tcp-proxy.ts';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const mcpCall = (app: TestApp, body: unknown) =>
  app.http.inject({ method: 'POST', url: '/api/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: JSON.stringify(body) });
const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** Asserts the 503 every door answers while the database is away. */
async function assertUnavailable(app: TestApp, listingId: string) {
  const publish = await postJson(app, '/api/publish', { url: `https://outage-${randomUUID().slice(0, 8)}.example.org/mcp` });
  assert.equal(publish.status, 503, JSON.stringify(publish.body));
  assert.deepEqual([publish.body.ok, publish.body.error.code], [false, 'unavailable']);
  assert.equal(publish.headers['retry-after'], '5');
  const alone = await mcpCall(app, call(1, 'check_status', { id: listingId }));
  assert.equal(alone.statusCode, 503);
  assert.equal(alone.headers['retry-after'], '5');
  assert.equal(alone.json().error.code, -32603);
  const batch = await mcpCall(app, [call(1, 'check_status', { id: listingId }), call(2, 'list_yourself', { url: 'https://outage-batch.example.org/mcp' })]);
  assert.equal(batch.statusCode, 503, 'the whole POST');
  const a2a = await app.http.inject({
    method: 'POST',
    url: '/api/a2a',
    headers: { 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 7, method: 'message/send', params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: `status ${listingId}` }] } } },
  });
  assert.equal(a2a.statusCode, 503, a2a.body);
  assert.equal(a2a.json().id, 7);
  assert.equal((await getJson(app, '/healthz')).status, 200, 'liveness stays up');
}

if (engine === 'postgres') {
  test('PostgreSQL goes away and comes back: 503s meanwhile, jobs wait and resume, the cut-off probe is given back (postgres)', async () => {
    // A slow server: the probe is in flight when the database goes away.
    const slow = http.createServer((_req, res) => setTimeout(() => res.writeHead(404).end(), 400));
    await new Promise<void>((r) => slow.listen(0, '127.0.0.7', r));
    cleanups.push(() => new Promise((r) => slow.close(r)));
    const store: TestStore = await freshStore();
    cleanups.push(() => store.drop());
    const target = new URL(process.env.RC_TEST_DATABASE_URL!);
    const proxy: TcpProxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    cleanups.push(() => proxy.close());
    const viaProxy = new URL(store.env.DATABASE_URL!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const schema = viaProxy.searchParams.get('options')!.replace('-c search_path=', '');
    const log = logCapture();
    // The clock stands still: a lease that was not given back would hold the job for good.
    const clock = new ManualClock('2026-11-05T10:00:00.000Z');
    const app = await startApp({
      clock,
      probing: true,
      logStream: log.stream,
      joinStore: { ...store, connect: () => openDb({ databaseUrl: viaProxy.toString(), dataDir: store.dataDir, pgSchema: schema }) },
      env: { PROBE_ALLOW_PRIVATE: '1', LOG_LEVEL: 'info', SEARCH_POLL_MS: '0', USAGE_FLUSH_S: '0' },
    });
    cleanups.push(() => app.close());
    const direct = store.db.kysely as unknown as TestApp['sql'];
    const listed = await postJson(app, '/api/publish', { url: `http://127.0.0.7:${(slow.address() as AddressInfo).port}/agent/mcp` });
    assert.equal(listed.status, 200);
    const id = listed.body.listing_id as string;
    // The claim marked it probing; the probe waits on the slow server; the database goes away.
    await new Promise((r) => setTimeout(r, 150));
    assert.equal((await direct.selectFrom('listings').select('lane').where('id', '=', id).executeTakeFirstOrThrow()).lane, 'probing');
    await proxy.stop();
    await assertUnavailable(app, id);
    assert.equal((await getJson(app, '/readyz')).status, 503);
    await app.jobs.idle(); // the probe ended and could not be written: its lease waits to be given back
    assert.equal(await app.jobs.tick(), 0, 'a tick while the database is away starts nothing and does not throw');
    const job = await direct.selectFrom('jobs').select(['lease_token']).where('id', '=', `probe:${id}`).executeTakeFirstOrThrow();
    assert.notEqual(job.lease_token, null, 'still leased while nothing can be written');
    // Back: the first tick gives the lease back and runs the probe again; nothing waited JOB_LEASE_S.
    await proxy.start();
    await app.jobs.tick();
    await app.jobs.idle();
    const row = await direct.selectFrom('listings').select(['lane', 'lane_reason']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.lane, 'failed', 'probed again and applied (the slow server answers 404)');
    assert.equal((await getJson(app, '/readyz')).status, 200);
    assert.equal((await postJson(app, '/api/publish', { url: 'https://after-outage.example.org/mcp' })).status, 200);
    const written = log.text();
    assert.equal(written.match(/the database is unavailable: jobs wait for it/g)?.length, 1, 'said once');
    assert.match(written, /the database answers again: jobs resume/);
    assert.doesNotMatch(written, /"statusCode":500/);
  });
}

if (engine === 'postgres') {
  test('a busy pool queues a query past the connect timeout; a full wait is `unavailable`, not run again; a silent server is `disconnected` (postgres)', async () => {
    const store = await freshStore();
    cleanups.push(() => store.drop());
    const url = process.env.RC_TEST_DATABASE_URL!;
    const db = openDb({ databaseUrl: url, dataDir: store.dataDir, poolWaitMs: 1500, connectTimeoutMs: 300 });
    cleanups.push(() => db.close());
    const holdAll = (seconds: number) => Array.from({ length: 10 }, () => sql`select pg_sleep(${seconds})`.execute(db.kysely));
    // Every connection busy for 0.8 s: an eleventh query waits its turn, longer than a connect may take.
    const held = holdAll(0.8);
    await new Promise((r) => setTimeout(r, 100));
    const queued = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    assert.equal(queued.rows[0]!.one, 1);
    await Promise.all(held);
    // Busy past the whole wait: the transaction fails once as `unavailable` and is not run again.
    const busy = holdAll(2.5);
    await new Promise((r) => setTimeout(r, 100));
    let attempts = 0;
    const failed = await inTransaction(db.kysely, async () => void attempts++).catch((err: unknown) => err);
    assert.equal(dbFailure(failed), 'unavailable', String(failed));
    assert.equal(attempts, 0, 'no connection, no attempt, no retry queued behind the wait');
    await Promise.all(busy);
    // A server that accepts the connection and never answers: `disconnected` after the connect timeout.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise((r) => silent.close(r));
    });
    const mute = openDb({ databaseUrl: `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/none`, dataDir: store.dataDir, connectTimeoutMs: 300 });
    cleanups.push(() => mute.close());
    const started = Date.now();
    const cut = await sql`select 1`.execute(mute.kysely).catch((err: unknown) => err);
    assert.equal(dbFailure(cut), 'disconnected', String(cut));
    assert.ok(Date.now() - started < 3000, 'ended by the connect timeout');
  });
}

if (engine === 'sqlite') {
  test('SQLite held by another writer past its busy timeout: a write answers 503 with Retry-After, and works once it is free (sqlite)', async () => {
    const app = await startApp({ env: { SEARCH_POLL_MS: '0', USAGE_FLUSH_S: '0' } });
    cleanups.push(() => app.close());
    const id = (await postJson(app, '/api/publish', { url: 'https://held.example.org/mcp' })).body.listing_id as string;
    // Another process (a backup tool, an operator's shell) takes the write lock and keeps it.
    const other = new Database(`${app.store.dataDir}/registry.db`);
    other.exec('BEGIN IMMEDIATE');
    try {
      const publish = await postJson(app, '/api/publish', { url: 'https://held-2.example.org/mcp' });
      assert.equal(publish.status, 503, JSON.stringify(publish.body));
      assert.deepEqual([publish.body.error.code, publish.headers['retry-after']], ['unavailable', '5']);
      const mcp = await mcpCall(app, call(1, 'list_yourself', { url: 'https://held-3.example.org/mcp' }));
      assert.equal(mcp.statusCode, 503);
      assert.equal((await getJson(app, `/api/listings/status?id=${id}`)).status, 200, 'reads go on');
      assert.equal((await getJson(app, '/healthz')).status, 200);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    assert.equal((await postJson(app, '/api/publish', { url: 'https://held-2.example.org/mcp' })).status, 200);
  });
}
