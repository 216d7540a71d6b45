// The probe domain's tables: the latest probe of each listing and a bounded history of outcomes.
// Only src/probe/ may import this module.
import type { Generated } from 'kysely';
import { typed, type Executor } from '../platform/db/executor.ts';
import type { Flag } from '../platform/db/flag.ts';

export interface ProbeStateTable {
  listing_id: string;
  ok: Flag; // a real protocol exchange succeeded
  handshake: string | null; // ok, failed, auth_required
  score: number | null;
  probed_at: string | null;
  target: string | null; // the URL the handshake ran against
  detail: string | null;
  protocol: string | null;
  latency_ms: number | null;
  report: string | null; // JSON: the checks, the score breakdown and an MCP server's instructions, of the last full probe
  checks_clean: Flag;
  failing_since: string | null; // first of the current run of failures; null while healthy
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

export interface ProbeTables {
  probe_state: ProbeStateTable;
  probe_history: ProbeHistoryTable;
}

export const probeTables = (ex: Executor) => typed<ProbeTables>(ex);
