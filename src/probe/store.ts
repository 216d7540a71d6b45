// Probe storage: the latest probe of each listing (what its view shows) and its history (time,
// outcome, reason, latency, score), kept bounded: the recent record behind uptime and latency in
// the status and the reliability part of the score.
import type { Selectable } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { DAY_MS } from '../platform/clock.ts';
import { part, together, write, type Part } from '../platform/db/together.ts';
import { probeTables as q, type ProbeStateTable, type ProbeTables } from './tables.ts';
import { contextCost, type ContextCost } from '../catalog/context-cost.ts';
import type { CardSignatureStatus } from './card-signature.ts';

export type ProbeState = Omit<Selectable<ProbeStateTable>, 'listing_id'>;

export async function loadProbeStates(ex: Executor, ids: string[]): Promise<Map<string, ProbeState>> {
  if (!ids.length) return new Map();
  const rows = await q(ex).selectFrom('probe_state').selectAll().where('listing_id', 'in', ids).execute();
  return new Map(rows.map(({ listing_id, ...state }) => [listing_id, state]));
}

/** The tool list's size from the stored report (probe/apply.ts); null for agents and before a full MCP probe. */
export function contextCostOf(report: string | null): ContextCost | null {
  if (!report) return null;
  try {
    const list = (JSON.parse(report) as { tool_list?: { count?: unknown; bytes?: unknown; truncated?: unknown } }).tool_list;
    return list && typeof list.count === 'number' && typeof list.bytes === 'number' ? contextCost(list.count, list.bytes, list.truncated === true) : null;
  } catch {
    return null;
  }
}

/** What a listing's last successful probe read: the agent card's URL, and the version the card or the MCP server's serverInfo gives. */
export interface ProbedFacts {
  cardUrl?: string;
  version?: string;
}

/** The probed facts of these listings (those whose report holds none are left out). */
export async function loadProbedFacts(ex: Executor, ids: string[]): Promise<Map<string, ProbedFacts>> {
  const states = await loadProbeStates(ex, ids);
  const out = new Map<string, ProbedFacts>();
  for (const [id, state] of states) {
    try {
      const report = JSON.parse(state.report ?? '{}') as { card_url?: unknown; version?: unknown };
      const facts = { ...(typeof report.card_url === 'string' ? { cardUrl: report.card_url } : {}), ...(typeof report.version === 'string' && report.version ? { version: report.version } : {}) };
      if (Object.keys(facts).length) out.set(id, facts);
    } catch {
      // a report that does not parse has no facts to give
    }
  }
  return out;
}

/** Whether an agent's card is signed and its signature holds, as its last probe that read the card found; null otherwise. */
export function cardSignatureOf(report: string | null): CardSignatureStatus | null {
  if (!report) return null;
  try {
    const status = (JSON.parse(report) as { card_signature?: { status?: unknown } }).card_signature?.status;
    return status === 'valid' || status === 'invalid' || status === 'unsigned' ? status : null;
  } catch {
    return null;
  }
}

/**
 * What each listing's tool list costs an agent's context in tokens (an estimate), as its last full
 * probe measured it; absent for agents and listings whose tools were not measured.
 */
export async function loadToolTokens(ex: Executor, ids: string[]): Promise<Map<string, number>> {
  const tokens = new Map<string, number>();
  for (const [id, state] of await loadProbeStates(ex, ids)) {
    const estimate = contextCostOf(state.report)?.tokens_estimate;
    if (estimate != null) tokens.set(id, estimate);
  }
  return tokens;
}

/** A listing's latest probe, as a part of a batch (platform/db/together.ts). */
export function probeStatePart(ex: Executor, id: string): Part<ProbeState | undefined> {
  return part(q(ex).selectFrom('probe_state').selectAll().where('listing_id', '=', id), (rows) => {
    const row = rows[0] as Selectable<ProbeStateTable> | undefined;
    if (!row) return undefined;
    const { listing_id: _id, ...state } = row;
    return state;
  });
}

export async function loadProbeState(ex: Executor, id: string): Promise<ProbeState | undefined> {
  const [state] = await together(ex, [probeStatePart(ex, id)]);
  return state;
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
  await together(ex, [saveProbeStatePart(ex, id, patch)]);
}

/** saveProbeState as a part of a batch (platform/db/together.ts). */
export const saveProbeStatePart = (ex: Executor, id: string, patch: Partial<ProbeState>): Part<void> =>
  write(
    q(ex)
      .insertInto('probe_state')
      .values({ listing_id: id, ...EMPTY_STATE, ...patch })
      .onConflict((oc) => oc.column('listing_id').doUpdateSet(patch)),
  );

/** Whether the latest probe passed (handshake and every clean check) within the last `withinS` seconds. */
export function freshlyLive(state: ProbeState | undefined, now: Date, withinS: number): boolean {
  if (!state?.probed_at || state.ok !== 1 || state.checks_clean !== 1) return false;
  return now.getTime() - new Date(state.probed_at).getTime() <= withinS * 1000;
}

export const HISTORY_KEEP = 50;
// The status answer (polled) shows the last few probes; the listing's page charts all it keeps.
const RECENT_SHOWN = 3;

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
  await together(db, recordProbeParts(db, listingId, entry, keptBefore));
}

/**
 * recordProbe as parts of a batch (platform/db/together.ts). The trim comes first and keeps one
 * fewer than HISTORY_KEEP of the entries before this one: sent as one statement both see the
 * history as it was, and one after the other the trim runs before the insert.
 */
export function recordProbeParts(db: Executor, listingId: string, entry: HistoryEntry, keptBefore: number): Part<void>[] {
  const insert = write(
    q(db).insertInto('probe_history').values({ listing_id: listingId, at: entry.at, ok: entry.ok ? 1 : 0, reason: entry.reason, latency_ms: entry.latency_ms, score: entry.score }),
  );
  if (keptBefore < HISTORY_KEEP) return [insert];
  const keep = q(db).selectFrom('probe_history').select('id').where('listing_id', '=', listingId).orderBy('id', 'desc').limit(HISTORY_KEEP - 1);
  return [write(q(db).deleteFrom('probe_history').where('listing_id', '=', listingId).where('id', 'not in', keep)), insert];
}

export async function readHistory(db: Executor, listingId: string): Promise<HistoryEntry[]> {
  const [history] = await together(db, [historyPart(db, listingId)]);
  return history;
}

/** readHistory as a part of a batch (platform/db/together.ts). */
export function historyPart(db: Executor, listingId: string): Part<HistoryEntry[]> {
  const sel = q(db).selectFrom('probe_history').selectAll().where('listing_id', '=', listingId).orderBy('id', 'desc').limit(HISTORY_KEEP);
  // Newest first whatever order a batch's aggregate kept (platform/db/together.ts).
  return part(sel, (rows) =>
    (rows as Selectable<ProbeTables['probe_history']>[])
      .sort((a, b) => Number(b.id) - Number(a.id))
      .map((r) => ({ at: r.at, ok: Number(r.ok) === 1, reason: r.reason, latency_ms: r.latency_ms === null ? null : Number(r.latency_ms), score: Number(r.score) })),
  );
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
