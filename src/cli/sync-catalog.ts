// `rollcall sync-catalog [--full]`: one sync of the upstream registry with its progress on stderr
// (progress.ts), then a one-line summary on stdout, or with --json the result (its `_meta` names
// the invalid upstream entries skipped, by reason). Ctrl-C stops between or during pages and keeps
// the cursor: the next run, by hand or the periodic job, resumes there. With `--file PATH` it loads
// a local file instead, without the network (sync-catalog-file.ts).
import { loadConfig, type Config } from '../config.ts';
import type { Db } from '../platform/db/dialect.ts';
import { systemClock } from '../platform/clock.ts';
import { OutboundError } from '../platform/net/guarded-client.ts';
import { createCatalogClient, upstreamRefusal } from '../catalog/client.ts';
import { syncCatalog, type SyncResult } from '../catalog/sync.ts';
import { readSyncState, SyncBusy } from '../catalog/sync-state.ts';
import { countCatalog } from '../catalog/store.ts';
import { openDatabase } from './database.ts';
import { startProgress, type Progress, type ProgressLook } from './progress.ts';
import { loadCatalogFile } from './sync-catalog-file.ts';
import { EXIT, UsageError, failWith, type Io, type Runner } from './command.ts';

export const run: Runner = async (inv) => {
  const config = loadConfig(inv.io.env);
  if (inv.values.file !== undefined) {
    if (inv.values.full === true) throw new UsageError('--full is for the network sync: a file is always loaded whole');
    return loadCatalogFile(inv, config, String(inv.values.file));
  }
  const failed = (code: string, message: string, exit: number) => failWith(inv, 'sync-catalog', { code, message }, exit);
  // Checked before the database is opened: without an upstream, or with one the guard refuses, there is nothing to do.
  const upstream = config.upstreamRegistryUrl;
  if (!upstream) {
    return failed(
      'usage',
      'set UPSTREAM_REGISTRY_URL to the registry to sync from (for example https://registry.modelcontextprotocol.io), or load a file with --file PATH',
      EXIT.usage,
    );
  }
  const refused = upstreamRefusal(config, upstream);
  if (refused) return failed('upstream_refused', refusedUpstream(upstream, refused), EXIT.failed);
  const { db } = await openDatabase(config);
  try {
    return await syncCatalogCli(db, config, upstream, { full: inv.values.full === true, json: inv.json }, inv.io);
  } finally {
    await db.close();
  }
};

/**
 * The outbound guard's refusal of the upstream, with the two ways forward. PROBE_ALLOW_PRIVATE is
 * the switch the catalog's client shares with the prober (catalog/client.ts).
 */
const refusedUpstream = (upstream: string, reason: string) =>
  `refused UPSTREAM_REGISTRY_URL=${upstream}: ${reason}. To load a local catalog use --file PATH; to sync from a registry on your own machine (development only) set PROBE_ALLOW_PRIVATE=1`;

/** The command's JSON summary: the sync result, with the skipped entries also under `_meta`. */
export const cliSummary = (result: SyncResult, catalog: { servers: number; versions: number }) => ({
  ...result,
  catalog,
  _meta: { 'io.rollcall/sync': { skipped: result.skipped, skipped_reasons: result.skippedReasons } },
});

const LOOK: ProgressLook = {
  bar: 'catalog sync |{bar}| {value}/{total} entries | page {page} | {stored} stored, {unchanged} unchanged, {skipped} skipped',
  plain: (done, _total, f) => `catalog sync: ${done} entries in ${f.page} pages so far, ${f.stored} stored, ${f.unchanged} unchanged, ${f.skipped} skipped`,
};

/** Runs one sync; returns the exit code (0 done, 1 failed or busy, 130 interrupted). */
async function syncCatalogCli(db: Db, config: Config, upstream: string, options: { full: boolean; json: boolean }, io: Io): Promise<number> {
  const say = (line: string) => io.err.write(`${line}\n`);
  const failed = (code: string, message: string, exit: number) => failWith({ io, json: options.json }, 'sync-catalog', { code, message }, exit);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let progress: Progress | undefined;
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
          progress = startProgress(io.err, LOOK, config.catalogSyncPageSize, { page: run.pages, stored: 0, unchanged: 0, skipped: 0 });
        },
        onPage(p) {
          progress?.update(p.fetched, p.fetched + (p.more ? config.catalogSyncPageSize : 0), { page: p.page, stored: p.stored, unchanged: p.unchanged, skipped: p.skipped });
        },
      },
    );
    progress?.stop();
    const catalog = await countCatalog(db.kysely);
    io.out.write(
      options.json
        ? `${JSON.stringify(cliSummary(result, catalog))}\n`
        : `catalog sync done (${result.mode}${result.resumed ? ', resumed' : ''}): ${result.fetched} fetched in ${result.pages} pages, ${result.stored} stored, ${result.unchanged} unchanged, ${result.skipped} skipped as invalid; the catalog holds ${catalog.servers} servers (${catalog.versions} versions)\n`,
    );
    return EXIT.ok;
  } catch (err) {
    progress?.stop();
    if (err instanceof SyncBusy) return failed('busy', err.message, EXIT.failed);
    // A name that resolves to a refused address is only found out when dialing.
    if (err instanceof OutboundError && err.reason === 'blocked_address') return failed('upstream_refused', refusedUpstream(upstream, err.message), EXIT.failed);
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
