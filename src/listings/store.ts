// Listing storage: identity, what the listing says of itself, lane and rank. Every write appends
// to the change feed in the same transaction, so followers see it. Other domains change a listing
// only through these functions; what they own of it (probe results, presence, funnel state) lives
// in their own tables, and their share of the rank arrives as a named rank part.
import type { Selectable } from 'kysely';
import { inTransaction, takesRowLocks, type Executor } from '../platform/db/executor.ts';
import { recordChange } from '../platform/db/changes.ts';
import { newId } from '../platform/ids.ts';
import { defaultCategory } from './categories.ts';
import { listingTables as q, type Lane, type ListingsTable } from './tables.ts';
import { endpointKey } from './identity.ts';

export type ListingRow = Omit<Selectable<ListingsTable>, 'rank_parts' | 'contact_email'> & { contact_email: string | null };
export type { Lane } from './tables.ts';

/** The listing as other domains see it (rank parts are this domain's bookkeeping). */
const toRow = ({ rank_parts: _parts, ...row }: Selectable<ListingsTable>): ListingRow => row;

export const LISTING_ENTITY = 'listing';

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

/** What other domains may change on a listing. */
export type ListingPatch = Partial<Pick<ListingsTable, 'kind' | 'name' | 'description' | 'website' | 'category_id' | 'capabilities' | 'lane' | 'lane_reason' | 'live_since' | 'duplicate_of'>>;

/** The rank column is an integer (an index orders the active list on it); parts may carry fractions (the decaying trail). */
const sumParts = (parts: Record<string, number>) => Math.round(Object.values(parts).reduce((a, b) => a + b, 0));

export async function findListingById(ex: Executor, id: string): Promise<ListingRow | undefined> {
  const row = await q(ex).selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

/** The listing, row-locked until the transaction ends (PostgreSQL), for decisions that read then write it. */
export async function lockListing(trx: Executor, id: string): Promise<ListingRow | undefined> {
  let sel = q(trx).selectFrom('listings').selectAll().where('id', '=', id);
  if (takesRowLocks(trx)) sel = sel.forUpdate();
  const row = await sel.executeTakeFirst();
  return row && toRow(row);
}

export async function findListingsByIds(ex: Executor, ids: string[]): Promise<ListingRow[]> {
  if (!ids.length) return [];
  return (await q(ex).selectFrom('listings').selectAll().where('id', 'in', ids).execute()).map(toRow);
}

export async function findListingByUrl(ex: Executor, url: string): Promise<ListingRow | undefined> {
  const row = await q(ex).selectFrom('listings').selectAll().where('url', '=', url).executeTakeFirst();
  return row && toRow(row);
}

/** The listing another spelling of this URL (or its card, or its endpoint) already reached, if any. */
export async function findListingBySpelling(ex: Executor, url: string): Promise<ListingRow | undefined> {
  const alias = await q(ex).selectFrom('listing_aliases').select('listing_id').where('key', '=', endpointKey(url)).executeTakeFirst();
  if (alias) return findListingById(ex, alias.listing_id);
  return findListingByUrl(ex, url);
}

/** The listing other than `exceptId` that owns this URL's spelling (the unique_url check), if any. */
export async function spellingOwnedByOther(ex: Executor, url: string, exceptId: string): Promise<string | undefined> {
  const owner = await findListingBySpelling(ex, url);
  return owner && owner.id !== exceptId ? owner.id : undefined;
}

/**
 * Claims the spellings a probe reached for listing `id` (its card location, its endpoint). When
 * another listing owns one of them already, claims nothing and returns that listing's id: this
 * one is its duplicate. Call it in the transaction that applies the probe.
 */
export async function claimSpellings(trx: Executor, id: string, urls: string[], now: string): Promise<string | undefined> {
  const keys = [...new Set(urls.map(endpointKey))];
  if (!keys.length) return undefined;
  const held = await q(trx).selectFrom('listing_aliases').select('listing_id').where('key', 'in', keys).where('listing_id', '!=', id).executeTakeFirst();
  if (held) return held.listing_id;
  await q(trx)
    .insertInto('listing_aliases')
    .values(keys.map((key) => ({ key, listing_id: id, created_at: now })))
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  // A concurrent claimer (another instance) may have won a key between the check and the insert.
  const lost = await q(trx).selectFrom('listing_aliases').select('listing_id').where('key', 'in', keys).where('listing_id', '!=', id).executeTakeFirst();
  return lost?.listing_id;
}

/**
 * Marks `id` a duplicate of `originalId`: lane failed, reason duplicate_of, and every spelling it
 * held now reaches the original, so publishing any of them again answers with the original.
 */
export async function markDuplicate(trx: Executor, id: string, originalId: string, now: string): Promise<ListingRow | undefined> {
  await q(trx).updateTable('listing_aliases').set({ listing_id: originalId }).where('listing_id', '=', id).execute();
  return updateListing(trx, id, { lane: 'failed', lane_reason: 'duplicate_of', duplicate_of: originalId }, now);
}

/** Listings whose name is `name` (case-insensitive, exact), oldest first, at most `limit`. */
export async function findListingsByName(ex: Executor, name: string, limit: number): Promise<ListingRow[]> {
  const rows = await q(ex)
    .selectFrom('listings')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toRow);
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
      .returning('id')
      .executeTakeFirst();
    if (inserted) await recordChange(trx, LISTING_ENTITY, id, 'upsert', now);
    const row = await findListingByUrl(trx, input.url);
    if (!row) throw new Error('listing vanished inside its own transaction');
    // A listing from before aliases existed owns this exact URL: the spelling claimed above is its.
    if (claimed && !inserted) await q(trx).updateTable('listing_aliases').set({ listing_id: row.id }).where('key', '=', claimed.key).execute();
    return { row, created: Boolean(inserted) };
  });
}

/**
 * Changes a listing (its own columns, and/or rank parts of other domains), recomputes `rank` from
 * all parts, and feeds the change. The row is locked first (PostgreSQL), so two transactions that
 * change different parts never lose each other's update. With an empty patch it only marks the
 * listing changed (another domain's part of its view changed).
 */
export async function updateListing(
  ex: Executor,
  id: string,
  patch: ListingPatch,
  now: string,
  rankParts: Record<string, number> = {},
): Promise<ListingRow | undefined> {
  return inTransaction(ex, async (trx) => {
    let sel = q(trx).selectFrom('listings').selectAll().where('id', '=', id);
    if (takesRowLocks(trx)) sel = sel.forUpdate();
    const current = await sel.executeTakeFirst();
    if (!current) return undefined;
    const parts = { ...(JSON.parse(current.rank_parts) as Record<string, number>), ...rankParts };
    const rank = sumParts(parts);
    const set = { ...patch, rank, rank_parts: JSON.stringify(parts), updated_at: now };
    await q(trx).updateTable('listings').set(set).where('id', '=', id).execute();
    await recordChange(trx, LISTING_ENTITY, id, 'upsert', now);
    return toRow({ ...current, ...set });
  });
}

export async function countActive(ex: Executor): Promise<{ agent: number; mcp: number }> {
  const rows = await q(ex)
    .selectFrom('listings')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('lane', '=', 'active')
    .groupBy('kind')
    .execute();
  const counts = { agent: 0, mcp: 0 };
  for (const r of rows) counts[r.kind] = Number(r.n);
  return counts;
}

/** Every active listing id of a kind, in rank order. */
export async function activeOrder(ex: Executor, kind: 'agent' | 'mcp'): Promise<string[]> {
  const rows = await q(ex).selectFrom('listings').select('id').where('lane', '=', 'active').where('kind', '=', kind).orderBy('rank', 'desc').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** The rows of `ids` that are still in `lane`, in the order of `ids`. */
export async function rowsInOrder(ex: Executor, ids: string[], lane: Lane): Promise<ListingRow[]> {
  if (!ids.length) return [];
  const rows = await q(ex).selectFrom('listings').selectAll().where('id', 'in', ids).where('lane', '=', lane).execute();
  const byId = new Map(rows.map((r) => [r.id, toRow(r)]));
  return ids.map((id) => byId.get(id)).filter((r): r is ListingRow => r !== undefined);
}

/** Active listings that went Live at or before `before` (talk's grace check). */
export async function activeLiveSince(ex: Executor, before: string): Promise<string[]> {
  const rows = await q(ex).selectFrom('listings').select('id').where('lane', '=', 'active').where('live_since', '<=', before).execute();
  return rows.map((r) => r.id);
}

/** The whole active order at a change-feed position, kept so cursors page one fixed order. */
export async function saveActiveSnapshot(ex: Executor, seq: number, order: { agent: string[]; mcp: string[] }, now: string): Promise<void> {
  await q(ex)
    .insertInto('active_snapshots')
    .values({ seq, agent_ids: JSON.stringify(order.agent), mcp_ids: JSON.stringify(order.mcp), created_at: now })
    .onConflict((oc) => oc.column('seq').doNothing())
    .execute();
}

export async function readActiveSnapshot(ex: Executor, seq: number): Promise<{ agent: string[]; mcp: string[] } | undefined> {
  const snap = await q(ex).selectFrom('active_snapshots').selectAll().where('seq', '=', seq).executeTakeFirst();
  return snap && { agent: JSON.parse(snap.agent_ids) as string[], mcp: JSON.parse(snap.mcp_ids) as string[] };
}

export async function pruneActiveSnapshots(ex: Executor, before: string): Promise<void> {
  await q(ex).deleteFrom('active_snapshots').where('created_at', '<', before).execute();
}

/** How many listings stand in each lane, per kind (every lane and kind present, 0 when none). */
export async function countListings(ex: Executor): Promise<Record<'agent' | 'mcp', Record<Lane, number>>> {
  const rows = await q(ex)
    .selectFrom('listings')
    .select(['kind', 'lane', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['kind', 'lane'])
    .execute();
  const lanes = (): Record<Lane, number> => ({ queued: 0, probing: 0, active: 0, failed: 0, dormant: 0 });
  const counts = { agent: lanes(), mcp: lanes() };
  for (const r of rows) counts[r.kind][r.lane] = Number(r.n);
  return counts;
}
