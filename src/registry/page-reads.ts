// Read models the human pages need beyond what the operations answer: how many listings wait for
// their probe or failed it (the home page), a listing's whole probe history with the last probe's checks and score breakdown, and the growth series of /grow
// (listings and first-Live per UTC day, public events, trace deposits), and a catalog remote's
// check history and tools, and a listing's tools. Each part is read from the domain that owns it; the pages draw them.
import type { Executor } from '../platform/db/executor.ts';
import { loadProbeState, readHistory, type HistoryEntry } from '../probe/store.ts';
import { RUBRIC } from '../probe/score.ts';
import { dailyListings, laneCounts, shownLaneCounts } from '../listings/counts.ts';
import { dailyFeedCounts } from '../feed/counts.ts';
import { dailyDepositCounts } from '../traces/counts.ts';
import { checkHistory, checkedTools } from '../catalog/checks-store.ts';
import { catalogNamesByRemoteUrl } from '../catalog/store.ts';
import { findListingById } from '../listings/store.ts';

const DAY_MS = 86_400_000;

export interface ScorePart {
  part: keyof typeof RUBRIC;
  points: number;
  max: number;
  rule: string;
}

export interface ProbeDetail {
  /** Oldest first, at most the kept history (probe/store.ts HISTORY_KEEP). */
  history: HistoryEntry[];
  breakdown: ScorePart[];
  checks: { id: string; pass: boolean; detail: string }[];
  /** An MCP server's instructions to models, as its last probe read them (never its description). */
  instructions: string | null;
}

/** The stored probe report is written by probe/apply.ts; an unreadable one shows as no detail. */
function parseReport(report: string | null): { breakdown?: Record<string, number>; checks?: ProbeDetail['checks']; instructions?: string } {
  if (!report) return {};
  try {
    return JSON.parse(report);
  } catch {
    return {};
  }
}

export async function probeDetail(ex: Executor, listingId: string): Promise<ProbeDetail> {
  const [state, history] = await Promise.all([loadProbeState(ex, listingId), readHistory(ex, listingId)]);
  const report = parseReport(state?.report ?? null);
  const breakdown = report.breakdown
    ? (Object.keys(RUBRIC) as (keyof typeof RUBRIC)[]).map((part) => ({ part, points: Math.round((report.breakdown![part] ?? 0) * 10) / 10, max: RUBRIC[part].max, rule: RUBRIC[part].rule }))
    : [];
  return { history: [...history].reverse(), breakdown, checks: Array.isArray(report.checks) ? report.checks : [], instructions: typeof report.instructions === 'string' ? report.instructions : null };
}

/**
 * What the home page counts besides the Live listings: those waiting for their probe and those
 * whose probe failed. A failed listing is counted as failed and nowhere else (never as listed or
 * clean).
 */
export async function notLiveCounts(ex: Executor): Promise<{ waiting: number; failed: number }> {
  const lanes = await shownLaneCounts(ex);
  return { waiting: lanes.queued + lanes.probing, failed: lanes.failed };
}

export interface GrowthDay {
  day: string;
  listed: number;
  went_live: number;
  events: number;
  deposits: number;
}

/** Per UTC day over the last `days` days (only days with something), plus the registry now. */
export async function growthSeries(ex: Executor, now: Date, days: number) {
  const sinceDay = new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const [listed, events, deposits, lanes] = await Promise.all([dailyListings(ex, sinceDay), dailyFeedCounts(ex, sinceDay), dailyDepositCounts(ex, sinceDay), laneCounts(ex)]);
  const byDay = new Map<string, GrowthDay>();
  const at = (day: string) => byDay.get(day) ?? byDay.set(day, { day, listed: 0, went_live: 0, events: 0, deposits: 0 }).get(day)!;
  for (const d of listed) Object.assign(at(d.day), { listed: d.listed, went_live: d.went_live });
  for (const e of events) at(e.day).events += e.count;
  for (const d of deposits) at(d.day).deposits = d.deposits;
  const total = lanes.reduce((n, r) => n + r.count, 0);
  const live = lanes.filter((r) => r.lane === 'active').reduce((n, r) => n + r.count, 0);
  return { since_day: sinceDay, today: now.toISOString().slice(0, 10), days: [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)), listings: { total, live } };
}

/** A tool as the pages show it: a catalog remote's or a Live listing's. */
export interface ToolShown {
  name: string;
  description?: string;
  params: { name: string; description?: string; required?: boolean; type?: string }[];
}

/** The tools a listing's last probe read (an agent's skills have no parameters), for its page. */
export async function listingTools(ex: Executor, listingId: string): Promise<ToolShown[]> {
  const row = await findListingById(ex, listingId);
  try {
    const items = (JSON.parse(row?.capabilities ?? '{}') as { items?: ToolShown[] }).items;
    return Array.isArray(items) ? items.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), params: Array.isArray(t.params) ? t.params : [] })) : [];
  } catch {
    return [];
  }
}

export interface RemoteCheckDetail {
  /** The last checks, oldest first (catalog/checks-store.ts CHECK_HISTORY_KEPT). */
  history: { at: string; status: string; latency_ms: number | null; tool_count: number | null }[];
  /** The tools of its last live check: name, description and parameters. */
  tools: ToolShown[];
}

/** A catalog remote's history and tools, for the entry's page. */
export async function remoteCheckDetail(ex: Executor, key: string): Promise<RemoteCheckDetail> {
  const [history, toolsJson] = await Promise.all([checkHistory(ex, key), checkedTools(ex, key)]);
  let tools: RemoteCheckDetail['tools'] = [];
  try {
    tools = JSON.parse(toolsJson ?? '[]');
  } catch {
    tools = [];
  }
  return { history: history.map((h) => ({ at: h.checked_at, status: h.status, latency_ms: h.latency_ms, tool_count: h.tool_count })), tools };
}

/** The catalog servers one of whose remotes is this listing's URL (the entry and the listing link to each other). */
export function catalogEntriesOf(ex: Executor, url: string): Promise<string[]> {
  return catalogNamesByRemoteUrl(ex, url);
}
