// Loading a catalog document (file.ts) into the catalog: each entry checked by the rule the network
// sync applies (checkUpstreamItem; an invalid entry is refused and counted, never fatal) and stored
// by the same upsert (write.ts, with the change feed), all in one transaction, so a load that fails
// or is stopped halfway stores nothing. The transaction holds the sync's lock (sync-state.ts): it
// refuses to start while a network sync runs, and a sync that starts meanwhile waits for it. The
// sync's cursor and watermark are left alone: a file says nothing about what upstream changed.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../platform/clock.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { checkUpstreamItem, type UpstreamEntry } from './entry.ts';
import { lockSyncState } from './sync-state.ts';
import { upsertCatalogEntries } from './write.ts';

/** Entries stored per statement batch, and between two progress reports. */
const BATCH = 100;

export interface LoadProgress {
  /** Valid entries handled so far, of `total`. */
  done: number;
  total: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Invalid entries (all counted before storing starts). */
  refused: number;
}

export interface LoadResult {
  ok: true;
  /** Entries the document holds. */
  read: number;
  added: number;
  updated: number;
  unchanged: number;
  refused: number;
  /** Refused entries by reason (the first failing field). */
  refusedReasons: Record<string, number>;
  loadedAt: string;
}

export interface LoadOptions {
  onProgress?: (progress: LoadProgress) => void;
  /** Stops the load between batches (Ctrl-C): nothing is stored. */
  signal?: AbortSignal;
}

/** The load was stopped before it committed: nothing was stored. */
export class LoadStopped extends Error {
  constructor() {
    super('the load was stopped before it finished; nothing was stored');
    this.name = 'LoadStopped';
  }
}

/** Checks and stores the items of a catalog document (see the file comment). Throws SyncBusy while a sync runs. */
export async function loadCatalogItems(deps: { db: Executor; clock: Clock }, items: unknown[], options: LoadOptions = {}): Promise<LoadResult> {
  const valid: UpstreamEntry[] = [];
  const refusedReasons: Record<string, number> = {};
  for (const item of items) {
    const checked = checkUpstreamItem(item);
    if (checked.ok) valid.push(checked.entry);
    else refusedReasons[checked.reason] = (refusedReasons[checked.reason] ?? 0) + 1;
  }
  const refused = items.length - valid.length;
  const now = deps.clock.now();
  const counts = await inTransaction(deps.db, async (trx) => {
    await lockSyncState(trx, now);
    const totals = { added: 0, updated: 0, unchanged: 0 };
    for (let i = 0; i < valid.length; i += BATCH) {
      // A turn of the event loop between batches, so a signal is seen: SQLite's statements run
      // without yielding, and a whole load would otherwise finish before Ctrl-C could stop it.
      await nextTurn();
      if (options.signal?.aborted) throw new LoadStopped();
      const batch = await upsertCatalogEntries(trx, valid.slice(i, i + BATCH), iso(now));
      totals.added += batch.added;
      totals.updated += batch.updated;
      totals.unchanged += batch.unchanged;
      options.onProgress?.({ done: Math.min(i + BATCH, valid.length), total: valid.length, ...totals, refused });
    }
    if (options.signal?.aborted) throw new LoadStopped();
    return totals;
  });
  return { ok: true, read: items.length, ...counts, refused, refusedReasons, loadedAt: iso(now) };
}
