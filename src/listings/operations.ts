// Listing operations: publish (list_yourself), status (check_status) and the active list.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { guessKind, normalizeListingUrl, MAX_URL_LENGTH } from './url.ts';
import { cleanText, MAX_NAME } from './text.ts';
import { findListingById, findListingByName, insertListingIfNew, type ListingRow } from './store.ts';
import { listingView } from './view.ts';
import { inTransaction } from '../platform/db/changes.ts';
import { scheduleProbe } from '../jobs/store.ts';
import { historySummary, readHistory } from '../probe/history.ts';

export const viewContext = (ctx: Ctx) => ({ base: ctx.config.publicBaseUrl, now: ctx.clock.now(), graceDays: ctx.config.talkGraceDays });

export const statusUrl = (ctx: Ctx, id: string) => `${ctx.config.publicBaseUrl}/api/listings/status?id=${encodeURIComponent(id)}`;

const urlField = z.string().max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`);

export const publishInput = z.object({
  url: urlField.optional().describe('The agent card URL or the MCP server (or server card) URL.'),
  agent_card_url: urlField.optional().describe('An A2A agent card URL; wins over `url` when both are given.'),
  contact_email: z.email().max(254).optional().describe('Kept private; never shown publicly.'),
  source: z.string().max(MAX_NAME).optional().describe('Where you heard of Rollcall, or which tool publishes.'),
  name: z.string().max(MAX_NAME).optional().describe('Used only when the card has no name.'),
});

export const publish = defineOperation({
  name: 'list_yourself',
  description:
    'List an A2A agent card or an MCP server in the Rollcall registry (same as POST /api/publish). Creates the listing, or re-probes it when the normalized URL is already listed, and returns its listing_id, outcome (listed or queued), lane and what to do next.',
  input: publishInput,
  async handler(ctx, input) {
    const given = input.agent_card_url ?? input.url;
    const field = input.agent_card_url !== undefined ? 'agent_card_url' : 'url';
    if (given === undefined) throw badRequest('invalid_input', 'url or agent_card_url is required', 'url');
    const url = normalizeListingUrl(given, field);
    const clockNow = ctx.clock.now();
    const now = iso(clockNow);
    const submittedName = input.name ? cleanText(input.name, MAX_NAME) || null : null;
    // The listing and its probe job are written together: a listing is never left without one.
    const { row, created } = await inTransaction(ctx.db.kysely, async (trx) => {
      const result = await insertListingIfNew(
        trx,
        {
          url,
          kind: guessKind(url, input.agent_card_url !== undefined),
          name: submittedName ?? new URL(url).host,
          submittedName,
          contactEmail: input.contact_email ?? null,
          source: input.source ? cleanText(input.source, MAX_NAME) : null,
        },
        now,
      );
      // Republishing re-probes now (after PROBE_DELAY_S). A failed listing's backoff restarts (the
      // publisher says it is fixed); a Live or dormant one keeps its count of failures in a row, so
      // republishing cannot hold off dormancy.
      const due = iso(new Date(clockNow.getTime() + ctx.config.probeDelayS * 1000));
      const resetAttempts = result.row.lane !== 'active' && result.row.lane !== 'dormant';
      await scheduleProbe(trx, result.row.id, due, now, { resetAttempts });
      return result;
    });
    if (ctx.config.probeDelayS === 0) ctx.probes.wake(row.id); // otherwise a tick picks it up when due
    return {
      ok: true as const,
      // `listed`: a new listing; `queued`: the URL was already listed and a re-probe is queued.
      outcome: created ? ('listed' as const) : ('queued' as const),
      status_url: statusUrl(ctx, row.id),
      ...listingView(row, viewContext(ctx)),
    };
  },
});

export const statusInput = z.object({
  id: z.string().min(1).max(64).optional().describe('The listing_id returned by publish.'),
  name: z.string().min(1).max(MAX_NAME).optional().describe('The listing name (case-insensitive, exact).'),
});

export async function requireListing(ctx: Ctx, id: string, field = 'listing_id'): Promise<ListingRow> {
  const row = await findListingById(ctx.db.kysely, id);
  if (!row) throw notFound(`no listing with ${field} ${JSON.stringify(id)}`, field);
  return row;
}

export const checkStatus = defineOperation({
  name: 'check_status',
  aliases: ['get_listing_status'],
  description:
    'Status of a listing by id or name (same as GET /api/listings/status): lane (queued, probing, active, failed, dormant) with the reason, last probe, talk presence, badge and the suggested next call. Poll it until lane is active.',
  input: statusInput,
  async handler(ctx, input) {
    if (input.id === undefined && input.name === undefined) throw badRequest('invalid_input', 'id or name is required', 'id');
    const row = input.id !== undefined ? await requireListing(ctx, input.id, 'id') : await findListingByName(ctx.db.kysely, input.name!);
    if (!row) throw notFound(`no listing named ${JSON.stringify(input.name)}`, 'name');
    const history = historySummary(await readHistory(ctx.db.kysely, row.id), ctx.clock.now());
    return { ok: true as const, status_url: statusUrl(ctx, row.id), ...listingView(row, viewContext(ctx)), history };
  },
});
