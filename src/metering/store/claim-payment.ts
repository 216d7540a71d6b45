// An x402 payment proof pays for one call: claimed by one INSERT on its hash.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q, type X402PaymentsTable } from '../tables.ts';

export type NewPayment = Pick<X402PaymentsTable, 'proof_hash' | 'subject' | 'event_id' | 'day' | 'x402_version' | 'network' | 'amount' | 'created_at'>;

/**
 * Claims a payment proof for one call: one INSERT on its hash, so of two calls (on any instances)
 * with the same proof exactly one gets it. False: the proof was already used (or is in use).
 */
export async function claimPayment(ex: Executor, p: NewPayment): Promise<boolean> {
  const row = await q(ex)
    .insertInto('x402_payments')
    .values({ ...p, status: 'pending', reason: null, payer: null, tx: null, settled_at: null })
    .onConflict((oc) => oc.column('proof_hash').doNothing())
    .returning('proof_hash')
    .executeTakeFirst();
  return row !== undefined;
}
