// The daily picks. A day's pick is inserted once (ON CONFLICT DO NOTHING on the day): the first
// instance to pick wins and every other one reads that row, so the pick is the same everywhere.
// Preparing is one conditional UPDATE, so only one caller ever prepares a day (and refills once).
import type { Executor } from '../platform/db/executor.ts';
import { connectorTables as q, type ConnectorPicksTable } from './tables.ts';

export type PickRow = ConnectorPicksTable;

/** Inserts the day's pick unless one exists; returns the stored row (this one or the winner's). */
export async function insertPickIfNew(ex: Executor, row: PickRow): Promise<PickRow> {
  await q(ex).insertInto('connector_picks').values(row).onConflict((oc) => oc.column('day').doNothing()).execute();
  const stored = await readPick(ex, row.day);
  if (!stored) throw new Error('connector pick vanished after its insert');
  return stored;
}

export async function readPick(ex: Executor, day: string): Promise<PickRow | undefined> {
  const row = await q(ex).selectFrom('connector_picks').selectAll().where('day', '=', day).executeTakeFirst();
  return row && { ...row, hirey_likeness: Number(row.hirey_likeness), research: Number(row.research) };
}

/** Picks of the days in [fromDay, beforeDay), newest first. */
export async function picksBetween(ex: Executor, fromDay: string, beforeDay: string): Promise<PickRow[]> {
  const rows = await q(ex).selectFrom('connector_picks').selectAll().where('day', '>=', fromDay).where('day', '<', beforeDay).orderBy('day', 'desc').execute();
  return rows.map((r) => ({ ...r, hirey_likeness: Number(r.hirey_likeness), research: Number(r.research) }));
}

/** Records that the operator has seen the day's pick (the first time only). */
export async function markNotified(ex: Executor, day: string, now: string): Promise<void> {
  await q(ex).updateTable('connector_picks').set({ notified_at: now }).where('day', '=', day).where('notified_at', 'is', null).execute();
}

/** Prepares the day's pick when it has a draft and is not prepared yet; undefined otherwise. */
export async function markPrepped(ex: Executor, day: string, now: string, note: string | null): Promise<PickRow | undefined> {
  const row = await q(ex)
    .updateTable('connector_picks')
    .set((eb) => ({ prepped_at: now, prep_note: note, updated_at: now, notified_at: eb.fn.coalesce('notified_at', eb.val(now)) }))
    .where('day', '=', day)
    .where('prepped_at', 'is', null)
    .where('research', '=', 0)
    .returningAll()
    .executeTakeFirst();
  return row && { ...row, hirey_likeness: Number(row.hirey_likeness), research: Number(row.research) };
}
