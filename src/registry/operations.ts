// The registry's composed operations: each changes or reads several domains and answers with
// the listing view. publish (list_yourself) and status (check_status); the talk check-in is in talk.ts.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { AppError, badRequest, notFound } from '../platform/errors.ts';
import { DAY_MS, iso } from '../platform/clock.ts';
import { inTransaction, type Executor } from '../platform/db/executor.ts';
import { together, type Part } from '../platform/db/together.ts';
import { guessKind, normalizeListingUrl, MAX_URL_LENGTH } from '../listings/url.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import { findListingsByName, insertListingIfNew, lockListing, updateListing, type ListingRow } from '../listings/store.ts';
import { callerOwner } from '../owners/caller.ts';
import { hostKey, ownerDomain } from '../platform/net/host-key.ts';
import { requireListing, statusUrl } from '../listings/operations.ts';
import { funnelRankPart, NO_FUNNEL, setFunnelFlags } from '../funnel/store.ts';
import { dropHoldings } from '../funnel/founding.ts';
import { clearListingField } from '../traces/store.ts';
import { historySummary, loadProbeState, readHistory } from '../probe/store.ts';
import { requestReprobe, scheduleProbe, scheduleProbePart, type Reprobe } from '../probe/scheduler.ts';
import type { ProbeCtx } from '../probe/runtime.ts';
import { appendFeedEvent, feedEventPart } from '../feed/store.ts';
import { AUTO, systemDepositParts } from '../traces/system.ts';
import { listingView, listingViewOutput, newListingView, statusView, viewContext } from './listing-view.ts';
import { listingBadges } from './badges.ts';

const urlField = z.string().max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`);

export const publishInput = z.object({
  url: urlField.optional().describe('The agent card URL or the MCP server (or server card) URL.'),
  agent_card_url: urlField.optional().describe('An A2A agent card URL; wins over `url`.'),
  contact_email: z.email().max(254).optional().describe('Kept private; never shown publicly.'),
  source: z.string().max(MAX_NAME).optional().describe('Where you heard of Rollcall, or which tool publishes.'),
  name: z.string().max(MAX_NAME).optional().describe('Used only when the card has no name.'),
});

export interface NewListingFields {
  url: string;
  kind: 'agent' | 'mcp';
  submittedName: string | null;
  contactEmail: string | null;
  source: string | null;
}

/** After a delete, the URL is held this long: only a new claim of it lists it again. */
export const DELETED_HOLD_MS = 30 * DAY_MS;

const recentlyDeleted = (row: ListingRow, until: string) =>
  new AppError(409, 'recently_deleted', `${row.url} was deleted by its owner; until ${until} only a new claim of it (claim_listing {url}) lists it again`, 'url', { listing_id: row.id, held_until: until });

/**
 * Lists a normalized URL unless a listing has it, in `trx`: the listing, its public event, its
 * joined trace and its first probe job are written together (a listing is never left without a
 * probe), with `spend` when given (what listing it costs the caller: publish's host budget, whose
 * refusal rolls it all back). A deleted listing's URL is listed again under the same id after
 * DELETED_HOLD_MS, or at once for a claim; before that it is refused (409 recently_deleted). Within
 * the hold, a claim by the domain's proven owner (`restore`: a dns_txt or well_known proof) gets
 * back its seat, badge and trails; any other relisting starts without them. The caller wakes the
 * scheduler after commit when `reprobe.queued` (publish, a claim).
 */
/** What a deleted listing held that a relisting other than its proven owner's restoring claim does not get back. */
async function startAnew(trx: Executor, id: string, now: Date): Promise<void> {
  await dropHoldings(trx, id);
  await setFunnelFlags(trx, id, NO_FUNNEL, iso(now));
  await clearListingField(trx, id, now);
}

export async function listIfNew(
  ctx: ProbeCtx,
  trx: Executor,
  fields: NewListingFields,
  clockNow: Date,
  options: { claim?: boolean; restore?: boolean; spend?: () => Promise<Part<void>> } = {},
): Promise<{ row: ListingRow; created: boolean; reprobe: Reprobe }> {
  const now = iso(clockNow);
  const due = iso(new Date(clockNow.getTime() + ctx.config.probeDelayS * 1000));
  const result = await insertListingIfNew(trx, { ...fields, name: fields.submittedName ?? new URL(fields.url).host, rankParts: funnelRankPart(NO_FUNNEL) }, now, async (listing) => [
    ...(options.spend ? [await options.spend()] : []),
    feedEventPart(trx, 'listing.listed', listing.id, now),
    ...systemDepositParts(trx, { kind: 'listing', listing_id: listing.id }, 'joined', AUTO.joined, clockNow, 'listed'),
    scheduleProbePart(trx, listing, due, now, { resetAttempts: true }),
  ]);
  if (!result.created && result.row.deleted_at !== null) {
    const until = iso(new Date(Date.parse(result.row.deleted_at) + DELETED_HOLD_MS));
    if (!options.claim && now < until) throw recentlyDeleted(result.row, until);
    if (options.spend) await together(trx, [await options.spend()]);
    if (!(options.claim && options.restore && now < until)) await startAnew(trx, result.row.id, clockNow);
    const revived = (await updateListing(trx, result.row.id, { deleted_at: null, lane: 'queued', lane_reason: null, name: fields.submittedName ?? new URL(result.row.url).host, submitted_name: fields.submittedName, contact_email: fields.contactEmail, source: fields.source }, now))!;
    await appendFeedEvent(trx, 'listing.listed', revived.id, now);
    await scheduleProbe(trx, revived, due, now, { resetAttempts: true });
    return { row: revived, created: true, reprobe: { queued: true, next_probe_at: due } };
  }
  if (!result.created) return { ...result, reprobe: { queued: false, next_probe_at: null } };
  return { ...result, reprobe: { queued: true, next_probe_at: due } };
}

/**
 * A new listing of a host spends the host's PUBLISH_HOST_PER_DAY (a 429 host_budget past it), unless
 * the caller owns that host's domain (its owner token): every path or query string is a listing of
 * its own, and each is probed, so strangers cannot aim a flood of probes at one host. Spent in the
 * transaction that writes the listing (so a URL already listed spends nothing, and a publish that
 * fails spends nothing either): what to send with it, or undefined when nothing is spent. Asked
 * before that transaction: the owner token is read on a connection of its own.
 */
async function publishBudget(ctx: ProbeCtx, url: string, field: string): Promise<(() => Promise<Part<void>>) | undefined> {
  if (ctx.budgets.limits.publishesPerDay === 0) return undefined;
  const owner = await callerOwner(ctx);
  if (owner && owner.owner_domain === ownerDomain(url)) return undefined;
  return () => ctx.budgets.publishPart(hostKey(url), field);
}

export const publish = defineOperation({
  name: 'list_yourself',
  title: 'List yourself',
  // Publishing one URL again changes nothing but a re-probe; the probe reaches the publisher's server.
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
  output: z.looseObject({
    ok: z.literal(true),
    outcome: z.enum(['listed', 'queued']),
    already_listed: z.boolean(),
    status_url: z.string(),
    reprobe: z.looseObject({ queued: z.boolean(), next_probe_at: z.string().nullable() }),
    ...listingViewOutput,
  }),
  description:
    'List an A2A agent card or an MCP server in the Rollcall registry (same as POST /api/publish): creates the listing, or re-probes a URL already listed; returns its listing_id, outcome (queued: a re-probe of a listed URL; else listed), lane and the next step.',
  input: publishInput,
  handler: async (ctx: ProbeCtx, input) => {
    const given = input.agent_card_url ?? input.url;
    const field = input.agent_card_url !== undefined ? 'agent_card_url' : 'url';
    if (given === undefined) throw badRequest('invalid_input', 'url or agent_card_url is required', 'url');
    const url = normalizeListingUrl(given, field);
    // A URL Rollcall would refuse to reach is refused here, not listed to fail forever.
    const refused = ctx.probe.prober.refusal(url);
    if (refused) {
      throw badRequest('url_not_allowed', `${field}: ${refused}. Rollcall probes public addresses on ports 80 and 443 only (a Rollcall you run yourself can allow local servers with PROBE_ALLOW_PRIVATE=1).`, field);
    }
    const clockNow = ctx.clock.now();
    const now = iso(clockNow);
    const submittedName = input.name ? cleanText(input.name, MAX_NAME) || null : null;
    const spend = await publishBudget(ctx, url, field);
    // The listing and its probe job are written together: a listing is never left without one.
    const { row, created, reprobe } = await inTransaction(ctx.db.kysely, async (trx) => {
      const fields = { url, kind: guessKind(url, input.agent_card_url !== undefined), submittedName, contactEmail: input.contact_email ?? null, source: input.source ? cleanText(input.source, MAX_NAME) : null };
      const result = await listIfNew(ctx, trx, fields, clockNow, spend ? { spend } : {});
      if (result.created) return result;
      // Republishing re-probes at most once per REPUBLISH_MIN_INTERVAL_S and spends the caller's
      // probe budget. A failed listing's backoff restarts (the publisher says it is fixed); a Live
      // or dormant one keeps its count of failures in a row, so republishing cannot hold off dormancy.
      const locked = (await lockListing(trx, result.row.id)) ?? result.row;
      const lastProbedAt = (await loadProbeState(trx, locked.id))?.probed_at ?? null;
      const resetAttempts = locked.lane !== 'active' && locked.lane !== 'dormant';
      const reprobe = await requestReprobe(trx, locked, clockNow, ctx.config.republishMinIntervalS, {
        resetAttempts,
        lastProbedAt,
        beforeScheduling: () => ctx.probe.onDemand.budget.take(ctx.caller.address, clockNow.getTime()),
      });
      // A failed listing about to be probed again shows what the caller should expect: queued.
      const shown = reprobe.queued && locked.lane === 'failed' ? ((await updateListing(trx, locked.id, { lane: 'queued', lane_reason: null }, now)) ?? locked) : locked;
      return { row: shown, created: false, reprobe };
    });
    if (reprobe.queued && ctx.config.probeDelayS === 0) ctx.probe.scheduler.wake(row.id); // otherwise a tick picks it up when due
    return {
      ok: true as const,
      // `queued`: the URL was already listed and this call queued its re-probe; `listed`: a new
      // listing, or a listed URL whose re-probe is not due yet (`reprobe.next_probe_at` says when).
      outcome: !created && reprobe.queued ? ('queued' as const) : ('listed' as const),
      already_listed: !created,
      status_url: statusUrl(ctx, row.id),
      reprobe,
      ...statusView(created ? newListingView(row, viewContext(ctx)) : await listingView(ctx.db.kysely, row, viewContext(ctx))),
    };
  },
});

export const statusInput = z.object({
  id: z.string().min(1).max(64).optional().describe('The listing_id returned by publish.'),
  name: z.string().min(1).max(MAX_NAME).optional().describe('The listing name (exact, case-insensitive); if several have it, 409 with candidates.'),
});

export const checkStatus = defineOperation({
  name: 'check_status',
  title: 'Check listing status',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  output: z.looseObject({ ok: z.literal(true), status_url: z.string(), ...listingViewOutput, history: z.looseObject({ probes: z.number() }) }),
  aliases: ['get_listing_status'],
  // Agents poll it until lane is active: a poll of an unchanged listing is answered from the doors' caches.
  cacheMs: (config) => config.statusCacheMs,
  description:
    'Status of a listing by id or name (same as GET /api/listings/status): lane (queued, probing, active, failed, dormant) with the reason, last probe, talk presence, badge, the next call and badge embeds. Poll it until lane is active.',
  input: statusInput,
  async handler(ctx, input) {
    if (input.id === undefined && input.name === undefined) throw badRequest('invalid_input', 'id or name is required', 'id');
    const row = input.id !== undefined ? await requireListing(ctx, input.id, 'id') : await listingNamed(ctx, input.name!);
    const history = historySummary(await readHistory(ctx.db.kysely, row.id), ctx.clock.now());
    const badges = listingBadges(ctx.config.publicBaseUrl, row);
    return { ok: true as const, status_url: statusUrl(ctx, row.id), ...statusView(await listingView(ctx.db.kysely, row, viewContext(ctx))), history, badges };
  },
});

const NAME_CANDIDATES = 20;

/**
 * Names are not unique (they come from cards): a name answers only when exactly one listing has
 * it. Several are a 409 with the candidates, so a caller never gets another publisher's listing;
 * the id is the unique key.
 */
async function listingNamed(ctx: Ctx, name: string) {
  const rows = await findListingsByName(ctx.db.kysely, name, NAME_CANDIDATES + 1);
  if (rows.length === 0) throw notFound(`no listing named ${JSON.stringify(name)}`, 'name');
  if (rows.length === 1) return rows[0]!;
  const candidates = rows.slice(0, NAME_CANDIDATES).map((r) => ({ id: r.id, url: r.url, lane: r.lane }));
  throw new AppError(409, 'ambiguous_name', `${rows.length > NAME_CANDIDATES ? `more than ${NAME_CANDIDATES}` : rows.length} listings are named ${JSON.stringify(name)}; ask by id`, 'name', { candidates });
}
