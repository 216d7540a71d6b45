// The catalog sync: pulls `GET /v0.1/servers` from the upstream registry page by page
// and stores each page in its own short transaction, together with the cursor of the next page.
// A full run starts from nothing; an incremental run asks for `updated_since=<watermark>`; a run
// that was interrupted (upstream failure, shutdown, a crash) resumes from its saved cursor with its
// own updated_since. Invalid upstream entries are skipped and counted, never fatal; a page that is
// not the API's envelope ends the run (it resumes at that page next time).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../platform/clock.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import type { Fetcher } from '../platform/net/guarded-client.ts';
import { checkUpstreamItem, pageSchema, type UpstreamEntry } from './entry.ts';
import { upsertCatalogEntries } from './write.ts';
import { advanceSyncRun, beginSyncRun, finishSyncRun, releaseSyncRun, SyncLost, type SyncRun } from './sync-state.ts';

export interface SyncProgress {
  /** Pages this run has stored (a resumed run counts those before the interruption). */
  page: number;
  fetched: number;
  stored: number;
  unchanged: number;
  skipped: number;
  /** Whether upstream said another page follows. */
  more: boolean;
}

export interface SyncOptions {
  /** The upstream registry's base URL (without /v0.1). */
  upstream: string;
  fetcher: Fetcher;
  /** `limit` asked of upstream per page. */
  pageSize: number;
  /** The lock's lease, renewed with every page. */
  leaseS: number;
  /** The next run's updated_since is this run's start minus this overlap (clock skew, late commits upstream). */
  overlapS: number;
  /** Ignore the watermark: pull everything (an interrupted full run still resumes). */
  full?: boolean;
  /** Ends the run between or during fetches (shutdown, Ctrl-C): the lock is released, the cursor kept. */
  signal?: AbortSignal;
  onStart?: (run: Readonly<SyncRun>) => void;
  onPage?: (progress: SyncProgress) => void;
}

export interface SyncResult {
  ok: true;
  upstream: string;
  mode: 'full' | 'incremental';
  /** This invocation continued an interrupted run. */
  resumed: boolean;
  /** The updated_since asked of upstream (null: a full run). */
  since: string | null;
  /** Pages fetched by this invocation, and by the whole run. */
  pages: number;
  runPages: number;
  fetched: number;
  stored: number;
  unchanged: number;
  /** Invalid upstream entries, not stored. */
  skipped: number;
  skippedReasons: Record<string, number>;
  /** The next run's updated_since. */
  watermark: string;
  startedAt: string;
  finishedAt: string;
}

/** Upstream failed to answer a page the way the API says (the run stops; it resumes at this page). */
export class UpstreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export function pageUrl(upstream: string, run: Pick<SyncRun, 'cursor' | 'since'>, limit: number): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (run.cursor) params.set('cursor', run.cursor);
  if (run.since) params.set('updated_since', run.since);
  return `${upstream.replace(/\/+$/, '')}/v0.1/servers?${params}`;
}

async function fetchPage(options: SyncOptions, run: SyncRun): Promise<{ items: unknown[]; nextCursor: string | null }> {
  const res = await options.fetcher.fetch(pageUrl(options.upstream, run, options.pageSize), { headers: { accept: 'application/json' }, signal: options.signal });
  if (res.status !== 200) throw new UpstreamError(`upstream answered ${res.status} for page ${run.pages + 1}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    throw new UpstreamError(`upstream page ${run.pages + 1} is not JSON`);
  }
  const page = pageSchema.safeParse(body);
  if (!page.success) throw new UpstreamError(`upstream page ${run.pages + 1} is not a server list ({servers, metadata})`);
  const next = page.data.metadata?.nextCursor;
  return { items: page.data.servers, nextCursor: next ? next : null };
}

/** Runs one sync (see the file comment). Throws SyncBusy when another process is syncing. */
export async function syncCatalog(deps: { db: Executor; clock: Clock }, options: SyncOptions): Promise<SyncResult> {
  const { db, clock } = deps;
  const run = await beginSyncRun(db, { upstream: options.upstream, holder: randomUUID(), now: clock.now(), leaseS: options.leaseS, full: options.full ?? false });
  options.onStart?.(run);
  const totals = { pages: 0, fetched: 0, stored: 0, unchanged: 0, skipped: 0 };
  const skippedReasons: Record<string, number> = {};
  const seen = new Set<string>(run.cursor ? [run.cursor] : []);
  try {
    for (;;) {
      if (options.signal?.aborted) throw new UpstreamError('the sync was stopped');
      const { items, nextCursor } = await fetchPage(options, run);
      const valid: UpstreamEntry[] = [];
      for (const item of items) {
        const checked = checkUpstreamItem(item);
        if (checked.ok) valid.push(checked.entry);
        else skippedReasons[checked.reason] = (skippedReasons[checked.reason] ?? 0) + 1;
      }
      if (nextCursor && seen.has(nextCursor)) throw new UpstreamError(`upstream repeated cursor ${JSON.stringify(nextCursor.slice(0, 80))}: the pages go round in a loop`);
      if (nextCursor) seen.add(nextCursor);
      const now = clock.now();
      const counts = await inTransaction(db, async (trx) => {
        await advanceSyncRun(trx, run, nextCursor, now, options.leaseS);
        return upsertCatalogEntries(trx, valid, iso(now));
      });
      totals.pages++;
      totals.fetched += items.length;
      totals.stored += counts.stored;
      totals.unchanged += counts.unchanged;
      totals.skipped += items.length - valid.length;
      options.onPage?.({ page: run.pages, fetched: totals.fetched, stored: totals.stored, unchanged: totals.unchanged, skipped: totals.skipped, more: nextCursor !== null });
      if (!nextCursor) break;
    }
  } catch (err) {
    if (!(err instanceof SyncLost)) await releaseSyncRun(db, run, err instanceof Error ? err.message : String(err), clock.now());
    throw err;
  }
  const finished = clock.now();
  const result: SyncResult = {
    ok: true,
    upstream: options.upstream,
    mode: run.since ? 'incremental' : 'full',
    resumed: run.resumed,
    since: run.since,
    pages: totals.pages,
    runPages: run.pages,
    fetched: totals.fetched,
    stored: totals.stored,
    unchanged: totals.unchanged,
    skipped: totals.skipped,
    skippedReasons,
    watermark: iso(new Date(new Date(run.startedAt).getTime() - options.overlapS * 1000)),
    startedAt: run.startedAt,
    finishedAt: iso(finished),
  };
  if (!(await finishSyncRun(db, run, result.watermark, result, finished))) throw new SyncLost();
  return result;
}
