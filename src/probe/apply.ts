// Writes a probe's outcome onto its listing and moves the lane (DESIGN.md "Listing lifecycle"):
// queued/probing/failed -> active on a clean, successful probe, else failed with the reason;
// active -> dormant after 3 failed probes in a row; dormant -> active on a successful probe plus
// a recent talk check-in.
import type { Executor } from '../platform/db/changes.ts';
import type { ListingsTable } from '../platform/db/schema.ts';
import { iso } from '../platform/clock.ts';
import { updateListing, findListingById, type ListingRow } from '../listings/store.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { talkState } from '../talk/presence.ts';
import type { ProbeReport } from './prober.ts';
import { RUBRIC } from './score.ts';
import { readHistory, recordProbe, uptimeShare } from './history.ts';

export const DORMANT_AFTER_FAILURES = 3;

const httpUrl = (value: string | undefined): string | null => {
  if (!value) return null;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && value.length <= 2048 ? u.toString() : null;
  } catch {
    return null;
  }
};

/** What the registry keeps of a probe's capabilities: details for search, and their names for the hash. */
export function storedCapabilities(report: ProbeReport): string {
  const items = report.capabilities.slice(0, 500).map((c) => ({
    name: cleanText(c.name, 200),
    ...(c.title ? { title: cleanText(c.title, 200) } : {}),
    ...(c.description ? { description: cleanText(c.description, 1000) } : {}),
    ...(c.tags?.length ? { tags: c.tags.slice(0, 20).map((t) => cleanText(t, 60)) } : {}),
    params: c.params.slice(0, 50).map((p) => ({ name: cleanText(p.name, 100), required: p.required, ...(p.description ? { description: cleanText(p.description, 300) } : {}) })),
  }));
  // The names are the cleaned, capped ones: what is hashed is what is shown, and a server with
  // endless tools cannot make the row grow without bound.
  return JSON.stringify({ names: items.map((i) => i.name), items });
}

/** Reachability counts as often as the listing was reachable lately, not only this once. */
function withReliability(report: ProbeReport, history: { ok: boolean }[]): ProbeReport {
  const reached = report.breakdown.reachability > 0;
  const share = uptimeShare([{ ok: reached }, ...history]);
  const reachability = Math.round(RUBRIC.reachability.max * share * (reached ? 1 : 0));
  const breakdown = { ...report.breakdown, reachability };
  return { ...report, breakdown, score: Object.values(breakdown).reduce((a, b) => a + b, 0) };
}

export function probeFields(report: ProbeReport, now: string): Partial<ListingsTable> {
  return {
    probe_ok: report.ok ? 1 : 0,
    probe_handshake: report.handshake,
    probe_score: report.score,
    probed_at: now,
    probe_target: report.target,
    probe_detail: cleanText(report.detail, 500),
    probe_protocol: report.protocol,
    probe_latency_ms: report.latencyMs,
    probe_report: JSON.stringify({ checks: report.checks, breakdown: report.breakdown }),
    checks_clean: report.checks.every((c) => c.pass) ? 1 : 0,
  };
}

export interface ApplyContext {
  now: Date;
  graceDays: number;
  /** Failed probes in a row, this one included (0 when this one succeeded). */
  failuresInRow: number;
}

export async function applyProbe(db: Executor, id: string, raw: ProbeReport, ctx: ApplyContext): Promise<ListingRow | undefined> {
  const row = await findListingById(db, id);
  if (!row) return undefined;
  const now = iso(ctx.now);
  const report = withReliability(raw, await readHistory(db, id));
  const patch: Partial<ListingsTable> = probeFields(report, now);
  if (report.live) {
    const talk = talkState(row, ctx.now, ctx.graceDays);
    const present = talk.mode === 'present' && talk.active;
    if (row.lane === 'dormant' && !present) {
      patch.lane_reason = row.lane_reason === 'talk_absent' ? 'talk_absent' : 'awaiting_check_in';
    } else {
      patch.lane = 'active';
      patch.lane_reason = null;
      patch.live_since = row.live_since ?? now;
    }
  } else if (row.lane === 'active') {
    // A Live listing survives a few failed re-probes; the reason shows what went wrong.
    patch.lane = ctx.failuresInRow >= DORMANT_AFTER_FAILURES ? 'dormant' : 'active';
    patch.lane_reason = report.reason;
  } else if (row.lane === 'dormant') {
    patch.lane_reason = report.reason;
  } else {
    patch.lane = 'failed';
    patch.lane_reason = report.reason;
  }
  if (report.ok) {
    patch.kind = report.kind;
    patch.capabilities = storedCapabilities(report);
    const name = report.name ? cleanText(report.name, MAX_NAME) : '';
    // Name and description come from the card; the publisher's name only when the card has none.
    patch.name = name || row.submitted_name || new URL(row.url).host;
    patch.description = report.description ? cleanText(report.description, MAX_DESCRIPTION) : '';
    patch.website = httpUrl(report.website);
  }
  await recordProbe(db, id, { at: now, ok: report.live, reason: report.reason, latency_ms: report.latencyMs, score: report.score });
  return updateListing(db, id, patch, now);
}
