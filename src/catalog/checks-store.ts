// Catalog health checks, storage: the remotes to check (added as entries arrive), the due ones
// claimed under a lease so two instances never check one remote at once, a check's findings with
// its place in the history, and the reads the views make.
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { recordChanges } from '../platform/db/changes.ts';
import { hostKey } from '../platform/net/host-key.ts';
import { catalogTables as q, type CatalogChecksTable, type RemoteStatus } from './tables.ts';
import { CATALOG_ENTITY } from './store.ts';
import { changesBetween, isUp, nextCheckAt, type CheckChanges, type RemoteOfEntry } from './remote-health.ts';

export type CheckRow = Selectable<CatalogChecksTable>;
export type { RemoteStatus };

/** Checks kept per remote for its history. */
export const CHECK_HISTORY_KEPT = 30;

const hostOf = (url: string) => {
  try {
    return hostKey(url);
  } catch {
    return url;
  }
};

/** Adds the checkable remotes not known yet, due now (new remotes are checked first). */
export async function addRemotesToCheck(ex: Executor, remotes: RemoteOfEntry[], now: string): Promise<void> {
  const rows = new Map<string, { url_key: string; url: string; transport: RemoteOfEntry['type']; host: string; next_check_at: string; created_at: string; fail_streak: number; tools_truncated: number }>();
  for (const r of remotes) {
    if (r.key && !rows.has(r.key)) rows.set(r.key, { url_key: r.key, url: r.url, transport: r.type, host: hostOf(r.url), next_check_at: now, created_at: now, fail_streak: 0, tools_truncated: 0 });
  }
  if (!rows.size) return;
  await q(ex)
    .insertInto('catalog_checks')
    .values([...rows.values()])
    .onConflict((oc) => oc.column('url_key').doNothing())
    .execute();
}

/** A catalog_remotes row (as `r`) of a latest version not deleted. */
const listedVersion = sql<boolean>`exists (select 1 from catalog_servers s where s.name = r.name and s.version = r.version and s.is_latest = 1 and s.status <> 'deleted')`;

/**
 * A check row (as `c`) whose remote is in a latest version not deleted: one the schedule checks.
 * Two nested lookups, so each remote is found by its key first: written as one join, SQLite plans
 * it through every latest server for each due row (docs/performance.md, the verified catalog).
 */
const listedRemote = sql`exists (select 1 from catalog_remotes r where r.url_key = c.url_key and ${listedVersion})`;

/**
 * Claims up to `limit` due remotes (or, of `keys`, those no one holds) for `holder` until
 * `leaseUntil`, at most `perHost` of one host: fair across hosts, a host with thousands of remotes
 * waits its turn behind single ones however they sort. Only remotes of a latest version not deleted
 * are checked (a remote dropped from its entry is left alone). The ranking reads keys only (a row's
 * tool list can be large), and the claim is one conditional update of the chosen keys: of two
 * instances asking at once, each remote goes to one. One statement, not one per remote: at 15,000
 * due remotes a round's claim took 368 ms as 100 updates on PostgreSQL (docs/performance.md).
 */
export async function claimDueChecks(ex: Executor, opts: { now: string; limit: number; perHost: number; holder: string; leaseUntil: string; keys?: string[] }): Promise<CheckRow[]> {
  const free = sql`(c.lease_until is null or c.lease_until < ${opts.now})`;
  const due = opts.keys ? sql`c.url_key in (${sql.join(opts.keys.length ? opts.keys : [''])})` : sql`c.next_check_at <= ${opts.now}`;
  const { rows: candidates } = await sql<{ url_key: string }>`
    select t.url_key from (
      select c.url_key, c.next_check_at, row_number() over (partition by c.host order by c.next_check_at, c.url_key) as host_turn
      from catalog_checks c where ${due} and ${free} and ${listedRemote}
    ) t where t.host_turn <= ${opts.perHost} order by t.next_check_at, t.url_key limit ${opts.limit}`.execute(ex);
  if (!candidates.length) return [];
  let update = q(ex)
    .updateTable('catalog_checks')
    .set({ holder: opts.holder, lease_until: opts.leaseUntil })
    .where('url_key', 'in', candidates.map((c) => c.url_key))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', opts.now)]));
  if (!opts.keys) update = update.where('next_check_at', '<=', opts.now);
  const claimed = await update.returningAll().execute();
  return claimed.sort((a, b) => (a.next_check_at < b.next_check_at ? -1 : a.next_check_at > b.next_check_at ? 1 : a.url_key < b.url_key ? -1 : 1));
}

/** Gives a claimed remote back unchecked (its host had no budget left): due again at `dueAt`. */
export async function releaseCheck(ex: Executor, key: string, holder: string, dueAt: string): Promise<void> {
  await q(ex).updateTable('catalog_checks').set({ holder: null, lease_until: null, next_check_at: dueAt }).where('url_key', '=', key).where('holder', '=', holder).execute();
}

/** What one check found (probe/catalog-check.ts). */
export interface CheckFindings {
  status: RemoteStatus;
  latencyMs: number | null;
  protocol: string | null;
  transport: string | null;
  serverName: string | null;
  serverVersion: string | null;
  tools: { name: string; description?: string; params: unknown[] }[] | null;
  toolsBytes: number | null;
  toolsTruncated: boolean;
  authMetadata: string | null;
  detail: string | null;
  /** The server card a live remote serves at `<remote>/server-card` (null: none); absent when it was not read. */
  serverCard?: object | null;
}

/** A status the feed may announce: two checks in a row agree on it and it differs from the last announced. */
export interface StatusChange {
  url_key: string;
  url: string;
  from: RemoteStatus | null;
  to: RemoteStatus;
}

const toolNames = (json: string | null): string[] | null => {
  if (!json) return null;
  try {
    return (JSON.parse(json) as { name: string }[]).map((t) => t.name);
  } catch {
    return null;
  }
};

/**
 * Records a check of a remote `holder` claimed: its findings, its next check, its history (the last
 * CHECK_HISTORY_KEPT) and the lease released, with the status change to announce, if any.
 * Undefined, and nothing written, when the claim was lost (its lease ran out and another took it).
 */
export async function recordCheck(ex: Executor, row: CheckRow, found: CheckFindings, at: Date, holder: string): Promise<{ change?: StatusChange } | undefined> {
  const now = at.toISOString();
  const up = isUp(found.status);
  const failStreak = up ? 0 : row.fail_streak + 1;
  const failingSince = up ? null : (row.failing_since ?? now);
  const live = found.status === 'live';
  const toolsJson = live && found.tools ? JSON.stringify(found.tools) : live ? null : row.tools_json;
  const changes: CheckChanges | undefined = live ? changesBetween({ tools: toolNames(row.tools_json), version: row.server_version }, { tools: found.tools?.map((t) => t.name) ?? null, version: found.serverVersion }) : undefined;
  // Announced after two checks in a row agree: one failed check is not news.
  const agreed = row.status === found.status && row.shown_status !== found.status;
  const updated = await q(ex)
    .updateTable('catalog_checks')
    .set({
      status: found.status,
      shown_status: agreed ? found.status : row.shown_status,
      last_verified: now,
      latency_ms: found.latencyMs,
      protocol: found.protocol ?? (live ? null : row.protocol),
      answered_transport: found.transport ?? (live ? null : row.answered_transport),
      server_name: found.serverName ?? (live ? null : row.server_name),
      server_version: found.serverVersion ?? (live ? null : row.server_version),
      tool_count: live ? (found.tools?.length ?? 0) : row.tool_count,
      tools_bytes: live ? found.toolsBytes : row.tools_bytes,
      tools_truncated: live ? (found.toolsTruncated ? 1 : 0) : row.tools_truncated,
      tools_json: toolsJson,
      server_card: found.serverCard === undefined ? row.server_card : found.serverCard && JSON.stringify(found.serverCard),
      auth_metadata: found.authMetadata,
      detail: found.detail,
      fail_streak: failStreak,
      failing_since: failingSince,
      next_check_at: nextCheckAt(at, found.status, failStreak, failingSince).toISOString(),
      holder: null,
      lease_until: null,
    })
    .where('url_key', '=', row.url_key)
    .where('holder', '=', holder)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return undefined;
  await q(ex)
    .insertInto('catalog_check_history')
    .values({ url_key: row.url_key, checked_at: now, status: found.status, latency_ms: found.latencyMs, tool_count: live ? (found.tools?.length ?? 0) : null, changes: changes ? JSON.stringify(changes) : null })
    .onConflict((oc) => oc.columns(['url_key', 'checked_at']).doNothing())
    .execute();
  // What search narrows by (health-facts.ts) changed: the entries with this remote are changes for the index.
  if ((row.status === 'live') !== live || (live && row.tools_bytes !== found.toolsBytes)) {
    const names = await q(ex).selectFrom('catalog_remotes as r').select('r.name').where('r.url_key', '=', row.url_key).where(listedVersion).execute();
    await recordChanges(ex, CATALOG_ENTITY, [...new Set(names.map((n) => n.name))], 'upsert', now);
  }
  const kept = await q(ex).selectFrom('catalog_check_history').select('checked_at').where('url_key', '=', row.url_key).orderBy('checked_at', 'desc').offset(CHECK_HISTORY_KEPT).limit(1).executeTakeFirst();
  if (kept) await q(ex).deleteFrom('catalog_check_history').where('url_key', '=', row.url_key).where('checked_at', '<=', kept.checked_at).execute();
  return agreed ? { change: { url_key: row.url_key, url: row.url, from: row.shown_status, to: found.status } } : {};
}

/** A check as the health views read it: all but the tool list itself (tens of kilobytes for a large server). */
export type CheckSummary = Omit<CheckRow, 'tools_json'>;

const SUMMARY_COLUMNS = [
  'url_key', 'url', 'transport', 'host', 'status', 'shown_status', 'last_verified', 'latency_ms', 'protocol', 'answered_transport', 'server_name',
  'server_version', 'tool_count', 'tools_bytes', 'tools_truncated', 'server_card', 'auth_metadata', 'detail', 'fail_streak', 'failing_since',
  'next_check_at', 'holder', 'lease_until', 'created_at',
] as const satisfies readonly (keyof CheckSummary)[];

/** The checks of these remote keys, without their tool lists (unknown keys are left out). */
export async function checksByKey(ex: Executor, keys: string[]): Promise<Map<string, CheckSummary>> {
  const out = new Map<string, CheckSummary>();
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await q(ex).selectFrom('catalog_checks').select(SUMMARY_COLUMNS).where('url_key', 'in', unique.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.url_key, r);
  }
  return out;
}

/** The tool list of a remote's last live check, as stored (JSON), or null. */
export async function checkedTools(ex: Executor, key: string): Promise<string | null> {
  const row = await q(ex).selectFrom('catalog_checks').select('tools_json').where('url_key', '=', key).executeTakeFirst();
  return row?.tools_json ?? null;
}

/** The history of one remote, oldest first. */
export async function checkHistory(ex: Executor, key: string) {
  return q(ex).selectFrom('catalog_check_history').select(['checked_at', 'status', 'latency_ms', 'tool_count', 'changes']).where('url_key', '=', key).orderBy('checked_at').execute();
}

/** How many remotes have each status now (null: not checked yet), for summaries. */
export async function checkStatusCounts(ex: Executor, keys?: string[]): Promise<Record<string, number>> {
  let sel = q(ex).selectFrom('catalog_checks').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status');
  if (keys) sel = sel.where('url_key', 'in', keys.length ? keys : ['']);
  const rows = await sel.execute();
  return Object.fromEntries(rows.map((r) => [r.status ?? 'unchecked', Number(r.n)]));
}

/** Every remote of a latest version not deleted, by key (what the schedule checks). */
export async function allCheckKeys(ex: Executor): Promise<string[]> {
  const { rows } = await sql<{ url_key: string }>`select c.url_key from catalog_checks c where ${listedRemote} order by c.url_key`.execute(ex);
  return rows.map((r) => r.url_key);
}

/** The remote keys of the latest version of one server (for `check-catalog --name`). */
export async function remoteKeysOf(ex: Executor, name: string): Promise<string[]> {
  const rows = await q(ex)
    .selectFrom('catalog_remotes as r')
    .innerJoin('catalog_servers as s', (j) => j.onRef('s.name', '=', 'r.name').onRef('s.version', '=', 'r.version'))
    .select('r.url_key')
    .where('r.name', '=', name)
    .where('s.is_latest', '=', 1)
    .execute();
  return rows.map((r) => r.url_key);
}
