// Automatic deposits: what the service itself observes, deposited by "system" in the
// transaction of the event that caused it, so the field never shows an event that rolled back.
// Other domains call systemDeposit (or the helpers below) instead of writing the field themselves.
import type { Executor } from '../platform/db/executor.ts';
import { cleanText } from '../listings/text.ts';
import { deposit, type DepositOptions, type DepositResult } from './store.ts';
import { subjectKey, normalizeCapability, type TraceSubject } from './subjects.ts';
import { MAX_INTENSITY, MIN_INTENSITY, type Channel } from './channels.ts';
import { takeCount } from './limits.ts';

export const SYSTEM = 'system';

/** Intensities of the automatic deposits (docs/decisions/trace-deposits.md). */
export const AUTO = {
  /** A new listing (list_yourself): a `joined` trace on it. */
  joined: 10,
  /** A probe that made or kept the listing Live: a little attraction, at most once per listing per UTC day. */
  probeLive: 1,
  /** A probe that failed: a danger mark, at most once per listing per UTC day. */
  probeFailed: 3,
  /** A capability asked for (match_capability, mesh_match): demand, once per caller and capability per UTC day. */
  demand: 1,
} as const;

/** At most this many capabilities of one request leave demand. */
export const DEMAND_PER_REQUEST = 10;

export interface SystemDepositOptions {
  /** A short body (untrusted text is cleaned and capped). */
  body?: string;
  /** Deposit at most once per UTC day under this key (any string naming the event and subject). */
  oncePerDay?: string;
}

/**
 * Deposits `intensity` (clamped to 1-50) on `subject` as "system", in the caller's transaction.
 * Returns false when `oncePerDay` was already used today (nothing is deposited).
 */
export async function systemDeposit(trx: Executor, subject: TraceSubject, channel: Channel, intensity: number, now: Date, options: SystemDepositOptions = {}): Promise<boolean> {
  return (await depositOnce(trx, subject, channel, intensity, now, options)) !== undefined;
}

async function depositOnce(trx: Executor, subject: TraceSubject, channel: Channel, intensity: number, now: Date, options: SystemDepositOptions, depositOptions: DepositOptions = {}): Promise<DepositResult | undefined> {
  if (options.oncePerDay !== undefined && (await takeCount(trx, SYSTEM, now, `once ${options.oncePerDay}`, 1)) === undefined) return undefined;
  return deposit(
    trx,
    {
      channel,
      subject: subjectKey(subject),
      intensity: Math.min(MAX_INTENSITY, Math.max(MIN_INTENSITY, intensity)),
      body: options.body === undefined ? null : cleanText(options.body, 200) || null,
      depositor: SYSTEM,
      at: now,
    },
    depositOptions,
  );
}

/**
 * A probe's outcome on its listing: attraction when it is Live, a danger mark when it failed. The
 * probe writes its listing once, so the rank parts this moves are returned for that write.
 */
export async function probeDeposit(trx: Executor, listingId: string, live: boolean, reason: string | null, now: Date): Promise<Record<string, number>> {
  const channel: Channel = live ? 'attraction' : 'danger';
  const result = await depositOnce(
    trx,
    { kind: 'listing', listing_id: listingId },
    channel,
    live ? AUTO.probeLive : AUTO.probeFailed,
    now,
    { body: live ? 'probe succeeded' : `probe failed: ${reason ?? 'unknown'}`, oncePerDay: `probe ${channel} ${listingId}` },
    { deferTrail: true },
  );
  return result?.rankParts ?? {};
}

/**
 * Demand for capabilities somebody asked for: one `demand` trace per distinct capability (the
 * first DEMAND_PER_REQUEST), each at most once per `asker` (a caller key) and capability per day,
 * so repeating a query cannot inflate demand.
 */
export async function recordDemand(trx: Executor, capabilities: readonly string[], asker: string, now: Date): Promise<string[]> {
  const distinct = [...new Set(capabilities.map((c) => normalizeCapability(cleanText(c, 200))).filter(Boolean))].slice(0, DEMAND_PER_REQUEST);
  const deposited: string[] = [];
  for (const capability of distinct) {
    if (await systemDeposit(trx, { kind: 'capability', capability }, 'demand', AUTO.demand, now, { oncePerDay: `demand ${asker} ${capability}` })) deposited.push(capability);
  }
  return deposited;
}
