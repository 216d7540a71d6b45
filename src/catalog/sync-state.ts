// The sync's bookkeeping (one row): who is syncing (a lock with a lease the syncing process renews
// with every page, so one sync runs at a time across instances and the CLI), the unfinished run
// (its start, its updated_since and the cursor of its next page, saved in the transaction that
// stores each page, so an interrupted run resumes exactly there) and the watermark the next run asks
// upstream for (`updated_since`).
import { inTransaction, takesRowLocks, type Executor } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { catalogTables as q, type CatalogSyncTable } from './tables.ts';

const ROW = 'upstream';

/** Another process holds the sync until `until`. */
export class SyncBusy extends Error {
  constructor(readonly until: string | null) {
    super(`another catalog sync is running (its lock holds until ${until ?? 'it finishes'})`);
    this.name = 'SyncBusy';
  }
}

/** This process lost the lock (its lease ran out and another took over): its page was not stored. */
export class SyncLost extends Error {
  constructor() {
    super('the catalog sync lost its lock to another process');
    this.name = 'SyncLost';
  }
}

export interface SyncRun {
  upstream: string;
  holder: string;
  /** When the run began (a resumed run keeps its first start). */
  startedAt: string;
  /** The updated_since of every page of this run; null: a full run. */
  since: string | null;
  /** The cursor of the next page; null: the first page. */
  cursor: string | null;
  /** Pages stored so far by this run (before an interruption too). */
  pages: number;
  resumed: boolean;
}

export type SyncState = CatalogSyncTable;

/** The columns of a run in progress, as they stand when none is (nor holds the lock). */
const NO_RUN = { run_started_at: null, run_since: null, run_cursor: null, run_pages: 0, holder: null, lease_until: null } as const;

export async function readSyncState(ex: Executor): Promise<SyncState | undefined> {
  return q(ex).selectFrom('catalog_sync').selectAll().where('id', '=', ROW).executeTakeFirst();
}

/**
 * Takes the sync's row lock for the rest of the caller's transaction (on PostgreSQL; SQLite writes
 * one transaction at a time anyway), and returns the state; throws SyncBusy while another process
 * holds a live lease. A page of a running sync waits for the transaction to end.
 */
export async function lockSyncState(trx: Executor, now: Date): Promise<SyncState> {
  const nowIso = iso(now);
  await q(trx)
    .insertInto('catalog_sync')
    .values({
      id: ROW,
      upstream_url: null,
      watermark: null,
      ...NO_RUN,
      last_completed_at: null,
      last_error: null,
      last_result: null,
      updated_at: nowIso,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  let sel = q(trx).selectFrom('catalog_sync').selectAll().where('id', '=', ROW);
  if (takesRowLocks(trx)) sel = sel.forUpdate();
  const state = (await sel.executeTakeFirst())!;
  if (state.holder && state.lease_until && state.lease_until > nowIso) throw new SyncBusy(state.lease_until);
  return state;
}

/**
 * Takes the lock and opens a run: the interrupted run of the same upstream when there is one
 * (unless `full` asks to start over and it was incremental), else a new run from the watermark
 * (full when there is none, `full` is asked, or the upstream changed). Throws SyncBusy while another
 * process holds a live lock.
 */
export async function beginSyncRun(ex: Executor, input: { upstream: string; holder: string; now: Date; leaseS: number; full: boolean }): Promise<SyncRun> {
  const nowIso = iso(input.now);
  return inTransaction(ex, async (trx) => {
    const state = await lockSyncState(trx, input.now);
    const sameUpstream = state.upstream_url === input.upstream;
    const resume = sameUpstream && state.run_started_at !== null && (!input.full || state.run_since === null);
    const run: SyncRun = resume
      ? { upstream: input.upstream, holder: input.holder, startedAt: state.run_started_at!, since: state.run_since, cursor: state.run_cursor, pages: Number(state.run_pages), resumed: true }
      : { upstream: input.upstream, holder: input.holder, startedAt: nowIso, since: input.full || !sameUpstream ? null : state.watermark, cursor: null, pages: 0, resumed: false };
    await q(trx)
      .updateTable('catalog_sync')
      .set({
        upstream_url: input.upstream,
        ...(sameUpstream ? {} : { watermark: null }),
        run_started_at: run.startedAt,
        run_since: run.since,
        run_cursor: run.cursor,
        run_pages: run.pages,
        holder: input.holder,
        lease_until: iso(new Date(input.now.getTime() + input.leaseS * 1000)),
        updated_at: nowIso,
      })
      .where('id', '=', ROW)
      .execute();
    return run;
  });
}

/**
 * Records a stored page: the cursor of the next one, and a renewed lease. Call it first in the
 * transaction that stores the page (it takes the row lock on PostgreSQL); throws SyncLost, which
 * rolls the page back, when this process no longer holds the lock.
 */
export async function advanceSyncRun(trx: Executor, run: SyncRun, nextCursor: string | null, now: Date, leaseS: number): Promise<void> {
  const res = await q(trx)
    .updateTable('catalog_sync')
    .set({ run_cursor: nextCursor, run_pages: run.pages + 1, lease_until: iso(new Date(now.getTime() + leaseS * 1000)), updated_at: iso(now) })
    .where('id', '=', ROW)
    .where('holder', '=', run.holder)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new SyncLost();
  run.cursor = nextCursor;
  run.pages++;
}

/** Closes a complete run: the next one asks for `updated_since=watermark`; the lock is released. */
export async function finishSyncRun(ex: Executor, run: SyncRun, watermark: string, result: unknown, now: Date): Promise<boolean> {
  const res = await q(ex)
    .updateTable('catalog_sync')
    .set({
      watermark,
      ...NO_RUN,
      last_completed_at: iso(now),
      last_error: null,
      last_result: JSON.stringify(result),
      updated_at: iso(now),
    })
    .where('id', '=', ROW)
    .where('holder', '=', run.holder)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Releases the lock of an unfinished run, keeping its cursor for the next run to resume from. */
export async function releaseSyncRun(ex: Executor, run: SyncRun, error: string | null, now: Date): Promise<void> {
  await q(ex)
    .updateTable('catalog_sync')
    .set({ holder: null, lease_until: null, last_error: error, updated_at: iso(now) })
    .where('id', '=', ROW)
    .where('holder', '=', run.holder)
    .execute();
}
