// Table types for Kysely. Booleans are stored as 0/1 integers and times as ISO 8601 UTC text on
// both engines, so one query layer serves SQLite and PostgreSQL without per-engine conversions.
import type { Generated } from 'kysely';

export type Flag = 0 | 1;

export interface ListingsTable {
  id: string;
  url: string; // normalized submitted URL: the listing's unique key
  kind: 'agent' | 'mcp';
  name: string;
  description: string;
  submitted_name: string | null;
  contact_email: string | null; // kept from the first publish, never shown publicly
  source: string | null;
  website: string | null;
  category_id: string;
  lane: 'queued' | 'probing' | 'active' | 'failed' | 'dormant';
  lane_reason: string | null;
  checks_clean: Flag;
  probe_ok: Flag;
  probe_handshake: string | null;
  probe_score: number | null;
  probed_at: string | null;
  probe_target: string | null;
  probe_detail: string | null;
  probe_protocol: string | null;
  probe_latency_ms: number | null;
  probe_report: string | null; // JSON: the checks and the score breakdown of the last full probe
  capabilities: string | null; // JSON: written by the prober
  demoed: Flag;
  feedbacked: Flag;
  founding_verified: Flag;
  rank: number; // rank_delta + probe score: the active list's order, kept true on every update
  live_since: string | null; // first time the listing went Live: talk grace starts here
  talk_last_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChangesTable {
  seq: Generated<number>;
  entity: string;
  entity_id: string;
  op: 'upsert' | 'remove';
  at: string;
}

export interface JobsTable {
  id: string; // `<kind>:<subject>` for per-subject jobs, the kind alone for singletons
  kind: 'probe' | 'sweep';
  subject: string | null;
  due_at: string;
  attempts: number; // consecutive failures, for backoff and dormancy
  lease_token: string | null;
  lease_until: string | null;
  updated_at: string;
}

export interface ProbeHistoryTable {
  id: Generated<number>;
  listing_id: string;
  at: string;
  ok: Flag;
  reason: string | null;
  latency_ms: number | null;
  score: number;
}

export interface ActiveSnapshotsTable {
  seq: number;
  agent_ids: string; // JSON array, active-list order
  mcp_ids: string;
  created_at: string;
}

export interface Database {
  listings: ListingsTable;
  changes: ChangesTable;
  jobs: JobsTable;
  probe_history: ProbeHistoryTable;
  active_snapshots: ActiveSnapshotsTable;
}
