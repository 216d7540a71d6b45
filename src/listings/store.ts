// Listing storage. Every write appends to the change feed in the same transaction.
import type { Selectable } from 'kysely';
import type { ListingsTable } from '../platform/db/schema.ts';
import { inTransaction, recordChange, type Executor } from '../platform/db/changes.ts';
import { newId } from '../platform/ids.ts';
import { rankOf } from '../funnel/badge.ts';
import { defaultCategory } from './categories.ts';

export type ListingRow = Selectable<ListingsTable>;

export interface NewListing {
  url: string;
  kind: 'agent' | 'mcp';
  name: string;
  submittedName: string | null;
  contactEmail: string | null;
  source: string | null;
}

export async function findListingById(db: Executor, id: string): Promise<ListingRow | undefined> {
  return db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findListingByUrl(db: Executor, url: string): Promise<ListingRow | undefined> {
  return db.selectFrom('listings').selectAll().where('url', '=', url).executeTakeFirst();
}

/** Whether a listing other than `exceptId` owns this normalized URL (the unique_url check). */
export async function urlOwnedByOther(db: Executor, url: string, exceptId: string): Promise<boolean> {
  return Boolean(await db.selectFrom('listings').select('id').where('url', '=', url).where('id', '!=', exceptId).executeTakeFirst());
}

/** Case-insensitive exact name; the most recently updated wins when several share a name. */
export async function findListingByName(db: Executor, name: string): Promise<ListingRow | undefined> {
  return db
    .selectFrom('listings')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .executeTakeFirst();
}

/**
 * Inserts a listing unless its normalized URL is already known. Returns the stored row and
 * whether it was created; concurrent publishes of one URL converge on a single row.
 */
export async function insertListingIfNew(db: Executor, input: NewListing, now: string): Promise<{ row: ListingRow; created: boolean }> {
  return inTransaction(db, async (trx) => {
    const id = newId('lst');
    const inserted = await trx
      .insertInto('listings')
      .values({
        id,
        url: input.url,
        kind: input.kind,
        name: input.name,
        description: '',
        submitted_name: input.submittedName,
        contact_email: input.contactEmail,
        source: input.source,
        website: null,
        category_id: defaultCategory(input.kind),
        lane: 'queued',
        lane_reason: null,
        checks_clean: 0,
        probe_ok: 0,
        probe_handshake: null,
        probe_score: null,
        probed_at: null,
        probe_target: null,
        probe_detail: null,
        probe_protocol: null,
        probe_latency_ms: null,
        probe_report: null,
        capabilities: null,
        demoed: 0,
        feedbacked: 0,
        founding_verified: 0,
        rank: rankOf({ demoed: false, feedbacked: false, founding_verified: false }, null),
        live_since: null,
        talk_last_at: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('url').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) await recordChange(trx, 'listing', id, 'upsert', now);
    const row = await findListingByUrl(trx, input.url);
    if (!row) throw new Error('listing vanished inside its own transaction');
    return { row, created: Boolean(inserted) };
  });
}

/** Applies a partial update, keeps `rank` true to the funnel flags and score, and feeds the change. */
export async function updateListing(
  db: Executor,
  id: string,
  patch: Partial<Omit<ListingsTable, 'id' | 'url' | 'created_at' | 'rank'>>,
  now: string,
): Promise<ListingRow | undefined> {
  return inTransaction(db, async (trx) => {
    const current = await findListingById(trx, id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    const rank = rankOf(
      { demoed: next.demoed === 1, feedbacked: next.feedbacked === 1, founding_verified: next.founding_verified === 1 },
      next.probe_score,
    );
    await trx.updateTable('listings').set({ ...patch, rank, updated_at: now }).where('id', '=', id).execute();
    await recordChange(trx, 'listing', id, 'upsert', now);
    return { ...next, rank, updated_at: now };
  });
}

export async function countActive(db: Executor): Promise<{ agent: number; mcp: number }> {
  const rows = await db
    .selectFrom('listings')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('lane', '=', 'active')
    .groupBy('kind')
    .execute();
  const counts = { agent: 0, mcp: 0 };
  for (const r of rows) counts[r.kind] = Number(r.n);
  return counts;
}
