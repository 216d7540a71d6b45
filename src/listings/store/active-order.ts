// The active list's order (ids in rank order) and the rows of a page of it, in that order.
import type { Executor } from '../../platform/db/executor.ts';
import { listingTables as q, type Lane } from '../tables.ts';
import { toRow, type ListingRow } from './row.ts';

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
