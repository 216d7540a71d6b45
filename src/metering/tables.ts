// The metering domain's tables. Only files in src/metering/ may import this module.
// A row per (subject, UTC day, event): units used, units added by refills, units paid through
// x402. The free allowance comes from the event catalog, so a price change needs no migration.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface MeterUsageTable {
  subject: string; // caller.ts allowance key: domain:<owner domain> (a listing acting with its owner token) or addr:<hash>
  day: string; // YYYY-MM-DD (UTC)
  event_id: string;
  used: number; // units spent from the allowance (free + refilled)
  refilled: number; // units granted by refills this day
  paid: number; // units paid through x402 beyond the allowance
  bonus: number; // extra free units of a bonus in force this day (bonus.ts), copied in when the row is made
}

/** Refill grants per (subject, day, action), capped by the action's max_per_day. */
export interface MeterGrantsTable {
  subject: string;
  day: string;
  action: string;
  grants: number;
}

/** Free-form agent names an address has used per day (bounded, so names cannot mint allowances). */
export interface MeterNamesTable {
  address: string; // hash of the client address
  day: string;
  name: string;
}

/**
 * x402 payments this service has taken, keyed by a hash of the signed authorization, so one proof
 * pays for one call (x402.ts): claimed before verification, kept once the call ran.
 */
export interface X402PaymentsTable {
  proof_hash: string; // hex SHA-256 of the canonical JSON of the payment's signed payload
  subject: string;
  event_id: string;
  day: string;
  x402_version: number;
  network: string;
  amount: string; // atomic units asked
  status: 'pending' | 'settled' | 'settle_failed' | 'settle_unknown';
  reason: string | null; // the facilitator's errorReason when settlement failed
  payer: string | null;
  tx: string | null; // the settlement's transaction hash
  created_at: string;
  settled_at: string | null;
}

/** Bonuses that raise a subject's free allowance for some days (bonus.ts); one per subject and reason, ever. */
export interface MeterBonusesTable {
  subject: string;
  reason: string; // pricing_fairness
  events: string; // JSON EventId[]
  units: number; // extra free units per event and day
  from_day: string; // YYYY-MM-DD (UTC), inclusive
  until_day: string; // inclusive
  created_at: string;
}

export type MeteringTables = { meter_usage: MeterUsageTable; meter_grants: MeterGrantsTable; meter_names: MeterNamesTable; meter_bonuses: MeterBonusesTable; x402_payments: X402PaymentsTable };

export const meteringTables = (ex: Executor) => typed<MeteringTables>(ex);
