// A new listing from a publish: one row per normalized URL (and per spelling of it), however many
// publishes of it race.
import { inTransaction, type Executor } from '../../platform/db/executor.ts';
import { changePart } from '../../platform/db/changes.ts';
import { StaleRead } from '../../platform/db/failures.ts';
import { part, together, type Part } from '../../platform/db/together.ts';
import { newId } from '../../platform/ids.ts';
import { UNKNOWN_CATEGORY } from '../categories.ts';
import { endpointKey } from '../identity.ts';
import { nameKey } from '../name-key.ts';
import { listingTables as q, type ListingsTable } from '../tables.ts';
import type { Selectable } from 'kysely';
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

/** What other domains write with a new listing, given its id: parts sent with its insert (platform/db/together.ts). */
export type WithNewListing = (listing: { id: string; url: string }) => Promise<Part<unknown>[]>;

const oneRow = (rows: Record<string, unknown>[]) => rows[0] as Selectable<ListingsTable> | undefined;

/**
 * Inserts a listing unless its normalized URL is already known. Returns the stored row and
 * whether it was created; concurrent publishes of one URL converge on a single row. `withNew`
 * gives what other domains write with a new listing (its feed event, its probe job): sent in the
 * same batch as its insert, so on PostgreSQL a new listing costs two statements in its
 * transaction, the spelling's claim and everything else.
 */
export async function insertListingIfNew(ex: Executor, input: NewListing, now: string, withNew?: WithNewListing): Promise<{ row: ListingRow; created: boolean }> {
  return inTransaction(ex, async (trx) => {
    const id = newId('lst');
    // The spelling is claimed first: a concurrent publish of another spelling of the same URL waits
    // for this transaction on PostgreSQL, then finds the listing instead of making a second one.
    // A listing from before aliases existed may own this exact URL without its spelling: read with it.
    const [claimed, ownerOfUrl] = await together(trx, [
      part(
        q(trx)
          .insertInto('listing_aliases')
          .values({ key: endpointKey(input.url), listing_id: id, created_at: now })
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key'),
        (rows) => rows.length > 0,
      ),
      part(q(trx).selectFrom('listings').selectAll().where('url', '=', input.url), oneRow),
    ] as const);
    if (!claimed) {
      const existing = await findListingBySpelling(trx, input.url);
      if (existing) return { row: existing, created: false };
    }
    if (ownerOfUrl) {
      // The spelling claimed above is that listing's.
      if (claimed) await q(trx).updateTable('listing_aliases').set({ listing_id: ownerOfUrl.id }).where('key', '=', endpointKey(input.url)).execute();
      return { row: toRow(ownerOfUrl), created: false };
    }
    const insert = q(trx)
      .insertInto('listings')
      .values({
        id,
        url: input.url,
        kind: input.kind,
        name: input.name,
        name_key: nameKey(input.name),
        name_withheld: null,
        description: '',
        website: null,
        category_id: UNKNOWN_CATEGORY, // a probe files it by what it sees (categories.ts)
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
      .returningAll();
    const [inserted] = await together(trx, [part(insert, oneRow), changePart(trx, LISTING_ENTITY, id, 'upsert', now), ...(withNew ? await withNew({ id, url: input.url }) : [])]);
    // The URL was listed after the read above (only a listing without its spelling could be):
    // everything sent with it rolls back, and the transaction runs again to find it.
    if (!inserted) throw new StaleRead('the URL was listed meanwhile');
    return { row: toRow(inserted), created: true };
  });
}
