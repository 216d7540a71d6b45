// A claimed proof that paid for nothing is freed, so it may be offered again.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q } from '../tables.ts';

/** Frees a claimed proof that paid for nothing (refused, facilitator down, work failed): it may be offered again. */
export async function releasePayment(ex: Executor, proofHash: string): Promise<void> {
  await q(ex).deleteFrom('x402_payments').where('proof_hash', '=', proofHash).where('status', '=', 'pending').execute();
}
