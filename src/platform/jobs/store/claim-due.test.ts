// claimDue against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../../test/helpers/db.ts';
import { scheduleJob } from './schedule-job.ts';
import { claimDue } from './claim-due.ts';
import { URGENT } from './job-row.ts';
import { typed } from '../../db/executor.ts';
import type { AllTables } from '../../../../test/helpers/tables.ts';

const d = migratedDbPerFile();
const T0 = '2026-11-01T12:00:00.000Z';
const NOW = new Date(T0);
const at = (s: number) => new Date(NOW.getTime() + s * 1000).toISOString();

test('leases due free jobs of a kind, waiting work first, then the longest due; not again while held', async () => {
  await scheduleJob(d.ex, { id: 'a', kind: 'one', subject: null }, at(-30), T0);
  await scheduleJob(d.ex, { id: 'b', kind: 'one', subject: null }, at(-60), T0);
  await scheduleJob(d.ex, { id: 'c', kind: 'one', subject: null, priority: URGENT }, at(-1), T0);
  await scheduleJob(d.ex, { id: 'later', kind: 'one', subject: null }, at(60), T0);
  await scheduleJob(d.ex, { id: 'other', kind: 'two', subject: null }, at(-90), T0);
  const leases = await claimDue(d.store.db, NOW, 10_000, 2, { kind: 'one' });
  assert.deepEqual(leases.map((l) => l.id).sort(), ['b', 'c']);
  assert.equal(new Set(leases.map((l) => l.lease_token)).size, 1);
  assert.equal(leases[0]?.lease_until, at(10));
  assert.deepEqual((await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'one' })).map((l) => l.id), ['a']);
  assert.deepEqual(await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'one' }), []);
  // Once the leases expire the jobs are free again; by id takes just that one.
  assert.deepEqual((await claimDue(d.store.db, new Date(at(11)), 10_000, 10, 'b')).map((l) => l.id), ['b']);
  assert.deepEqual(await claimDue(d.store.db, NOW, 10_000, 0, { kind: 'two' }), []);
});

test('a fair claim takes no more of a group than its room', async () => {
  for (let i = 0; i < 4; i++) await scheduleJob(d.ex, { id: `g1-${i}`, kind: 'fair', subject: null, group: 'g1' }, at(-100 + i), T0);
  await scheduleJob(d.ex, { id: 'g2-0', kind: 'fair', subject: null, group: 'g2' }, at(-10), T0);
  await scheduleJob(d.ex, { id: 'solo', kind: 'fair', subject: null }, at(-5), T0);
  const first = await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'fair', groupCap: 2 });
  assert.deepEqual(first.map((l) => l.id).sort(), ['g1-0', 'g1-1', 'g2-0', 'solo']);
  const second = await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'fair', groupCap: 2, groupRoom: new Map([['g1', 1]]) });
  assert.deepEqual(second.map((l) => l.id), ['g1-2']);
  assert.deepEqual(await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'fair', groupCap: 2, groupRoom: new Map([['g1', 0]]) }), []);
});

test('a host crowding the head of the queue is read past: the others are claimed in queue order', async () => {
  // 100 jobs of one host due first (more than one read of the head holds), then the others.
  for (let i = 0; i < 100; i++) await scheduleJob(d.ex, { id: `crowd-${String(i).padStart(3, '0')}`, kind: 'crowded', subject: null, group: 'crowd' }, at(-500 + i), T0);
  await scheduleJob(d.ex, { id: 'x-0', kind: 'crowded', subject: null, group: 'x' }, at(-300), T0);
  await scheduleJob(d.ex, { id: 'hostless', kind: 'crowded', subject: null }, at(-250), T0);
  await scheduleJob(d.ex, { id: 'x-1', kind: 'crowded', subject: null, group: 'x' }, at(-200), T0);
  await scheduleJob(d.ex, { id: 'x-2', kind: 'crowded', subject: null, group: 'x' }, at(-150), T0);
  await scheduleJob(d.ex, { id: 'y-0', kind: 'crowded', subject: null, group: 'y' }, at(-100), T0);
  const ids = async (limit: number, room: [string, number][]) =>
    (await claimDue(d.store.db, NOW, 10_000, limit, { kind: 'crowded', groupCap: 2, groupRoom: new Map(room) })).map((l) => l.id).sort();
  // The crowding host is at its cap: x's first two, the host-less job and y's (x's third waits for room).
  assert.deepEqual(await ids(4, [['crowd', 0]]), ['hostless', 'x-0', 'x-1', 'y-0']);
  // With room for one more, the crowding host's oldest is taken, then the others as before.
  assert.deepEqual(await ids(3, [['crowd', 1]]), ['crowd-000', 'x-2']);
});

test('when host after host crowds the head, every host is ranked and the claim still fills', async () => {
  // Six hosts, each with a block of 90 jobs due one after the other. A claim of 5 reads the head
  // 16 x 5 jobs at a time, so each read sees one host, which can run one more: after four reads
  // the claim ranks every host's jobs instead.
  for (let h = 0; h < 6; h++) {
    for (let i = 0; i < 90; i++) await scheduleJob(d.ex, { id: `blk-${h}-${i}`, kind: 'blocks', subject: null, group: `b${h}` }, at(-1000 + h * 90 + i), T0);
  }
  const leases = await claimDue(d.store.db, NOW, 10_000, 5, { kind: 'blocks', groupCap: 1 });
  assert.deepEqual(leases.map((l) => l.id).sort(), [0, 1, 2, 3, 4].map((h) => `blk-${h}-0`));
});

test('concurrent claims never lease one job twice', async () => {
  for (let i = 0; i < 6; i++) await scheduleJob(d.ex, { id: `r-${i}`, kind: 'race', subject: null, group: `h${i % 2}` }, at(-10), T0);
  const claims = await Promise.all([1, 2, 3].map(() => claimDue(d.store.db, NOW, 10_000, 3, { kind: 'race', groupCap: 3 })));
  const ids = claims.flat().map((l) => l.id);
  assert.equal(new Set(ids).size, ids.length);
});

test("the claim's own writes run in its transaction: they see the leases, and a failure takes the leases back", async () => {
  for (const id of ['w1', 'w2']) await scheduleJob(d.ex, { id, kind: 'hooked', subject: id }, at(-5), T0);
  const seen: string[][] = [];
  const leases = await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'hooked', groupCap: 1 }, async (trx, taken) => {
    seen.push(taken.map((l) => l.id).sort());
    // Inside the claim's transaction the leases are already written.
    const rows = await typed<AllTables>(trx).selectFrom('jobs').select('lease_token').where('kind', '=', 'hooked').execute();
    assert.deepEqual(new Set(rows.map((r) => r.lease_token)), new Set([taken[0]!.lease_token]));
  });
  assert.deepEqual(seen, [['w1', 'w2']]);
  assert.equal(leases.length, 2);
  // Nothing due: the hook is not called.
  await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'hooked' }, async () => assert.fail('called with no leases'));

  await scheduleJob(d.ex, { id: 'w3', kind: 'rolled', subject: 'w3' }, at(-5), T0);
  await assert.rejects(
    claimDue(d.store.db, NOW, 10_000, 10, { kind: 'rolled' }, async () => {
      throw new Error('the marking failed');
    }),
    /the marking failed/,
  );
  // The claim rolled back with its hook: the job is still free to claim.
  assert.deepEqual((await claimDue(d.store.db, NOW, 10_000, 10, { kind: 'rolled' })).map((l) => l.id), ['w3']);
});
