// The connectors domain's table: one daily pick per UTC day (SPEC.md 2.8). The row is written once
// by the first instance that picks (primary key `day`), so every instance shows the same pick.
// Only files in src/connectors/ may import this module.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface ConnectorPicksTable {
  day: string; // YYYY-MM-DD (UTC)
  partner_key: string | null; // listing:<id> or file:<id>; null when no candidate was left
  partner_id: string | null;
  partner_name: string | null;
  listing_id: string | null; // set when the partner is a listing (prep refills it)
  hirey_likeness: number;
  research: number; // 1: below the gate, no draft
  pick: string; // JSON: everything `today` shows, as computed at pick time
  created_at: string;
  updated_at: string; // pick made or prepared
  notified_at: string | null; // the operator first read it (with ADMIN_TOKEN) or prepared it
  prepped_at: string | null;
  prep_note: string | null;
}

export type ConnectorTables = { connector_picks: ConnectorPicksTable };

export const connectorTables = (ex: Executor) => typed<ConnectorTables>(ex);
