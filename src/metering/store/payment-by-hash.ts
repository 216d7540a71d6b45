// One payment's record, by its proof's hash.
import type { Executor } from '../../platform/db/executor.ts';
import { meteringTables as q, type X402PaymentsTable } from '../tables.ts';

/** A payment's record (tests and the operator). */
export async function paymentByHash(ex: Executor, proofHash: string): Promise<X402PaymentsTable | undefined> {
  return q(ex).selectFrom('x402_payments').selectAll().where('proof_hash', '=', proofHash).executeTakeFirst();
}
