// Probe history per listing (time, outcome, reason, latency, score), kept bounded: the recent
// record behind uptime and latency in the status and the reliability part of the score.
import type { Executor } from '../platform/db/changes.ts';
import { DAY_MS } from '../platform/clock.ts';

export const HISTORY_KEEP = 50;
const RECENT_SHOWN = 10;

export interface HistoryEntry {
  at: string;
  ok: boolean;
  reason: string | null;
  latency_ms: number | null;
  score: number;
}

export async function recordProbe(db: Executor, listingId: string, entry: HistoryEntry): Promise<void> {
  await db
    .insertInto('probe_history')
    .values({ listing_id: listingId, at: entry.at, ok: entry.ok ? 1 : 0, reason: entry.reason, latency_ms: entry.latency_ms, score: entry.score })
    .execute();
  const keep = db.selectFrom('probe_history').select('id').where('listing_id', '=', listingId).orderBy('id', 'desc').limit(HISTORY_KEEP);
  await db.deleteFrom('probe_history').where('listing_id', '=', listingId).where('id', 'not in', keep).execute();
}

export async function readHistory(db: Executor, listingId: string): Promise<HistoryEntry[]> {
  const rows = await db.selectFrom('probe_history').selectAll().where('listing_id', '=', listingId).orderBy('id', 'desc').limit(HISTORY_KEEP).execute();
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
