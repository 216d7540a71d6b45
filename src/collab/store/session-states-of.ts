// How many of a listing's sessions stand in each state (collab_access_status).
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q, type SessionState } from '../tables.ts';

/** A listing's sessions counted by state (collab_access_status). */
export async function sessionStatesOf(ex: Executor, listingId: string): Promise<Record<SessionState, number>> {
  const rows = await q(ex)
    .selectFrom('collab_participants as p')
    .innerJoin('collab_sessions as s', 's.id', 'p.session_id')
    .select(['s.state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('p.listing_id', '=', listingId)
    .groupBy('s.state')
    .execute();
  const out: Record<SessionState, number> = { open: 0, active: 0, converged: 0, closed: 0 };
  for (const r of rows) out[r.state] = Number(r.n);
  return out;
}
