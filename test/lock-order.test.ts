// One lock order for listings and jobs: a transaction that writes both locks the listing first; the
// probe claim, which must pick jobs first, never waits for a listing. On PostgreSQL the two orders
// met as a deadlock (40P01) between a republish (listing, then its job) and a claim (the job, then
// its listing): replayed here step by step. On both engines, republishes racing probes on two
// instances answer no 500, and a transaction PostgreSQL aborts runs again whole.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { engine, freshStore, postJson, startApp, type TestApp, type TestStore } from './helpers/app.ts';
import { claimDue } from '../src/platform/jobs/store.ts';
import { inTransaction } from '../src/platform/db/executor.ts';
import { lockListing, markProbing } from '../src/listings/store.ts';
import { scheduleProbe } from '../src/probe/scheduler.ts';
import { sql } from 'kysely';

const apps: TestApp[] = [];
const stores: TestStore[] = [];
let server: http.Server | undefined;
after(async () => {
  for (const app of apps) await app.close();
  for (const s of stores) await s.drop();
  server?.close();
});

if (engine === 'postgres') {
  test('a claim skips a listing a republish holds instead of waiting: no deadlock, and the job is taken once (postgres)', async () => {
    const app = await startApp();
    apps.push(app);
    const db = app.services.db;
    const id = (await postJson(app, '/api/publish', { url: 'https://lock-order.example.org/mcp' })).body.listing_id as string;
    const listing = (await app.sql.selectFrom('listings').select(['id', 'url', 'lane']).where('id', '=', id).executeTakeFirstOrThrow());
    assert.equal(listing.lane, 'queued');
    const now = app.clock.now();
    // T1, a republish: holds the listing, then (after the claim below) schedules its job.
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const republish = inTransaction(db.kysely, async (trx) => {
      await lockListing(trx, id);
      holding();
      await released;
      await scheduleProbe(trx, listing, now.toISOString(), now.toISOString());
    });
    await held;
    // T2, a claim: takes the due job, then would mark its listing probing.
    const claim = claimDue(db, now, 60_000, 1, { kind: 'probe' }, async (trx, leases) => void (await markProbing(trx, leases.map((l) => l.subject!), now.toISOString())));
    const first = await Promise.race([claim.then((l) => ({ claimed: l.length })), new Promise<{ waited: true }>((r) => setTimeout(() => r({ waited: true }), 3000))]);
    assert.deepEqual(first, { claimed: 1 }, 'the claim ended without waiting for the held listing');
    release();
    await republish;
    const after = await app.sql.selectFrom('listings').select('lane').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(after.lane, 'queued', 'the held listing kept its lane; the probe result will set it');
  });

  test('a transaction PostgreSQL aborts as a deadlock runs again, whole (postgres)', async () => {
    const store = await freshStore();
    stores.push(store);
    const db = store.db.kysely;
    await sql`create table lock_probe (id int primary key, n int not null)`.execute(db);
    await sql`insert into lock_probe values (1, 0), (2, 0)`.execute(db);
    let attempts = 0;
    let step!: () => void;
    const stepped = new Promise<void>((r) => (step = r));
    // Two transactions taking the rows in opposite orders: PostgreSQL aborts one of them.
    const a = inTransaction(db, async (trx) => {
      attempts++;
      await sql`update lock_probe set n = n + 1 where id = 1`.execute(trx);
      step();
      await new Promise((r) => setTimeout(r, 200));
      await sql`update lock_probe set n = n + 1 where id = 2`.execute(trx);
    });
    const b = (async () => {
      await stepped;
      await inTransaction(db, async (trx) => {
        attempts++;
        await sql`update lock_probe set n = n + 10 where id = 2`.execute(trx);
        await sql`update lock_probe set n = n + 10 where id = 1`.execute(trx);
      });
    })();
    await Promise.all([a, b]);
    assert.ok(attempts >= 3, `${attempts} attempts: one transaction ran again`);
    const rows = (await sql<{ id: number; n: number }>`select id, n from lock_probe order by id`.execute(db)).rows;
    assert.deepEqual(rows.map((r) => r.n), [11, 11], 'each transaction counted once');
  });
}

test(`400 publishes and republishes over two instances while probes run: no 500 (${engine})`, async () => {
  server = http.createServer((_req, res) => setTimeout(() => res.writeHead(404).end(), 5));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.5', r));
  const port = (server.address() as AddressInfo).port;
  const env = { REPUBLISH_MIN_INTERVAL_S: '0', PROBE_RATE_PER_MIN: '0', PROBE_ALLOW_PRIVATE: '1', PROBE_PER_HOST: '64', PROBE_BACKOFF_S: '1' };
  const a = await startApp({ probing: true, env });
  const b = await startApp({ probing: true, env, joinStore: a.store });
  apps.push(b, a);
  const statuses: Record<number, number> = {};
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => postJson(i % 2 ? a : b, '/api/publish', { url: `http://127.0.0.5:${port}/p${i % 120}/mcp` })));
    for (const r of answers) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  }
  await a.jobs.idle();
  await b.jobs.idle();
  assert.deepEqual(statuses, { 200: 1200 });
  assert.equal((await a.sql.selectFrom('listings').select('id').execute()).length, 120);
});
