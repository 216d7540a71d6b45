// The change feed (DESIGN.md "Search"): every write to a listed entity appends a row here in the
// same transaction, so followers (search index, active-list cache, public feed) see updates and
// removals in order.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export type Executor = Kysely<Database> | Transaction<Database>;

/** Runs `work` in the caller's transaction when there is one, else in a new one. */
export function inTransaction<T>(db: Executor, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

export async function recordChange(
  db: Executor,
  entity: 'listing',
  entityId: string,
  op: 'upsert' | 'remove',
  at: string,
): Promise<void> {
  await db.insertInto('changes').values({ entity, entity_id: entityId, op, at }).execute();
}

/** The newest position of the feed (0 when nothing has changed yet). */
export async function latestChange(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('changes')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
