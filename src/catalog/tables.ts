// The catalog domain's tables: servers known from an upstream registry, one row per
// (name, version) with its server.json, the remote URLs of each for lookups, and the state of the
// sync that fills them. Only files in src/catalog/ may import this module (.dependency-cruiser.cjs).
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export type CatalogStatus = 'active' | 'deprecated' | 'deleted';

export interface CatalogServersTable {
  name: string; // reverse-DNS server name, "io.github.owner/repo"
  version: string;
  server_json: string; // the upstream server.json, as received (after validation)
  status: CatalogStatus;
  is_latest: number; // 1 for the latest version of the name
  published_at: string | null; // upstream's, normalized to ISO 8601 UTC
  updated_at: string; // upstream's (our sync time when it gave none): what updated_since filters
  synced_at: string; // when this row last changed here
}

/** One row per remote URL of a stored version, keyed like listing spellings (listings/identity.ts endpointKey). */
export interface CatalogRemotesTable {
  url_key: string;
  name: string;
  version: string;
}

/**
 * The sync's bookkeeping, one row (`id = 'upstream'`): the watermark the next incremental run asks
 * for, the unfinished run (its start, its updated_since, the cursor of its next page) so an
 * interrupted run resumes where it stopped, and the lock one syncing process holds (renewed per page).
 */
export interface CatalogSyncTable {
  id: string;
  upstream_url: string | null;
  watermark: string | null;
  run_started_at: string | null;
  run_since: string | null;
  run_cursor: string | null;
  run_pages: number;
  holder: string | null;
  lease_until: string | null;
  last_completed_at: string | null;
  last_error: string | null;
  last_result: string | null; // JSON of the last finished run's SyncResult
  updated_at: string;
}

/** What a health check of a remote found (catalog/remote-health.ts). */
export type RemoteStatus = 'live' | 'auth_required' | 'dead' | 'not_mcp' | 'refused';

/**
 * One remote URL of the catalog (by lookup key: entries that share it share its checks): the last
 * check's findings, the status the feed was told (after two checks agree), the schedule, and the
 * lease of the instance checking it now.
 */
export interface CatalogChecksTable {
  url_key: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  host: string; // the host key budgets and fairness count by
  status: RemoteStatus | null; // null: not checked yet
  shown_status: RemoteStatus | null;
  last_verified: string | null;
  latency_ms: number | null;
  protocol: string | null;
  answered_transport: string | null;
  server_name: string | null;
  server_version: string | null;
  tool_count: number | null;
  tools_bytes: number | null;
  tools_truncated: number;
  tools_json: string | null; // [{name, description, params}] of the last live check
  server_card: string | null; // JSON: what a live remote's `<remote>/server-card` said (probe/server-card-read.ts)
  auth_metadata: string | null; // the RFC 9728 metadata URL a 401 named
  detail: string | null;
  fail_streak: number;
  failing_since: string | null;
  next_check_at: string;
  holder: string | null;
  lease_until: string | null;
  created_at: string;
}

/** The last checks of each remote (CHECK_HISTORY_KEPT), with what changed since the one before. */
export interface CatalogCheckHistoryTable {
  url_key: string;
  checked_at: string;
  status: RemoteStatus;
  latency_ms: number | null;
  tool_count: number | null;
  changes: string | null; // JSON {tools_added, tools_removed, version: {from, to}}
}

export interface CatalogTables {
  catalog_servers: CatalogServersTable;
  catalog_remotes: CatalogRemotesTable;
  catalog_sync: CatalogSyncTable;
  catalog_checks: CatalogChecksTable;
  catalog_check_history: CatalogCheckHistoryTable;
}

export const catalogTables = (ex: Executor) => typed<CatalogTables>(ex);
