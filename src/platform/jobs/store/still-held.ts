// Whether a runner still holds its lease, checked in the transaction that writes its result.
import { takesRowLocks, type Executor } from '../../db/executor.ts';
import { q, type Lease } from './job-row.ts';

/** True while the lease is still the caller's; takes the row lock on PostgreSQL until commit. */
export async function stillHeld(trx: Executor, lease: Lease): Promise<boolean> {
  let sel = q(trx).selectFrom('jobs').select('id').where('id', '=', lease.id).where('lease_token', '=', lease.lease_token);
  if (takesRowLocks(trx)) sel = sel.forUpdate();
  return Boolean(await sel.executeTakeFirst());
}
