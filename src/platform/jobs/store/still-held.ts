// Whether a runner still holds its lease, checked in the transaction that writes its result.
import { takesRowLocks, type Executor } from '../../db/executor.ts';
import { part, together, type Part } from '../../db/together.ts';
import { q, type Lease } from './job-row.ts';

/** The check as a part of a batch (platform/db/together.ts): true while the lease is the caller's; row-locked until commit on PostgreSQL. */
export function stillHeldPart(trx: Executor, lease: Lease): Part<boolean> {
  let sel = q(trx).selectFrom('jobs').select('id').where('id', '=', lease.id).where('lease_token', '=', lease.lease_token);
  if (takesRowLocks(trx)) sel = sel.forUpdate();
  return part(sel, (rows) => rows.length > 0);
}

/** True while the lease is still the caller's; takes the row lock on PostgreSQL until commit. */
export async function stillHeld(trx: Executor, lease: Lease): Promise<boolean> {
  const [held] = await together(trx, [stillHeldPart(trx, lease)]);
  return held;
}
