// The active order a cursor pages, as it was kept at its change-feed position.
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q } from '../tables.ts';

export async function readActiveSnapshot(ex: Executor, seq: number): Promise<{ agent: string[]; mcp: string[] } | undefined> {
  const snap = await q(ex).selectFrom('active_snapshots').selectAll().where('seq', '=', seq).executeTakeFirst();
  return snap && { agent: JSON.parse(snap.agent_ids) as string[], mcp: JSON.parse(snap.mcp_ids) as string[] };
}
