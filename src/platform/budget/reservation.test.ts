// Requests taken ahead for a probe (reservation.ts), counted in the database of this run: one take
// for several requests, what was not used given back, and near the limit or under a small budget
// one take per request as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { ManualClock } from '../clock.ts';
import { together } from '../db/together.ts';
import { DbCounters } from './counters.ts';
import { HostBudgets } from './host-budgets.ts';

const d = migratedDbPerFile();
const clock = new ManualClock('2026-11-01T12:10:00.000Z');
const HOUR = '2026-11-01T12';

const budgets = (requestsPerHour: number) => new HostBudgets(new DbCounters(d.ex), clock, { requestsPerHour, publishesPerDay: 0, callerFetchesPerHour: 0 });
const counted = async (host: string) => Number((await d.sql.selectFrom('budget_counters').select('n').where('key', '=', `requests:${host}`).where('period', '=', HOUR).executeTakeFirst())?.n ?? 0);
const refused = (err: unknown) => (err as { reason?: string }).reason === 'host_budget';

test('eight taken ahead with one statement; the host is counted for what was used once the rest is given back', async () => {
  const b = budgets(1000);
  const reservation = b.reserve('a.example', 8, async () => false)!;
  const mark = d.store.db.sent.mark();
  for (let i = 0; i < 5; i++) await reservation.admit('a.example');
  assert.deepEqual(d.store.db.sent.since(mark), { statements: 1, transactions: 0 });
  assert.equal(await counted('a.example'), 8);
  // Another host the work reaches is taken one by one.
  await reservation.admit('b.example');
  assert.equal(await counted('b.example'), 1);
  await together(d.ex, [await reservation.giveBack()]);
  assert.equal(await counted('a.example'), 5);
  // Given back once: a second give-back sends nothing.
  assert.equal((await reservation.giveBack()).statement, undefined);
});

test('past what was taken ahead, and when the take does not fit, each request is a take of its own up to the public share', async () => {
  const b = budgets(1000); // public share: 800
  await d.sql.insertInto('budget_counters').values({ key: 'requests:full.example', period: HOUR, n: 795 }).execute();
  const reservation = b.reserve('full.example', 8, async () => false)!;
  for (let i = 0; i < 5; i++) await reservation.admit('full.example');
  assert.equal(await counted('full.example'), 800);
  await assert.rejects(reservation.admit('full.example'), refused);
  assert.equal(await counted('full.example'), 800);
  assert.equal((await reservation.giveBack()).statement, undefined);
});

test("an owner's work goes on past the public share, asked only once the public share is used", async () => {
  const b = budgets(1000);
  await d.sql.insertInto('budget_counters').values({ key: 'requests:owned.example', period: HOUR, n: 800 }).execute();
  let asked = 0;
  const reservation = b.reserve('owned.example', 8, async () => {
    asked++;
    return true;
  })!;
  await reservation.admit('owned.example');
  await reservation.admit('owned.example');
  assert.equal(asked, 1);
  assert.equal(await counted('owned.example'), 802);
});

test('a small hourly budget is never taken ahead: a refusal means its requests were all made', async () => {
  const b = budgets(20); // public share: 16, less than 40 takes of 8
  const first = b.reserve('small.example', 8, async () => false)!;
  const second = b.reserve('small.example', 8, async () => false)!;
  for (let i = 0; i < 3; i++) await first.admit('small.example');
  assert.equal(await counted('small.example'), 3);
  for (let i = 0; i < 13; i++) await second.admit('small.example');
  await assert.rejects(first.admit('small.example'), refused);
  assert.equal(await counted('small.example'), 16);
});

test('budgets off: no reservation, every request goes', async () => {
  assert.equal(budgets(0).reserve('off.example', 8, async () => false), undefined);
});

test("taken ahead with a claim: one take for a host's probes, each probe's reservation starting with its eight", async () => {
  const b = budgets(1000);
  const [period] = await together(d.ex, [await b.takeAheadPart('claimed.example', 8, 2)]);
  assert.equal(period, HOUR);
  assert.equal(await counted('claimed.example'), 16);
  const first = b.reserve('claimed.example', 8, async () => false, { period })!;
  const second = b.reserve('claimed.example', 8, async () => false, { period })!;
  const mark = d.store.db.sent.mark();
  for (let i = 0; i < 3; i++) await first.admit('claimed.example');
  for (let i = 0; i < 8; i++) await second.admit('claimed.example');
  assert.deepEqual(d.store.db.sent.since(mark), { statements: 0, transactions: 0 });
  await together(d.ex, [await first.giveBack(), await second.giveBack()]);
  assert.equal(await counted('claimed.example'), 11);
  // A take the claim was refused: each request is a take of its own.
  const refusedTake = b.reserve('claimed.example', 8, async () => false, { period: undefined })!;
  await refusedTake.admit('claimed.example');
  assert.equal(await counted('claimed.example'), 12);
});
