// Old active-order snapshots go (listings.prune_snapshots): cursors older than them have expired.
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q } from '../tables.ts';

export async function pruneActiveSnapshots(ex: Executor, before: string): Promise<void> {
  await q(ex).deleteFrom('active_snapshots').where('created_at', '<', before).execute();
}
