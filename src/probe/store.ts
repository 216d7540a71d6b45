// Probe storage: the latest probe of each listing (what its view shows) and its history (time,
// outcome, reason, latency, score), kept bounded: the recent record behind uptime and latency in
// the status and the reliability part of the score.
import type { Selectable } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { DAY_MS } from '../platform/clock.ts';
import { probeTables as q, type ProbeStateTable } from './tables.ts';

export type ProbeState = Omit<Selectable<ProbeStateTable>, 'listing_id'>;

export async function loadProbeStates(ex: Executor, ids: string[]): Promise<Map<string, ProbeState>> {
  if (!ids.length) return new Map();
  const rows = await q(ex).selectFrom('probe_state').selectAll().where('listing_id', 'in', ids).execute();
  return new Map(rows.map(({ listing_id, ...state }) => [listing_id, state]));
}

export async function loadProbeState(ex: Executor, id: string): Promise<ProbeState | undefined> {
  return (await loadProbeStates(ex, [id])).get(id);
}

const EMPTY_STATE: ProbeState = {
  ok: 0,
  handshake: null,
  score: null,
  probed_at: null,
  target: null,
  detail: null,
  protocol: null,
  latency_ms: null,
  report: null,
  checks_clean: 0,
  failing_since: null,
};

/** Writes some fields of a listing's latest probe (the rest stay as they were). */
export async function saveProbeState(ex: Executor, id: string, patch: Partial<ProbeState>): Promise<void> {
  await q(ex)
    .insertInto('probe_state')
    .values({ listing_id: id, ...EMPTY_STATE, ...patch })
    .onConflict((oc) => oc.column('listing_id').doUpdateSet(patch))
    .execute();
}

/** Whether the latest probe passed (handshake and every clean check) within the last `withinS` seconds. */
export function freshlyLive(state: ProbeState | undefined, now: Date, withinS: number): boolean {
  if (!state?.probed_at || state.ok !== 1 || state.checks_clean !== 1) return false;
  return now.getTime() - new Date(state.probed_at).getTime() <= withinS * 1000;
}

export const HISTORY_KEEP = 50;
const RECENT_SHOWN = 10;

export interface HistoryEntry {
  at: string;
  ok: boolean;
  reason: string | null;
  latency_ms: number | null;
  score: number;
}

/**
 * Appends a probe to the history. `keptBefore` is how many entries readHistory showed before this
 * one (in the same transaction): the history is trimmed back to HISTORY_KEEP only once it is full,
 * not on every probe.
 */
export async function recordProbe(db: Executor, listingId: string, entry: HistoryEntry, keptBefore: number): Promise<void> {
  await q(db)
    .insertInto('probe_history')
    .values({ listing_id: listingId, at: entry.at, ok: entry.ok ? 1 : 0, reason: entry.reason, latency_ms: entry.latency_ms, score: entry.score })
    .execute();
  if (keptBefore < HISTORY_KEEP) return;
  const keep = q(db).selectFrom('probe_history').select('id').where('listing_id', '=', listingId).orderBy('id', 'desc').limit(HISTORY_KEEP);
  await q(db).deleteFrom('probe_history').where('listing_id', '=', listingId).where('id', 'not in', keep).execute();
}

export async function readHistory(db: Executor, listingId: string): Promise<HistoryEntry[]> {
  const rows = await q(db).selectFrom('probe_history').selectAll().where('listing_id', '=', listingId).orderBy('id', 'desc').limit(HISTORY_KEEP).execute();
  return rows.map((r) => ({ at: r.at, ok: r.ok === 1, reason: r.reason, latency_ms: r.latency_ms, score: r.score }));
}

/** Share of successful probes among the kept ones (1 when there is no history yet). */
export const uptimeShare = (entries: { ok: boolean }[]): number => (entries.length ? entries.filter((e) => e.ok).length / entries.length : 1);

const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
};

/** The history as the status shows it: uptime overall and over 24 h, median latency, recent probes. */
export function historySummary(entries: HistoryEntry[], now: Date) {
  const day = entries.filter((e) => now.getTime() - new Date(e.at).getTime() <= DAY_MS);
  const pct = (xs: HistoryEntry[]) => (xs.length ? Math.round(uptimeShare(xs) * 1000) / 10 : null);
  return {
    probes: entries.length,
    uptime_pct: pct(entries),
    uptime_24h_pct: pct(day),
    median_latency_ms: median(entries.filter((e) => e.ok && e.latency_ms !== null).map((e) => e.latency_ms!)),
    recent: entries.slice(0, RECENT_SHOWN),
  };
}

/** Listings probed at least once, and those whose latest probe passed every clean check. */
export async function countProbed(ex: Executor): Promise<{ probed: number; clean: number }> {
  const row = await q(ex)
    .selectFrom('probe_state')
    .select((eb) => [eb.fn.countAll<number>().as('probed'), eb.fn.sum<number>('checks_clean').as('clean')])
    .where('probed_at', 'is not', null)
    .executeTakeFirst();
  return { probed: Number(row?.probed ?? 0), clean: Number(row?.clean ?? 0) };
}
