// The metering and trace stores on both engines: grants are exact under concurrency, refills are
// capped, decay follows the half-life.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from './helpers/app.ts';
import { takeUnit, grantRefill } from '../src/metering/store.ts';
import { deposit, strongest, fieldOf } from '../src/traces/store.ts';
import { subjectKey } from '../src/traces/subjects.ts';
import { HALF_LIFE_H } from '../src/traces/channels.ts';

test('50 concurrent takes of a 3-unit allowance grant exactly 3, on two instances', async (t) => {
  const a = await startApp();
  const b = await startApp({ joinStore: a.store });
  t.after(async () => {
    await b.close();
    await a.close();
  });
  const dbs = [a.store.db.kysely, b.services.db.kysely];
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => takeUnit(dbs[i % 2]!, 'name:x', '2026-11-01', 'improve_kernel', 3)));
  assert.equal(results.filter(Boolean).length, 3);
  const granted = await Promise.all(Array.from({ length: 10 }, (_, i) => grantRefill(dbs[i % 2]!, 'name:x', '2026-11-01', 'leave_feedback', ['improve_kernel'], 3)));
  assert.equal(granted.filter((g) => g !== undefined).length, 3);
  const after = await Promise.all(Array.from({ length: 10 }, () => takeUnit(dbs[0]!, 'name:x', '2026-11-01', 'improve_kernel', 3)));
  assert.equal(after.filter(Boolean).length, 3, 'three refills add three units');
});

test('trace field decays by its half-life and folds concurrent deposits', async (t) => {
  const app = await startApp();
  t.after(() => app.close());
  const ex = app.store.db.kysely;
  const s = subjectKey({ kind: 'listing', listing_id: 'lst_a' });
  const t0 = new Date('2026-11-01T00:00:00Z');
  await Promise.all(Array.from({ length: 20 }, () => deposit(ex, { channel: 'attraction', subject: s, intensity: 5, body: null, depositor: 'system', at: t0 })));
  const [now] = await fieldOf(ex, [s.key], t0, 'attraction');
  assert.equal(now!.value, 100);
  assert.equal(now!.deposits, 20);
  const later = new Date(t0.getTime() + HALF_LIFE_H.attraction * 3_600_000);
  const [half] = await fieldOf(ex, [s.key], later, 'attraction');
  assert.ok(Math.abs(half!.value - 50) < 1e-9, `half-life: ${half!.value}`);
  // A later deposit adds to the decayed value.
  await deposit(ex, { channel: 'attraction', subject: s, intensity: 10, body: null, depositor: 'system', at: later });
  const [after] = await fieldOf(ex, [s.key], later, 'attraction');
  assert.ok(Math.abs(after!.value - 60) < 1e-9, `decayed then added: ${after!.value}`);
  // Ordering by current strength: an old strong trace falls below a fresh weaker one.
  const other = subjectKey({ kind: 'listing', listing_id: 'lst_b' });
  const muchLater = new Date(later.getTime() + 4 * HALF_LIFE_H.attraction * 3_600_000);
  await deposit(ex, { channel: 'attraction', subject: other, intensity: 10, body: null, depositor: 'system', at: muchLater });
  const top = await strongest(ex, 'attraction', muchLater, 2);
  assert.deepEqual(top.map((e) => e.a), ['lst_b', 'lst_a']);
  assert.ok(Math.abs(top[1]!.value - 60 / 16) < 1e-9);
});
