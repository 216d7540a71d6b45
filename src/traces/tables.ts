// The traces domain's tables (DESIGN.md "Traces"). Only files in src/traces/ may import this module.
// `trace_deposits` keeps every deposit (history, rates of gain); `trace_field` keeps one row per
// (channel, subject) with its value decayed to `at_ms`, so a read decays it to now in O(1) and
// `log_key` orders by current strength without a sweep (see field.ts).
import type { Generated } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface TraceDepositsTable {
  id: Generated<number>;
  channel: string; // attraction | demand | danger | joined
  subject_key: string; // listing:<id> | cap:<capability> | pair:<a>|<b>
  intensity: number;
  body: string | null; // untrusted text, capped; never shown in the public feed
  depositor: string; // metering subject key of the caller ("system" for automatic deposits)
  day: string; // YYYY-MM-DD (UTC), for per-caller daily bounds
  at: string;
  at_ms: number;
  moves: Generated<number>; // 1: folded into the field; 0: recorded only (an anonymous caller's mark, a deposit past a cap)
}

export interface TraceFieldTable {
  channel: string;
  subject_key: string;
  subject_kind: string; // listing | capability | pair
  a: string; // the listing id, the capability, or the pair's first listing id (sorted)
  b: string | null; // the pair's second listing id
  value: number; // decayed to at_ms
  at_ms: number;
  log_key: number; // log2(value) + at_ms / half_life_ms: larger = stronger now, whatever now is
  deposits: number;
}

/** Outcomes reported with deposit_outcome (SPEC.md 2.7): what value tools and compositions led to. */
export interface TraceOutcomesTable {
  id: string; // out_...
  listing_id: string | null; // the listing the outcome is about
  ok: number; // 0/1
  quality: number; // 0..1
  body: string | null; // untrusted text, capped
  from_label: string | null; // SPEC.md 2.7 `from`: which tool or composition it followed
  depositor: string; // metering subject key of the caller
  day: string;
  at: string;
}

/** An endorsement counted once per ordered pair per UTC day (the primary key makes it atomic). */
export interface TraceEndorsementsTable {
  from_listing_id: string; // the endorsing listing
  to_listing_id: string; // the endorsed (Live) partner
  day: string; // YYYY-MM-DD (UTC)
  depositor: string; // metering subject key of the caller
  at: string;
}

/** Per-day counters that bound deposits (limits.ts): one row per (owner, day, scope). */
export interface TraceCountersTable {
  owner: string; // a depositor's subject key, or "system"
  day: string; // YYYY-MM-DD (UTC)
  scope: string; // "total", "<channel> <subject_key>", "endorse", or an automatic deposit's once-a-day key
  n: number;
}

export type TraceTables = {
  trace_deposits: TraceDepositsTable;
  trace_field: TraceFieldTable;
  trace_outcomes: TraceOutcomesTable;
  trace_endorsements: TraceEndorsementsTable;
  trace_counters: TraceCountersTable;
};

export const traceTables = (ex: Executor) => typed<TraceTables>(ex);
