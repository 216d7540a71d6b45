// Keeps the whole active order at a change-feed position, so a cursor pages one fixed order.
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q } from '../tables.ts';

/** The whole active order at a change-feed position, kept so cursors page one fixed order. */
export async function saveActiveSnapshot(ex: Executor, seq: number, order: { agent: string[]; mcp: string[] }, now: string): Promise<void> {
  await q(ex)
    .insertInto('active_snapshots')
    .values({ seq, agent_ids: JSON.stringify(order.agent), mcp_ids: JSON.stringify(order.mcp), created_at: now })
    .onConflict((oc) => oc.column('seq').doNothing())
    .execute();
}
