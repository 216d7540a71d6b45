// claimPayment against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { claimPayment, type NewPayment } from './claim-payment.ts';

const d = migratedDbPerFile();
const payment = (hash: string): NewPayment => ({ proof_hash: hash, subject: 'sub_a', event_id: 'mesh_match', day: '2026-11-01', x402_version: 1, network: 'base-sepolia', amount: '1000', created_at: '2026-11-01T12:00:00.000Z' });

test('a proof is claimed once, pending', async () => {
  assert.equal(await claimPayment(d.ex, payment('h1')), true);
  assert.equal(await claimPayment(d.ex, payment('h1')), false);
  const row = await d.sql.selectFrom('x402_payments').selectAll().where('proof_hash', '=', 'h1').executeTakeFirstOrThrow();
  assert.deepEqual([row.status, row.payer, row.tx, row.settled_at, Number(row.x402_version)], ['pending', null, null, null, 1]);
});

test('of racing claims of one proof exactly one wins', async () => {
  const wins = await Promise.all([1, 2, 3].map(() => claimPayment(d.ex, payment('h2'))));
  assert.equal(wins.filter(Boolean).length, 1);
});
