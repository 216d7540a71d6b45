// Fair claims (src/platform/jobs/store.ts): waiting work first, never more of one group than its
// room, and a group that crowds the head of the queue does not starve the others, whichever path
// the claim takes (the cheap look at the head, or ranking every group's due jobs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshStore, engine, startApp } from './helpers/app.ts';
import { typed } from '../src/platform/db/executor.ts';
import type { AllTables } from './helpers/tables.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { schemaHistory } from '../src/migrations/index.ts';
import { claimDue, scheduleJob, URGENT, ROUTINE } from '../src/platform/jobs/store.ts';

const T0 = new Date('2026-11-01T00:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000).toISOString();

async function withJobs(jobs: { id: string; group: string | null; dueS: number; priority?: number }[], run: (claim: (limit: number, room?: [string, number][]) => Promise<string[]>) => Promise<void>) {
  const store = await freshStore();
  try {
    await migrateToLatest(store.db, schemaHistory(store.db));
    for (const j of jobs) await scheduleJob(store.db.kysely, { id: j.id, kind: 'probe', subject: j.id, priority: j.priority ?? ROUTINE, group: j.group }, at(j.dueS), at(0));
    await run(async (limit, room = []) => (await claimDue(store.db, new Date(at(10_000)), 60_000, limit, { kind: 'probe', groupCap: 2, groupRoom: new Map(room) })).map((l) => l.id).sort());
  } finally {
    await store.db.close();
    await store.drop();
  }
}

test(`a host crowding the head of the queue gets its cap, the others their turn (${engine})`, async () => {
  const crowd = Array.from({ length: 200 }, (_, i) => ({ id: `a${String(i).padStart(3, '0')}`, group: 'a.example', dueS: i }));
  const others = [
    { id: 'b1', group: 'b.example', dueS: 500 },
    { id: 'c1', group: 'c.example', dueS: 600 },
    { id: 'n1', group: null, dueS: 700 },
  ];
  await withJobs([...crowd, ...others], async (claim) => {
    const first = await claim(5);
    assert.deepEqual(first, ['a000', 'a001', 'b1', 'c1', 'n1'], 'two of the crowd, then the others, though they came due later');
    const next = await claim(5, [['a.example', 0]]);
    assert.deepEqual(next, [], 'the crowd at its cap and nothing else due: nothing more');
  });
});

test(`waiting work goes first, and the cheap path keeps the order of the queue (${engine})`, async () => {
  const jobs = [
    { id: 'old1', group: 'x.example', dueS: 1 },
    { id: 'old2', group: 'y.example', dueS: 2 },
    { id: 'new', group: 'z.example', dueS: 9_000, priority: URGENT },
    { id: 'old3', group: 'w.example', dueS: 3 },
  ];
  await withJobs(jobs, async (claim) => {
    assert.deepEqual(await claim(2), ['new', 'old1']);
    assert.deepEqual(await claim(5), ['old2', 'old3']);
    assert.deepEqual(await claim(5), []);
  });
});

test(`the pool runs a kind's claimed hook in the claim's transaction, once per batch, before any run (${engine})`, async () => {
  const app = await startApp();
  try {
    const events: string[] = [];
    app.jobs.define(
      'hooked',
      {
        async claimed(trx, leases) {
          // The leases are already written in this transaction, and nothing has run yet.
          const held = await typed<AllTables>(trx).selectFrom('jobs').select('id').where('kind', '=', 'hooked').where('lease_token', '=', leases[0]!.lease_token).execute();
          events.push(`claimed ${leases.map((l) => l.id).sort().join(',')} held ${held.length}`);
        },
        async run(lease) {
          events.push(`run ${lease.id}`);
        },
      },
      { concurrency: 3 },
    );
    for (const id of ['h1', 'h2', 'h3']) await scheduleJob(app.services.db.kysely, { id, kind: 'hooked', subject: id }, at(-10), at(-10));
    await app.jobs.tick();
    await app.jobs.idle();
    assert.equal(events[0], 'claimed h1,h2,h3 held 3');
    assert.deepEqual(events.slice(1).sort(), ['run h1', 'run h2', 'run h3']);
  } finally {
    await app.http.close();
  }
});
