// paymentByHash against the engine of this run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migratedDbPerFile } from '../../../test/helpers/db.ts';
import { claimPayment } from './claim-payment.ts';
import { paymentByHash } from './payment-by-hash.ts';

const d = migratedDbPerFile();

test("a payment's whole record by its hash; undefined for an unknown one", async () => {
  const p = { proof_hash: 'r1', subject: 'sub_a', event_id: 'mesh_match', day: '2026-11-01', x402_version: 1, network: 'base', amount: '7', created_at: '2026-11-01T12:00:00.000Z' };
  await claimPayment(d.ex, p);
  const row = await paymentByHash(d.ex, 'r1');
  assert.deepEqual({ ...row, x402_version: Number(row?.x402_version) }, { ...p, status: 'pending', reason: null, payer: null, tx: null, settled_at: null });
  assert.equal(await paymentByHash(d.ex, 'r_none'), undefined);
});
