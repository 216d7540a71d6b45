// How a claimed payment ended once its call ran (settled or not, by whom, which transaction).
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q, type X402PaymentsTable } from '../tables.ts';

/** Records how a claimed payment ended once the call ran. */
export async function finishPayment(ex: Executor, proofHash: string, end: Pick<X402PaymentsTable, 'status' | 'reason' | 'payer' | 'tx' | 'settled_at'>): Promise<void> {
  await q(ex).updateTable('x402_payments').set(end).where('proof_hash', '=', proofHash).execute();
}
