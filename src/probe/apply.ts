// Writes a probe's outcome onto its listing and moves the lane (DESIGN.md "Listing lifecycle"):
// queued/probing/failed -> active on a clean, successful probe, else failed with the reason.
import type { Db } from '../platform/db/dialect.ts';
import type { ListingsTable } from '../platform/db/schema.ts';
import { updateListing, findListingById, type ListingRow } from '../listings/store.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import type { ProbeReport } from './prober.ts';

const httpUrl = (value: string | undefined): string | null => {
  if (!value) return null;
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && value.length <= 2048 ? u.toString() : null;
  } catch {
    return null;
  }
};

/** What the registry keeps of a probe's capabilities: names for the hash, details for search. */
export function storedCapabilities(report: ProbeReport): string {
  return JSON.stringify({
    names: report.capabilities.map((c) => c.name),
    items: report.capabilities.slice(0, 500).map((c) => ({
      name: cleanText(c.name, 200),
      ...(c.title ? { title: cleanText(c.title, 200) } : {}),
      ...(c.description ? { description: cleanText(c.description, 1000) } : {}),
      ...(c.tags?.length ? { tags: c.tags.slice(0, 20).map((t) => cleanText(t, 60)) } : {}),
      params: c.params.slice(0, 50).map((p) => ({ name: cleanText(p.name, 100), required: p.required, ...(p.description ? { description: cleanText(p.description, 300) } : {}) })),
    })),
  });
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

export async function applyProbe(db: Db, id: string, report: ProbeReport, now: string): Promise<ListingRow | undefined> {
  const row = await findListingById(db.kysely, id);
  if (!row) return undefined;
  const patch: Partial<ListingsTable> = probeFields(report, now);
  if (report.live) {
    patch.lane = 'active';
    patch.lane_reason = null;
    patch.live_since = row.live_since ?? now;
  } else if (row.lane === 'active') {
    // A Live listing keeps its lane on a failed re-probe; the reason shows what went wrong.
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
  return updateListing(db, id, patch, now);
}
