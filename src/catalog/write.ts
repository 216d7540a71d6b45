// Catalog storage, writes: a page of valid upstream entries upserted in the caller's transaction.
// A version whose content, status, times and latest mark are unchanged is left alone (the sync
// re-reads a window behind its watermark, so this is common). Every change that touches a
// server's latest version appends to the change feed (entity `catalog`, id: the server name) in
// the same transaction (one per server and page), `remove` when upstream marked it deleted or no
// version is latest any more, so the search index follows.
import type { Executor } from '../platform/db/executor.ts';
import { recordChange } from '../platform/db/changes.ts';
import { catalogTables as q, type CatalogServersTable } from './tables.ts';
import { remoteUrls, type UpstreamEntry } from './entry.ts';
import { CATALOG_ENTITY, remoteKey } from './store.ts';
import { newestVersion } from './latest.ts';
import { remotesOf } from './remote-health.ts';
import { addRemotesToCheck } from './checks-store.ts';

export interface UpsertCounts {
  /** Versions inserted or changed (added + updated). */
  stored: number;
  /** Versions not stored before. */
  added: number;
  /** Versions stored before, changed. */
  updated: number;
  /** Versions already stored exactly so. */
  unchanged: number;
}

type Existing = Pick<CatalogServersTable, 'name' | 'version' | 'server_json' | 'status' | 'is_latest' | 'published_at' | 'updated_at'>;

const IN_CHUNK = 200;

async function existingRows(trx: Executor, names: string[]): Promise<Map<string, Existing[]>> {
  const byName = new Map<string, Existing[]>();
  for (let i = 0; i < names.length; i += IN_CHUNK) {
    const rows = await q(trx)
      .selectFrom('catalog_servers')
      .select(['name', 'version', 'server_json', 'status', 'is_latest', 'published_at', 'updated_at'])
      .where('name', 'in', names.slice(i, i + IN_CHUNK))
      .execute();
    for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), { ...r, is_latest: Number(r.is_latest) }]);
  }
  return byName;
}

/** Upserts valid upstream entries (in order: a later duplicate wins) in the caller's transaction. */
export async function upsertCatalogEntries(trx: Executor, entries: UpstreamEntry[], now: string): Promise<UpsertCounts> {
  const counts: UpsertCounts = { stored: 0, added: 0, updated: 0, unchanged: 0 };
  if (!entries.length) return counts;
  const byName = await existingRows(trx, [...new Set(entries.map((e) => e.name))]);
  const touched = new Set<string>();
  for (const entry of entries) {
    const versions = byName.get(entry.name) ?? [];
    const old = versions.find((v) => v.version === entry.version);
    const row: Existing = {
      name: entry.name,
      version: entry.version,
      server_json: JSON.stringify(entry.server),
      status: entry.status,
      is_latest: old?.is_latest ?? 0,
      published_at: entry.publishedAt,
      updated_at: entry.updatedAt ?? old?.updated_at ?? now,
    };
    const all = old ? versions.map((v) => (v === old ? row : v)) : [...versions, row];
    const newest = newestVersion(all);
    const marked = (v: Existing) => (v.version === newest ? 1 : 0);
    const sameContent =
      old !== undefined && old.server_json === row.server_json && old.status === row.status && old.published_at === row.published_at && old.updated_at === row.updated_at;
    const movedMarks = all.filter((v) => v !== row && marked(v) !== v.is_latest);
    if (sameContent && marked(row) === row.is_latest && !movedMarks.length) {
      counts.unchanged++;
      continue;
    }
    // One latest version per server: the semver-newest (latest.ts); others lose the mark first.
    for (const v of movedMarks) {
      await q(trx).updateTable('catalog_servers').set({ is_latest: marked(v) }).where('name', '=', v.name).where('version', '=', v.version).execute();
      v.is_latest = marked(v);
      // A version stored before that becomes latest brings its remotes to the checks.
      if (v.is_latest && v.status !== 'deleted') await addRemotesToCheck(trx, remotesOf(JSON.parse(v.server_json) as Record<string, unknown>), now);
    }
    const wasLatest = old?.is_latest === 1;
    row.is_latest = marked(row);
    await q(trx)
      .insertInto('catalog_servers')
      .values({ ...row, synced_at: now })
      .onConflict((oc) =>
        oc.columns(['name', 'version']).doUpdateSet({
          server_json: row.server_json,
          status: row.status,
          is_latest: row.is_latest,
          published_at: row.published_at,
          updated_at: row.updated_at,
          synced_at: now,
        }),
      )
      .execute();
    if (!old || old.server_json !== row.server_json) {
      await q(trx).deleteFrom('catalog_remotes').where('name', '=', entry.name).where('version', '=', entry.version).execute();
      const keys = [...new Set(remoteUrls(entry.server).map(remoteKey).filter((k): k is string => k !== undefined))];
      if (keys.length) await q(trx).insertInto('catalog_remotes').values(keys.map((url_key) => ({ url_key, name: entry.name, version: entry.version }))).execute();
    }
    // The latest version's remotes are health-checked; one not known yet is due now.
    if (row.is_latest && row.status !== 'deleted') await addRemotesToCheck(trx, remotesOf(entry.server), now);
    if (row.is_latest || wasLatest || movedMarks.length) touched.add(entry.name);
    if (old) Object.assign(old, row);
    else versions.push(row);
    byName.set(entry.name, versions);
    if (sameContent) {
      counts.unchanged++;
      continue;
    }
    counts.stored++;
    if (old) counts.updated++;
    else counts.added++;
  }
  // One change per server whose latest version changed, saying what it is now: gone when no version
  // is latest or upstream deleted it (a page that moves the mark between versions records one upsert).
  for (const name of touched) {
    const current = byName.get(name)?.find((v) => v.is_latest === 1);
    await recordChange(trx, CATALOG_ENTITY, name, current && current.status !== 'deleted' ? 'upsert' : 'remove', now);
  }
  return counts;
}
