// `rollcall sync-catalog [--full]`: one sync of the upstream registry with a progress bar on
// stderr, then a one-line summary on stdout, or with --json the result (its `_meta` names the
// invalid upstream entries skipped, by reason). Ctrl-C stops between or during pages and keeps
// the cursor: the next run, by hand or the periodic job, resumes there.
import { SingleBar } from 'cli-progress';
import { loadConfig, type Config } from '../config.ts';
import type { Db } from '../platform/db/dialect.ts';
import { systemClock } from '../platform/clock.ts';
import { createCatalogClient } from '../catalog/client.ts';
import { syncCatalog, type SyncResult } from '../catalog/sync.ts';
import { readSyncState, SyncBusy } from '../catalog/sync-state.ts';
import { countCatalog } from '../catalog/store.ts';
import { openDatabase } from './database.ts';
import { EXIT, type Io, type Runner } from './command.ts';

export const run: Runner = async (inv) => {
  const config = loadConfig(inv.io.env);
  // Checked before the database is opened: without an upstream there is nothing to do.
  if (!config.upstreamRegistryUrl) {
    inv.io.err.write('rollcall sync-catalog: set UPSTREAM_REGISTRY_URL to the registry to sync from (for example https://registry.modelcontextprotocol.io)\n');
    if (inv.json) inv.io.out.write(`${JSON.stringify({ ok: false, error: { code: 'usage', message: 'UPSTREAM_REGISTRY_URL is not set' } })}\n`);
    return EXIT.usage;
  }
  const { db } = await openDatabase(config);
  try {
    return await syncCatalogCli(db, config, { full: inv.values.full === true, json: inv.json }, inv.io);
  } finally {
    await db.close();
  }
};

/** The command's JSON summary: the sync result, with the skipped entries also under `_meta`. */
export const cliSummary = (result: SyncResult, catalog: { servers: number; versions: number }) => ({
  ...result,
  catalog,
  _meta: { 'io.rollcall/sync': { skipped: result.skipped, skipped_reasons: result.skippedReasons } },
});

/** Runs one sync; returns the exit code (0 done, 1 failed or busy, 130 interrupted). */
async function syncCatalogCli(db: Db, config: Config, options: { full: boolean; json: boolean }, io: Io): Promise<number> {
  const say = (line: string) => io.err.write(`${line}\n`);
  const failed = (code: string, message: string, exit: number) => {
    say(`sync-catalog: ${message}`);
    if (options.json) io.out.write(`${JSON.stringify({ ok: false, error: { code, message } })}\n`);
    return exit;
  };
  const upstream = config.upstreamRegistryUrl!;
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const bar = new SingleBar({
    format: 'catalog sync |{bar}| {value}/{total} entries | page {page} | {stored} stored, {unchanged} unchanged, {skipped} skipped',
    stream: io.err,
    noTTYOutput: true,
    notTTYSchedule: 1000,
    hideCursor: null,
  });
  let started = false;
  const client = createCatalogClient(config);
  try {
    const result = await syncCatalog(
      { db: db.kysely, clock: systemClock },
      {
        upstream,
        fetcher: client,
        pageSize: config.catalogSyncPageSize,
        leaseS: config.catalogSyncLeaseS,
        overlapS: config.catalogSyncOverlapS,
        full: options.full,
        signal: stop.signal,
        onStart(run) {
          const what = run.since ? `changes since ${run.since}` : 'everything';
          say(run.resumed ? `resuming the interrupted sync of ${upstream} at page ${run.pages + 1} (${what})` : `syncing ${upstream}: ${what}`);
          bar.start(config.catalogSyncPageSize, 0, { page: run.pages, stored: 0, unchanged: 0, skipped: 0 });
          started = true;
        },
        onPage(p) {
          bar.setTotal(p.fetched + (p.more ? config.catalogSyncPageSize : 0));
          bar.update(p.fetched, { page: p.page, stored: p.stored, unchanged: p.unchanged, skipped: p.skipped });
        },
      },
    );
    bar.stop();
    const catalog = await countCatalog(db.kysely);
    io.out.write(
      options.json
        ? `${JSON.stringify(cliSummary(result, catalog))}\n`
        : `catalog sync done (${result.mode}${result.resumed ? ', resumed' : ''}): ${result.fetched} fetched in ${result.pages} pages, ${result.stored} stored, ${result.unchanged} unchanged, ${result.skipped} skipped as invalid; the catalog holds ${catalog.servers} servers (${catalog.versions} versions)\n`,
    );
    return EXIT.ok;
  } catch (err) {
    if (started) bar.stop();
    if (err instanceof SyncBusy) return failed('busy', err.message, EXIT.failed);
    const state = await readSyncState(db.kysely).catch(() => undefined);
    const resumeAt = state?.run_started_at ? ` The next run resumes at page ${Number(state.run_pages) + 1}.` : '';
    if (stop.signal.aborted) return failed('interrupted', `interrupted.${resumeAt}`, EXIT.interrupted);
    return failed('failed', `${err instanceof Error ? err.message : String(err)}.${resumeAt}`, EXIT.failed);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await client.destroy();
  }
}
