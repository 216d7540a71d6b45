// Funnel state storage. A listing with no row has done nothing yet (never demoed). Changing the
// flags also sets the funnel's rank part on the listing (its badge's rank_delta), in one write.
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { flag } from '../platform/db/flag.ts';
import { updateListing, type ListingRow } from '../listings/store.ts';
import { funnelTables as q } from './tables.ts';
import { rankDelta, type FunnelFlags } from './badge.ts';

export const NO_FUNNEL: FunnelFlags = { demoed: false, feedbacked: false, founding_verified: false };

/** The funnel's share of a listing's rank (see listings/store.ts updateListing). */
export const funnelRankPart = (flags: FunnelFlags) => ({ funnel: rankDelta(flags) });

export async function loadFunnel(ex: Executor, ids: string[]): Promise<Map<string, FunnelFlags>> {
  if (!ids.length) return new Map();
  const rows = await q(ex).selectFrom('funnel_state').selectAll().where('listing_id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.listing_id, { demoed: r.demoed === 1, feedbacked: r.feedbacked === 1, founding_verified: r.founding_verified === 1 }]));
}

/** Sets some of a listing's funnel flags; undefined when the listing does not exist. */
export async function setFunnelFlags(ex: Executor, id: string, patch: Partial<FunnelFlags>, now: string): Promise<ListingRow | undefined> {
  return inTransaction(ex, async (trx) => {
    const current = (await loadFunnel(trx, [id])).get(id) ?? NO_FUNNEL;
    const next = { ...current, ...patch };
    const row = await updateListing(trx, id, {}, now, funnelRankPart(next));
    if (!row) return undefined;
    const values = { demoed: flag(next.demoed), feedbacked: flag(next.feedbacked), founding_verified: flag(next.founding_verified), updated_at: now };
    await q(trx)
      .insertInto('funnel_state')
      .values({ listing_id: id, ...values })
      .onConflict((oc) => oc.column('listing_id').doUpdateSet(values))
      .execute();
    return row;
  });
}

/** Listings holding a founding seat (founding_verified). */
export async function countFoundingVerified(ex: Executor): Promise<number> {
  const row = await q(ex).selectFrom('funnel_state').select((eb) => eb.fn.countAll<number>().as('n')).where('founding_verified', '=', 1).executeTakeFirst();
  return Number(row?.n ?? 0);
}
