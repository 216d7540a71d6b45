// The usage counters table: owned by the platform's usage counters (counters.ts). One row per UTC
// day and counter name; each instance adds its batched counts to it, so the rows are network-wide.
import type { Executor } from '../db/executor.ts';
import { typed } from '../db/executor.ts';

export interface UsageCountersTable {
  day: string; // YYYY-MM-DD (UTC)
  name: string; // requests | tool_calls | probe_fetches | tool:<name>
  n: number;
}

export type UsageTables = { usage_counters: UsageCountersTable };

export const usageTables = (ex: Executor) => typed<UsageTables>(ex);
