// One job leased now, due or not (work asked for now, such as check_liveness).
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/dialect.ts';
import { iso } from '../../clock.ts';
import { leaseFree, q, type Lease } from './job-row.ts';

/** Leases one job whether or not it is due (work asked for now, such as check_liveness); undefined while another holds it. */
export async function claimJob(db: Db, id: string, now: Date, leaseMs: number): Promise<Lease | undefined> {
  const nowIso = iso(now);
  const row = await q(db.kysely)
    .updateTable('jobs')
    .set({ lease_token: randomUUID(), lease_until: iso(new Date(now.getTime() + leaseMs)), updated_at: nowIso })
    .where('id', '=', id)
    .where(leaseFree(nowIso))
    .returningAll()
    .executeTakeFirst();
  return row as Lease | undefined;
}
