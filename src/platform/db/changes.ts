// The change feed (DESIGN.md "Search"): every write to a listed entity appends a row here in the
// same transaction, so followers (search index, active-list cache, public feed) see updates and
// removals in order. Entities are named by the domains that write them; the feed knows none.
import { sql, type CompiledQuery, type Expression, type Generated } from 'kysely';
import { typed, type Executor } from './executor.ts';
import { together, write, type Part } from './together.ts';

export interface ChangesTable {
  seq: Generated<number>;
  entity: string;
  entity_id: string;
  op: 'upsert' | 'remove';
  at: string;
}

type Tables = { changes: ChangesTable };
const q = (ex: Executor) => typed<Tables>(ex);

/** recordChange as a part of a batch (together.ts). */
export const changePart = (ex: Executor, entity: string, entityId: string, op: 'upsert' | 'remove', at: string): Part<void> =>
  write(q(ex).insertInto('changes').values({ entity, entity_id: entityId, op, at }));

export async function recordChange(ex: Executor, entity: string, entityId: string, op: 'upsert' | 'remove', at: string): Promise<void> {
  await together(ex, [changePart(ex, entity, entityId, op, at)]);
}

/**
 * A change for each entity `ids` selects (a query of the entity owner's own table giving
 * `entity_id`), as a part of a batch (together.ts): for a batch that also changes those entities,
 * so which ones it changes is not known before it is sent.
 */
export const changesOfPart = (ex: Executor, entity: string, ids: Expression<{ entity_id: string }>, op: 'upsert' | 'remove', at: string): Part<void> =>
  write(
    q(ex)
      .insertInto('changes')
      .columns(['entity', 'entity_id', 'op', 'at'])
      .expression(sql`select ${entity}, selected.entity_id, ${op}, ${at} from (${ids}) as selected`),
  );

/** recordChange for several entities in one statement (in the order given). */
export async function recordChanges(ex: Executor, entity: string, entityIds: readonly string[], op: 'upsert' | 'remove', at: string): Promise<void> {
  if (!entityIds.length) return;
  await q(ex)
    .insertInto('changes')
    .values(entityIds.map((entity_id) => ({ entity, entity_id, op, at })))
    .execute();
}

/** `max(seq)`, compiled once per dialect (the SQL is the same for every database of one kind). */
const latestQueries = new WeakMap<object, CompiledQuery<{ seq: number | string | null }>>();

/**
 * The newest position of the feed (0 when nothing has changed yet). The active-list cache asks it
 * on every request, so its query is built and compiled once, not per call.
 */
export async function latestChange(ex: Executor): Promise<number> {
  const adapter = ex.getExecutor().adapter;
  let query = latestQueries.get(adapter);
  if (!query) {
    query = q(ex)
      .selectFrom('changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .compile();
    latestQueries.set(adapter, query);
  }
  const { rows } = await ex.executeQuery(query);
  return Number(rows[0]?.seq ?? 0);
}

export interface Change {
  seq: number;
  entity: string;
  entity_id: string;
  op: 'upsert' | 'remove';
  at: string;
}

/** The newest changes of one entity kind, newest first. */
export async function newestChanges(ex: Executor, entity: string, limit: number): Promise<Change[]> {
  const rows = await q(ex).selectFrom('changes').selectAll().where('entity', '=', entity).orderBy('seq', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** Changes of the given entities after `afterSeq`, oldest first, at most `limit` (followers page with it). */
export async function changesAfter(ex: Executor, afterSeq: number, entities: string[], limit: number): Promise<Change[]> {
  const rows = await q(ex).selectFrom('changes').selectAll().where('seq', '>', afterSeq).where('entity', 'in', entities).orderBy('seq').limit(limit).execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** Drops changes older than `before` (the feed is kept for CHANGES_KEEP_H). */
export async function pruneChanges(ex: Executor, before: string): Promise<void> {
  await q(ex).deleteFrom('changes').where('at', '<', before).execute();
}
