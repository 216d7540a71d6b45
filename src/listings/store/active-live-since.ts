// Which active listings are past talk's grace period.
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q } from '../tables.ts';

/** Active listings that went Live at or before `before` (talk's grace check). */
export async function activeLiveSince(ex: Executor, before: string): Promise<string[]> {
  const rows = await q(ex).selectFrom('listings').select('id').where('lane', '=', 'active').where('live_since', '<=', before).execute();
  return rows.map((r) => r.id);
}
