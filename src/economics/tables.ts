// The economics domain's table: one network_value point per UTC day (DESIGN.md "stored daily").
// Only files in src/economics/ may import this module.
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface EconNetworkValueTable {
  day: string; // YYYY-MM-DD (UTC): one row per day, rewritten by later measures of the same day
  active: number; // N: Active listings
  edges: number; // E: composition edges
  quality: number; // Q: summed outcome quality
  value: number; // N * (1 + ln(1 + E)) * (1 + Q/N)
  computed_at: string; // when this measure was taken (a later one of the same day wins)
}

export type EconomicsTables = { econ_network_value: EconNetworkValueTable };

export const economicsTables = (ex: Executor) => typed<EconomicsTables>(ex);
