// Automatic deposits: what the service itself observes, deposited by "system" in the
// transaction of the event that caused it, so the field never shows an event that rolled back.
// Other domains call systemDeposit (or the helpers below) instead of writing the field themselves.
import type { Executor } from '../platform/db/executor.ts';
import { cleanText } from '../listings/text.ts';
import { known, type Part } from '../platform/db/together.ts';
import { deposit, depositParts, fieldAfter, lockedFieldPart, type FieldValue } from './store.ts';
import { subjectKey, normalizeCapability, type TraceSubject } from './subjects.ts';
import { decayed, MAX_INTENSITY, MIN_INTENSITY, type Channel } from './channels.ts';
import { countedPart, takeCount, takeCountPart } from './limits.ts';
import { trailPart } from './trail-rank.ts';

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
  if (options.oncePerDay !== undefined && (await takeCount(trx, SYSTEM, now, `once ${options.oncePerDay}`, 1)) === undefined) return false;
  await deposit(trx, systemDepositOf(subject, channel, intensity, now, options.body));
  return true;
}

/** A deposit by "system": intensity clamped to 1-50, body cleaned and capped. */
const systemDepositOf = (subject: TraceSubject, channel: Channel, intensity: number, now: Date, body: string | undefined) => ({
  channel,
  subject: subjectKey(subject),
  intensity: Math.min(MAX_INTENSITY, Math.max(MIN_INTENSITY, intensity)),
  body: body === undefined ? null : cleanText(body, 200) || null,
  depositor: SYSTEM,
  at: now,
});

/** What a probe's deposit must know before it is written: read with the probe's other reads (probeTraceReads). */
export interface ProbeTraceSeen {
  /** Today's deposit of this outcome on the listing is made already (once a day each). */
  depositedToday: boolean;
  /** The listing's attraction before this probe (Live probes only; locked until commit). */
  attraction?: FieldValue;
}

const probeChannel = (live: boolean): Channel => (live ? 'attraction' : 'danger');
const probeOnce = (listingId: string, live: boolean) => `once probe ${probeChannel(live)} ${listingId}`;

/**
 * A probe's outcome on its listing, first half: what the deposit depends on, as parts of the
 * probe's batch of reads (platform/db/together.ts). The listing's row lock, which the probe holds,
 * keeps another probe of it from depositing meanwhile; the attraction row is locked here, so the
 * trail part written with the listing is the field's own value.
 */
export function probeTraceReads(trx: Executor, listingId: string, live: boolean, now: Date): [Part<number>, Part<FieldValue | undefined>] {
  return [countedPart(trx, SYSTEM, now, probeOnce(listingId, live)), live ? lockedFieldPart(trx, 'attraction', subjectKey({ kind: 'listing', listing_id: listingId })) : known(undefined)];
}

/** Reads probeTraceReads' values as what the deposit needs. */
export const probeTraceSeen = (counted: number, attraction: FieldValue | undefined): ProbeTraceSeen => ({ depositedToday: counted >= 1, ...(attraction ? { attraction } : {}) });

/**
 * A probe's outcome on its listing, second half: attraction when it is Live, a danger mark when it
 * failed, at most once per listing per UTC day each, as parts of the probe's batch of writes. The
 * probe writes its listing once, so the rank parts this moves are returned for that write.
 */
export function probeDepositParts(trx: Executor, listingId: string, live: boolean, reason: string | null, now: Date, seen: ProbeTraceSeen): { parts: Part<unknown>[]; rankParts: Record<string, number> } {
  if (seen.depositedToday) return { parts: [], rankParts: {} };
  const intensity = live ? AUTO.probeLive : AUTO.probeFailed;
  const d = systemDepositOf({ kind: 'listing', listing_id: listingId }, probeChannel(live), intensity, now, live ? 'probe succeeded' : `probe failed: ${reason ?? 'unknown'}`);
  const parts = [takeCountPart(trx, SYSTEM, now, probeOnce(listingId, live), 1), ...depositParts(trx, d, true)];
  if (!live) return { parts, rankParts: {} };
  const after = fieldAfter(seen.attraction, intensity, now.getTime(), 'attraction');
  return { parts, rankParts: trailPart(decayed(after.value, after.at_ms, now.getTime(), 'attraction')) };
}

/** systemDeposit without a once-a-day key, as parts of a batch (platform/db/together.ts): for a caller that writes together. */
export function systemDepositParts(trx: Executor, subject: TraceSubject, channel: Channel, intensity: number, now: Date, body?: string): Part<unknown>[] {
  return depositParts(trx, systemDepositOf(subject, channel, intensity, now, body), true);
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
