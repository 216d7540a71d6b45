// `rollcall sync-catalog --file PATH`: a catalog from a local file, without the network. The file
// is read and checked whole before the database is opened (catalog/file.ts); its entries are then
// checked and stored by the catalog's load (catalog/load.ts) in one transaction, so a bad file, a
// failure or a Ctrl-C before the commit leaves the catalog as it was. Progress on stderr (progress.ts), then a one-line
// summary on stdout, or with --json the load's result.
import type { Config } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { CatalogFileError, readCatalogFile, type CatalogDocument } from '../catalog/file.ts';
import { loadCatalogItems, LoadStopped } from '../catalog/load.ts';
import { SyncBusy } from '../catalog/sync-state.ts';
import { countCatalog } from '../catalog/store.ts';
import { openDatabase } from './database.ts';
import { startProgress, type Progress, type ProgressLook } from './progress.ts';
import { EXIT, Failure, failWith, interruptible, type Invocation } from './command.ts';

const FORMATS: Record<CatalogDocument['format'], string> = {
  server_list: 'a registry list answer',
  server_json_array: 'an array of server.json',
};

const LOOK: ProgressLook = {
  bar: 'catalog load |{bar}| {value}/{total} entries | {added} added, {updated} updated, {unchanged} unchanged, {refused} refused',
  plain: (done, total, f) => `catalog load: ${done}/${total} entries, ${f.added} added, ${f.updated} updated, ${f.unchanged} unchanged, ${f.refused} refused`,
};

/** Loads the file; returns the exit code (0 loaded, 130 interrupted); throws Failure when it cannot (exit 1). */
export async function loadCatalogFile(inv: Invocation, config: Config, file: string): Promise<number> {
  let doc: CatalogDocument;
  try {
    doc = await readCatalogFile(file);
  } catch (err) {
    if (err instanceof CatalogFileError) throw new Failure(err.message, err.code);
    throw err;
  }
  const { db } = await openDatabase(config);
  let progress: Progress | undefined;
  try {
    // A signal that comes after the commit changes nothing: the catalog is loaded, and the summary says so.
    const { value: result } = await interruptible((signal) => {
      // Said once Ctrl-C is ours to handle: from here on it stops the load, never the process.
      inv.io.err.write(`loading ${file}: ${doc.items.length} entries (${FORMATS[doc.format]})\n`);
      return loadCatalogItems({ db: db.kysely, clock: systemClock }, doc.items, {
        signal,
        onProgress(p) {
          progress ??= startProgress(inv.io.err, LOOK, p.total, { added: 0, updated: 0, unchanged: 0, refused: p.refused });
          progress.update(p.done, p.total, { added: p.added, updated: p.updated, unchanged: p.unchanged, refused: p.refused });
        },
      });
    });
    progress?.stop();
    const catalog = await countCatalog(db.kysely);
    const answer = { ...result, file, format: doc.format, catalog };
    inv.io.out.write(
      inv.json
        ? `${JSON.stringify(answer)}\n`
        : `catalog loaded from ${file}: ${result.read} entries read, ${result.added} added, ${result.updated} updated, ${result.unchanged} unchanged, ${result.refused} refused as invalid; the catalog holds ${catalog.servers} servers (${catalog.versions} versions)\n`,
    );
    return EXIT.ok;
  } catch (err) {
    progress?.stop();
    if (err instanceof LoadStopped) return failWith(inv, 'sync-catalog', { code: 'interrupted', message: `interrupted: ${err.message}` }, EXIT.interrupted);
    if (err instanceof SyncBusy) throw new Failure(`${err.message}; load the file once it is done`, 'busy');
    throw err;
  } finally {
    await db.close();
  }
}
