// A new listing from a publish: one row per normalized URL (and per spelling of it), however many
// publishes of it race.
import { inTransaction, type Executor } from '../../platform/db/executor.ts';
import { recordChange } from '../../platform/db/changes.ts';
import { newId } from '../../platform/ids.ts';
import { defaultCategory } from '../categories.ts';
import { endpointKey } from '../identity.ts';
import { listingTables as q } from '../tables.ts';
import { findListingByUrl } from './find-listing.ts';
import { findListingBySpelling } from './find-listing-by-spelling.ts';
import { LISTING_ENTITY, sumParts, toRow, type ListingRow } from './row.ts';

export interface NewListing {
  url: string;
  kind: 'agent' | 'mcp';
  name: string;
  submittedName: string | null;
  contactEmail: string | null;
  source: string | null;
  /** Rank parts known at creation (for example the funnel's default penalty). */
  rankParts: Record<string, number>;
}

/**
 * Inserts a listing unless its normalized URL is already known. Returns the stored row and
 * whether it was created; concurrent publishes of one URL converge on a single row.
 */
export async function insertListingIfNew(ex: Executor, input: NewListing, now: string): Promise<{ row: ListingRow; created: boolean }> {
  return inTransaction(ex, async (trx) => {
    const id = newId('lst');
    // The spelling is claimed first: a concurrent publish of another spelling of the same URL waits
    // for this transaction on PostgreSQL, then finds the listing instead of making a second one.
    const claimed = await q(trx)
      .insertInto('listing_aliases')
      .values({ key: endpointKey(input.url), listing_id: id, created_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const existing = await findListingBySpelling(trx, input.url);
      if (existing) return { row: existing, created: false };
    }
    const inserted = await q(trx)
      .insertInto('listings')
      .values({
        id,
        url: input.url,
        kind: input.kind,
        name: input.name,
        description: '',
        website: null,
        category_id: defaultCategory(input.kind),
        capabilities: null,
        submitted_name: input.submittedName,
        contact_email: input.contactEmail,
        source: input.source,
        lane: 'queued',
        lane_reason: null,
        live_since: null,
        duplicate_of: null,
        rank: sumParts(input.rankParts),
        rank_parts: JSON.stringify(input.rankParts),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('url').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) await recordChange(trx, LISTING_ENTITY, id, 'upsert', now);
    const row = inserted ? toRow(inserted) : await findListingByUrl(trx, input.url);
    if (!row) throw new Error('listing vanished inside its own transaction');
    // A listing from before aliases existed owns this exact URL: the spelling claimed above is its.
    if (claimed && !inserted) await q(trx).updateTable('listing_aliases').set({ listing_id: row.id }).where('key', '=', claimed.key).execute();
    return { row, created: Boolean(inserted) };
  });
}
