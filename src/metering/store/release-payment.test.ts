// releasePayment against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { claimPayment, type NewPayment } from './claim-payment.ts';
import { finishPayment } from './finish-payment.ts';
import { paymentByHash } from './payment-by-hash.ts';
import { releasePayment } from './release-payment.ts';

const d = migratedDbPerFile();
const payment = (hash: string): NewPayment => ({ proof_hash: hash, subject: 'sub_a', event_id: 'mesh_match', day: '2026-11-01', x402_version: 1, network: 'base-sepolia', amount: '1000', created_at: '2026-11-01T12:00:00.000Z' });

test('frees a pending proof so it may be claimed again; a finished one stays', async () => {
  await claimPayment(d.ex, payment('p1'));
  await releasePayment(d.ex, 'p1');
  assert.equal(await paymentByHash(d.ex, 'p1'), undefined);
  assert.equal(await claimPayment(d.ex, payment('p1')), true);
  await claimPayment(d.ex, payment('p2'));
  await finishPayment(d.ex, 'p2', { status: 'settled', reason: null, payer: '0xabc', tx: '0x1', settled_at: '2026-11-01T12:00:01.000Z' });
  await releasePayment(d.ex, 'p2');
  assert.equal((await paymentByHash(d.ex, 'p2'))?.status, 'settled');
});
