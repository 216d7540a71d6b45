// finishPayment against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { claimPayment } from './claim-payment.ts';
import { paymentByHash } from './payment-by-hash.ts';
import { finishPayment } from './finish-payment.ts';

const d = migratedDbPerFile();

test('records how the payment ended', async () => {
  await claimPayment(d.ex, { proof_hash: 'f1', subject: 'sub_a', event_id: 'mesh_match', day: '2026-11-01', x402_version: 2, network: 'base', amount: '5', created_at: '2026-11-01T12:00:00.000Z' });
  await finishPayment(d.ex, 'f1', { status: 'settle_failed', reason: 'insufficient_funds', payer: '0xpayer', tx: null, settled_at: null });
  const row = await paymentByHash(d.ex, 'f1');
  assert.deepEqual([row?.status, row?.reason, row?.payer, row?.tx, row?.settled_at], ['settle_failed', 'insufficient_funds', '0xpayer', null, null]);
  await finishPayment(d.ex, 'f_none', { status: 'settled', reason: null, payer: null, tx: null, settled_at: null });
  assert.equal(await paymentByHash(d.ex, 'f_none'), undefined);
});
