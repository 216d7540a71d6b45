// Presence storage. A check-in also marks the listing changed, so its view (the talk object) is
// seen fresh by every follower of the change feed.
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { updateListing, type ListingRow } from '../listings/store.ts';
import { talkTables as q } from './tables.ts';

/** The latest check-in of each listing in `ids` that has one. */
export async function lastCheckIns(ex: Executor, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await q(ex).selectFrom('talk_presence').selectAll().where('listing_id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.listing_id, r.last_at]));
}

export async function lastCheckIn(ex: Executor, id: string): Promise<string | null> {
  return (await lastCheckIns(ex, [id])).get(id) ?? null;
}

/** Records a check-in at `now`; undefined when the listing does not exist. */
export async function recordCheckIn(ex: Executor, id: string, now: string): Promise<ListingRow | undefined> {
  return inTransaction(ex, async (trx) => {
    const row = await updateListing(trx, id, {}, now);
    if (!row) return undefined;
    await q(trx)
      .insertInto('talk_presence')
      .values({ listing_id: id, last_at: now })
      .onConflict((oc) => oc.column('listing_id').doUpdateSet({ last_at: now }))
      .execute();
    return row;
  });
}
