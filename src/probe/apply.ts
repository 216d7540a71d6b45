// Writes a probe's outcome onto its listing and moves the lane (DESIGN.md "Listing lifecycle"):
// queued/probing/failed -> active on a clean, successful probe, else failed with the reason;
// active -> dormant after 3 failed probes in a row; dormant -> active on a successful probe plus
// a recent talk check-in; any lane -> failed (duplicate_of) when the probe reached an endpoint
// another listing already owns.
import type { Executor } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { claimSpellings, lockListingForUpdate, markDuplicate, type ListingPatch, type ListingRow } from '../listings/store.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { talkState } from '../talk/presence.ts';
import { presenceOf, type PresenceRow } from '../talk/view.ts';
import type { ProbeReport } from './prober.ts';
import { appendFeedEvent } from '../feed/store.ts';
import { RUBRIC } from './score.ts';
import { readHistory, recordProbe, saveProbeState, uptimeShare, type ProbeState } from './store.ts';
import { probeDeposit } from '../traces/system.ts';

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
    params: c.params.slice(0, 50).map((p) => ({ name: cleanText(p.name, 100), required: p.required, ...(p.description ? { description: cleanText(p.description, 300) } : {}), ...(p.type ? { type: cleanText(p.type, 20) } : {}) })),
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

export function probeState(report: ProbeReport, now: string): Omit<ProbeState, 'failing_since'> {
  return {
    ok: report.ok ? 1 : 0,
    handshake: report.handshake,
    score: report.score,
    probed_at: now,
    target: report.target,
    detail: cleanText(report.detail, 500),
    protocol: report.protocol,
    latency_ms: report.latencyMs,
    report: JSON.stringify({ checks: report.checks, breakdown: report.breakdown, ...(report.instructions ? { instructions: report.instructions } : {}) }),
    checks_clean: report.checks.every((c) => c.pass) ? 1 : 0,
  };
}

/** The probe's share of a listing's rank (see listings/store.ts updateListing). */
export const probeRankPart = (score: number | null) => ({ probe: score ?? 0 });

export interface ApplyContext {
  now: Date;
  graceDays: number;
  /** Counted failures in a row, this one included (0 when this one succeeded). */
  failuresInRow: number;
  /** Since when the listing has been failing (null once it succeeds). */
  failingSince: string | null;
  /** Failing longer than PROBE_RETIRE_AFTER_H: probing stops until the publisher republishes. */
  retire: boolean;
}

/**
 * Applies a probe to its listing under the listing's row lock: lane, card facts, probe state,
 * history and rank parts, in the caller's transaction, writing the listing once. A URL Rollcall
 * itself refused to reach (blocked_address) says nothing about the listing's uptime or quality, so
 * it is kept out of the history and the score; it still counts toward the lane like any failure.
 */
export async function applyProbe(db: Executor, id: string, raw: ProbeReport, ctx: ApplyContext): Promise<{ row?: ListingRow; duplicateOf?: string }> {
  const locked = await lockListingForUpdate(db, id);
  if (!locked) return {};
  const { row } = locked;
  const now = iso(ctx.now);
  // One server, one listing: the spellings this probe reached become this listing's, unless another
  // listing holds one already (claimed here, in the lease's transaction, so two instances probing
  // two spellings at once cannot both win).
  const duplicateOf = raw.ok ? ((await claimSpellings(db, id, [raw.target, raw.cardUrl ?? raw.target], now)) ?? raw.duplicateOf) : undefined;
  if (duplicateOf) {
    await saveProbeState(db, id, { ...probeState(raw, now), failing_since: null });
    return { row: await markDuplicate(db, id, duplicateOf, now, raw.kind), duplicateOf };
  }
  const refused = raw.reason === 'blocked_address';
  const history = refused ? [] : await readHistory(db, id);
  const report = refused ? raw : withReliability(raw, history);
  const patch: ListingPatch = {};
  if (report.live) {
    // Only a dormant listing waits on its talk check-in; the others need not read it.
    const absent = row.lane === 'dormant' && !presentNow(row, (await presenceOf(db, [id])).get(id), ctx);
    if (row.unlisted_at !== null) {
      // Its owner took it off the public lists: probes go on, it stays off until relisted.
      patch.lane = 'dormant';
      patch.lane_reason = 'unlisted';
    } else if (absent) {
      patch.lane_reason = row.lane_reason === 'talk_absent' ? 'talk_absent' : 'awaiting_check_in';
    } else {
      patch.lane = 'active';
      patch.lane_reason = null;
      patch.live_since = row.live_since ?? now;
      if (row.lane !== 'active') await appendFeedEvent(db, 'listing.live', id, now, { score: report.score });
    }
  } else if (row.lane === 'active') {
    // A Live listing survives a few failed re-probes; the reason shows what went wrong.
    patch.lane = ctx.failuresInRow >= DORMANT_AFTER_FAILURES || ctx.retire ? 'dormant' : 'active';
    patch.lane_reason = report.reason;
  } else if (row.lane === 'dormant') {
    patch.lane_reason = report.reason;
  } else {
    patch.lane = 'failed';
    patch.lane_reason = report.reason;
  }
  if (ctx.retire) patch.lane_reason = 'retired';
  if (report.ok) {
    patch.kind = report.kind;
    patch.capabilities = storedCapabilities(report);
    const name = report.name ? cleanText(report.name, MAX_NAME) : '';
    // Name and description come from the card; the publisher's name only when the card has none.
    patch.name = name || row.submitted_name || new URL(row.url).host;
    patch.description = report.description ? cleanText(report.description, MAX_DESCRIPTION) : '';
    patch.website = httpUrl(report.website);
  }
  if (refused) {
    await saveProbeState(db, id, { probed_at: now, ok: 0, handshake: 'failed', detail: cleanText(report.detail, 500), failing_since: ctx.failingSince });
    return { row: await locked.update(patch, now) };
  }
  await recordProbe(db, id, { at: now, ok: report.live, reason: report.reason, latency_ms: report.latencyMs, score: report.score }, history.length);
  // The trace field hears of it too: a little attraction when Live, a danger mark when failing (once
  // a day each); the attraction's share of the rank is written with the listing below.
  const traceParts = await probeDeposit(db, id, report.live, report.reason, ctx.now);
  await saveProbeState(db, id, { ...probeState(report, now), failing_since: ctx.failingSince });
  return { row: await locked.update(patch, now, { ...traceParts, ...probeRankPart(report.score) }) };
}

function presentNow(row: ListingRow, presence: PresenceRow | undefined, ctx: ApplyContext): boolean {
  const talk = talkState({ live_since: row.live_since, talk_last_at: presence?.last_at ?? null, claimed_at: presence?.claimed_at ?? null }, ctx.now, ctx.graceDays);
  return talk.mode === 'present' && talk.active;
}
