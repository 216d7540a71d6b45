// Writes a probe's outcome onto its listing and moves the lane (DESIGN.md "Listing lifecycle"):
// queued/probing/failed -> active on a clean, successful probe, else failed with the reason;
// active -> dormant after 3 failed probes in a row; dormant -> active on a successful probe plus
// a recent talk check-in; any lane -> failed (duplicate_of) when the probe reached an endpoint
// another listing already owns.
//
// A result costs two batches in its transaction (platform/db/together.ts; one statement each on
// PostgreSQL): `seeProbe` reads everything the result depends on, under the listing's row lock,
// and `applyProbe` writes it all (probe state and history, spellings, trace, listing, feed) with
// the job's own end (its next due time or its removal).
import type { Executor } from '../platform/db/executor.ts';
import { known, together, type Part } from '../platform/db/together.ts';
import { iso } from '../platform/clock.ts';
import { claimSpellingsPart, heldByOther, holdName, lockedListingPart, markDuplicateParts, namesHeldPart, spellingsHeldPart, type ListingPatch, type ListingRow, type LockedListing, type NamesHeld } from '../listings/store.ts';
import { nameKey, type ReservedNames } from '../listings/name-key.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { categoryFromProbe, UNKNOWN_CATEGORY } from '../listings/categories.ts';
import { talkState } from '../talk/presence.ts';
import { presenceOf, type PresenceRow } from '../talk/view.ts';
import type { ProbeReport } from './prober.ts';
import { feedEventPart } from '../feed/store.ts';
import { RUBRIC } from './score.ts';
import { historyPart, probeStatePart, recordProbeParts, saveProbeStatePart, uptimeShare, type HistoryEntry, type ProbeState } from './store.ts';
import { probeDepositParts, probeTraceReads, probeTraceSeen, type ProbeTraceSeen } from '../traces/system.ts';

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

/** The most capabilities a listing keeps (a server with endless tools cannot make its row grow without bound). */
const KEPT_CAPABILITIES = 500;

/** A tool's input schema kept whole up to this many characters of JSON (else without its descriptions, else not at all). */
const KEPT_SCHEMA_CHARS = 4000;
/** Input schemas kept per listing, in the server's order, up to this many characters of JSON together. */
const KEPT_SCHEMAS_CHARS = 100_000;
/** A skill's example requests kept: how many, and how long each. */
const KEPT_EXAMPLES = 3;
const EXAMPLE_CHARS = 300;

/** Words about a schema, not constraints on the value: what is dropped first from a schema too large to keep. */
const PROSE = new Set(['description', 'title', '$comment', 'markdownDescription']);

/** Deeper than this, a schema is kept as it is (its prose too): a walk of remote JSON stays bounded. */
const PROSE_DEPTH = 32;

function withoutProse(v: unknown, depth = 0): unknown {
  if (depth > PROSE_DEPTH) return v;
  if (Array.isArray(v)) return v.map((x) => withoutProse(x, depth + 1));
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !PROSE.has(k)).map(([k, x]) => [k, withoutProse(x, depth + 1)]));
}

/** The input schema as kept (exact, so a call built from it is valid against the server's), or undefined past the limits. */
function keptSchema(schema: Record<string, unknown> | undefined, budget: { left: number }): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  // The form without prose is made only when the exact one does not fit.
  for (const make of [() => schema, () => withoutProse(schema) as Record<string, unknown>]) {
    const form = make();
    const chars = JSON.stringify(form).length;
    if (chars <= KEPT_SCHEMA_CHARS && chars <= budget.left) {
      budget.left -= chars;
      return form;
    }
  }
  return undefined;
}

/** What the registry keeps of a probe's capabilities: details for search and the demo, and their names for the hash. */
export function storedCapabilities(report: ProbeReport): string {
  const budget = { left: KEPT_SCHEMAS_CHARS };
  const items = report.capabilities.slice(0, KEPT_CAPABILITIES).map((c) => {
    const schema = keptSchema(c.inputSchema, budget);
    const examples = (c.examples ?? []).slice(0, KEPT_EXAMPLES).map((e) => cleanText(e, EXAMPLE_CHARS)).filter((e) => e !== '');
    return {
      name: cleanText(c.name, 200),
      ...(c.title ? { title: cleanText(c.title, 200) } : {}),
      ...(c.description ? { description: cleanText(c.description, 1000) } : {}),
      ...(c.tags?.length ? { tags: c.tags.slice(0, 20).map((t) => cleanText(t, 60)) } : {}),
      ...(examples.length ? { examples } : {}),
      ...(c.annotations ? { annotations: { ...c.annotations, ...(c.annotations.title !== undefined ? { title: cleanText(c.annotations.title, 200) } : {}) } } : {}),
      params: c.params.slice(0, 50).map((p) => ({
        name: cleanText(p.name, 100),
        required: p.required,
        ...(p.description ? { description: cleanText(p.description, 300) } : {}),
        ...(p.type ? { type: cleanText(p.type, 20) } : {}),
        // What a value must be (param-schema.ts, already cleaned and capped there): execute_compose checks it before a run.
        ...(p.enum ? { enum: p.enum } : {}),
        ...(p.enum_partial ? { enum_partial: true } : {}),
        ...(p.format ? { format: p.format } : {}),
        ...(p.pattern ? { pattern: p.pattern } : {}),
      })),
      ...(schema ? { input_schema: schema } : {}),
    };
  });
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

/** The tool list's size a stored report holds, if any. */
function storedToolList(report: string | null | undefined): object | undefined {
  try {
    return report ? (JSON.parse(report) as { tool_list?: object }).tool_list : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The probe state to store. A probe that did not reach the server keeps the tool list's size the
 * last one measured, as the listing keeps its tools (`previousReport`: the stored report).
 */
export function probeState(report: ProbeReport, now: string, previousReport?: string | null): Omit<ProbeState, 'failing_since'> {
  const toolList = report.toolList ? { count: Math.min(report.capabilities.length, KEPT_CAPABILITIES), ...report.toolList } : report.ok ? undefined : storedToolList(previousReport);
  return {
    ok: report.ok ? 1 : 0,
    handshake: report.handshake,
    score: report.score,
    probed_at: now,
    target: report.target,
    detail: cleanText(report.detail, 500),
    protocol: report.protocol,
    latency_ms: report.latencyMs,
    report: JSON.stringify({
      checks: report.checks,
      breakdown: report.breakdown,
      ...(report.instructions ? { instructions: report.instructions } : {}),
      ...(toolList ? { tool_list: toolList } : {}),
      ...(report.cardSignature ? { card_signature: report.cardSignature } : {}),
      // Where the card was read and the version the server says it is (ARD entries carry both).
      ...(report.ok && report.cardUrl ? { card_url: report.cardUrl.slice(0, 2048) } : {}),
      ...(report.ok && report.version ? { version: cleanText(report.version, 255) } : {}),
    }),
    checks_clean: report.checks.every((c) => c.pass) ? 1 : 0,
  };
}

/** The probe's share of a listing's rank (see listings/store.ts updateListing). */
export const probeRankPart = (score: number | null) => ({ probe: score ?? 0 });

/** What a probe's result is written from, read in one batch under the listing's row lock. */
export interface ProbeSeen {
  /** The caller's own condition, read in the batch (the job: whether it still holds its lease). */
  held: boolean;
  /** The listing, locked until commit; undefined when it is gone. */
  locked?: LockedListing;
  state?: ProbeState;
  /** Kept history, newest first (none read for a probe Rollcall refused to send). */
  history: HistoryEntry[];
  /** Another listing that owns a spelling this probe reached: this one is its duplicate. */
  duplicateOf?: string;
  /** The spellings the probe reached and who holds them (see claimSpellingsPart). */
  spellings: { urls: string[]; held: Map<string, string> };
  /** Who holds the names the probe found (and which name this listing holds, if claimed). */
  names: NamesHeld;
  trace: ProbeTraceSeen;
}

/** The names a successful probe found: the one the listing would show first, then the others it answers to. */
const reportedNames = (report: ProbeReport): string[] => (report.ok ? [report.name, ...(report.otherNames ?? [])].flatMap((n) => (n ? [cleanText(n, MAX_NAME)] : [])).filter((n) => n !== '') : []);

/** The spellings a probe that reached its server claims for its listing (its endpoint and card). */
const reachedSpellings = (report: ProbeReport): string[] => (report.ok ? [report.target, report.cardUrl ?? report.target] : []);

/**
 * Reads what applying `raw` to listing `id` depends on, in one batch of the caller's transaction
 * (`held`: the caller's own check, sent with it; nothing is written when it is false): the listing
 * under its row lock, its probe state and history, who holds the spellings it reached, and what
 * its trace deposit needs.
 */
export async function seeProbe(trx: Executor, id: string, raw: ProbeReport, now: Date, held: Part<boolean>): Promise<ProbeSeen> {
  const refused = raw.reason === 'blocked_address';
  const urls = reachedSpellings(raw);
  const [traceCount, attraction] = refused ? [known(0), known(undefined)] : probeTraceReads(trx, id, raw.live, now);
  // The listing is locked first, as every transaction that writes a listing and its job does
  // (docs/decisions/lock-order.md); PostgreSQL evaluates the batch's parts in order.
  const [locked, isHeld, state, history, spellings, counted, field, names] = await together(trx, [
    lockedListingPart(trx, id),
    held,
    probeStatePart(trx, id),
    refused ? known<HistoryEntry[]>([]) : historyPart(trx, id),
    spellingsHeldPart(trx, urls),
    traceCount,
    attraction,
    refused ? known<NamesHeld>({ holders: new Map(), own: undefined }) : namesHeldPart(trx, id, [...new Set(reportedNames(raw).map(nameKey))]),
  ] as const);
  const other = heldByOther(spellings, id) ?? (raw.ok ? raw.duplicateOf : undefined);
  return { held: isHeld, locked, state, history, ...(other !== undefined ? { duplicateOf: other } : {}), spellings: { urls, held: spellings }, names, trace: probeTraceSeen(counted, field) };
}

export interface ApplyContext {
  now: Date;
  graceDays: number;
  /** Names no listing may wear (listings/name-key.ts reservedNames). */
  reservedNames: ReservedNames;
  /** Counted failures in a row, this one included (0 when this one succeeded). */
  failuresInRow: number;
  /** Since when the listing has been failing (null once it succeeds). */
  failingSince: string | null;
  /** Failing longer than PROBE_RETIRE_AFTER_H: probing stops until the publisher republishes. */
  retire: boolean;
}

/**
 * Applies a probe to its listing from what seeProbe read: lane, card facts, probe state, history
 * and rank parts, sent in one batch of the caller's transaction together with `also` (the caller's
 * own writes, such as the job's end), writing the listing once. A URL Rollcall itself refused to
 * reach (blocked_address) says nothing about the listing's uptime or quality, so it is kept out of
 * the history and the score; it still counts toward the lane like any failure.
 */
export async function applyProbe(trx: Executor, seen: ProbeSeen, raw: ProbeReport, ctx: ApplyContext, also: Part<unknown>[]): Promise<{ row?: ListingRow; duplicateOf?: string }> {
  const { locked } = seen;
  if (!locked) {
    await together(trx, also);
    return {};
  }
  const { row } = locked;
  const id = row.id;
  const now = iso(ctx.now);
  // One server, one listing: the spellings this probe reached become this listing's, unless another
  // listing holds one already (claimed here, in the lease's transaction, so two instances probing
  // two spellings at once cannot both win).
  if (seen.duplicateOf) {
    const duplicate = markDuplicateParts(trx, locked, seen.duplicateOf, now, raw.kind);
    await together(trx, [saveProbeStatePart(trx, id, { ...probeState(raw, now), failing_since: null }), ...duplicate.parts, ...also]);
    return { row: duplicate.row, duplicateOf: seen.duplicateOf };
  }
  const refused = raw.reason === 'blocked_address';
  const report = refused ? raw : withReliability(raw, seen.history);
  const patch: ListingPatch = {};
  const writes: Part<unknown>[] = [claimSpellingsPart(trx, id, seen.spellings.urls, seen.spellings.held, now)];
  if (report.live) {
    // Only a dormant listing waits on its talk check-in; the others need not read it.
    const absent = row.lane === 'dormant' && !presentNow(row, (await presenceOf(trx, [id])).get(id), ctx);
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
      if (row.lane !== 'active') writes.push(feedEventPart(trx, 'listing.live', id, now, { score: report.score }));
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
    patch.name_withheld = await withheldName(trx, id, row, reportedNames(report), seen.names, ctx, now);
    patch.description = report.description ? cleanText(report.description, MAX_DESCRIPTION) : '';
    patch.website = httpUrl(report.website);
    patch.category_id = categoryFromProbe(report);
  } else if (row.capabilities === null && row.category_id !== UNKNOWN_CATEGORY) {
    // Never reached: nothing was seen to file it by (a row stored before categories came from probes).
    patch.category_id = UNKNOWN_CATEGORY;
  }
  if (refused) {
    const listing = locked.updateParts(patch, now);
    await together(trx, [...writes, saveProbeStatePart(trx, id, { probed_at: now, ok: 0, handshake: 'failed', detail: cleanText(report.detail, 500), failing_since: ctx.failingSince }), ...listing.parts, ...also]);
    return { row: listing.row };
  }
  // The trace field hears of it too: a little attraction when Live, a danger mark when failing (once
  // a day each); the attraction's share of the rank is written with the listing.
  const trace = probeDepositParts(trx, id, report.live, report.reason, ctx.now, seen.trace);
  const listing = locked.updateParts(patch, now, { ...trace.rankParts, ...probeRankPart(report.score) });
  await together(trx, [
    ...writes,
    ...recordProbeParts(trx, id, { at: now, ok: report.live, reason: report.reason, latency_ms: report.latencyMs, score: report.score }, seen.history.length),
    ...trace.parts,
    saveProbeStatePart(trx, id, { ...probeState(report, now, seen.state?.report), failing_since: ctx.failingSince }),
    ...listing.parts,
    ...also,
  ]);
  return { row: listing.row };
}

/**
 * The card's name when this listing may not show it (another listing holds one of the names the probe
 * found, or one is Rollcall's), else null. A claimed listing showing its card's name holds that
 * name: when the card's name changed, the name it holds moves with it (a write only then).
 */
async function withheldName(trx: Executor, id: string, row: ListingRow, names: string[], held: NamesHeld, ctx: ApplyContext, now: string): Promise<string | null> {
  const keys = names.map(nameKey);
  const shown = names[0];
  if (!shown) return null;
  if (names.some(ctx.reservedNames) || keys.some((k) => (held.holders.get(k) ?? id) !== id)) return shown;
  if (held.own === undefined || row.owner_name !== null || held.own === keys[0]) return null;
  return (await holdName(trx, id, keys[0]!, now)) ? null : shown;
}

function presentNow(row: ListingRow, presence: PresenceRow | undefined, ctx: ApplyContext): boolean {
  const talk = talkState({ live_since: row.live_since, talk_last_at: presence?.last_at ?? null, claimed_at: presence?.claimed_at ?? null }, ctx.now, ctx.graceDays);
  return talk.mode === 'present' && talk.active;
}
