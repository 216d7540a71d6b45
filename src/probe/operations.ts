// On-demand probing: probe_clean (a full probe and checks, no listing), the free score
// (GET /api/score, cached briefly) and check_liveness (only the handshake).
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { guessKind, normalizeListingUrl, MAX_URL_LENGTH } from '../listings/url.ts';
import { requireListing, viewContext } from '../listings/operations.ts';
import { updateListing } from '../listings/store.ts';
import { listingView } from '../listings/view.ts';
import { RUBRIC } from './score.ts';
import type { ProbeReport } from './prober.ts';

const takeProbe = (ctx: Ctx) => ctx.onDemand.budget.take(ctx.caller.address, ctx.clock.now().getTime());

export const rubricUrl = (ctx: Ctx) => `${ctx.config.publicBaseUrl}/api/score/rubric`;

function reportBody(ctx: Ctx, url: string, report: ProbeReport, probedAt: string) {
  return {
    ok: true as const,
    url,
    kind: report.kind,
    live_ready: report.live,
    score: report.score,
    breakdown: report.breakdown,
    checks_clean: report.checks.every((c) => c.pass),
    checks: report.checks,
    probe: {
      ok: report.ok,
      handshake: report.handshake,
      reason: report.reason,
      detail: report.detail,
      target: report.target,
      protocol: report.protocol,
      latency_ms: report.latencyMs,
      probed_at: probedAt,
    },
    name: report.name ?? null,
    capabilities: report.capabilities.map((c) => c.name),
    rubric: rubricUrl(ctx),
  };
}

const urlInput = z.string().min(1).max(MAX_URL_LENGTH).describe('An agent card URL or an MCP server URL.');

/** A full probe of an already normalized URL, within the caller's budget. */
async function freshReport(ctx: Ctx, url: string) {
  takeProbe(ctx);
  const report = await ctx.prober.probe(url, { hint: guessKind(url, false) });
  return reportBody(ctx, url, report, iso(ctx.clock.now()));
}

export const probeClean = defineOperation({
  name: 'probe_clean',
  description:
    'Probe a URL now without listing it: the real handshake (A2A card + JSON-RPC endpoint, or MCP initialize/server/discover + tools/list), every clean check with pass/fail, and the score with its breakdown. Rate limited per caller.',
  input: z.object({ url: urlInput }),
  handler: (ctx, input) => freshReport(ctx, normalizeListingUrl(input.url)),
});


export const freeScore = defineOperation({
  name: 'score',
  tool: false, // GET /api/score; probe_clean is the tool
  description: 'The free score of any card or MCP URL, without listing it; the same answer is served from a short cache.',
  input: z.object({ url: urlInput.optional() }),
  async handler(ctx, input) {
    if (input.url === undefined) throw badRequest('invalid_input', `url is required; the rubric is at ${rubricUrl(ctx)}`, 'url');
    const key = normalizeListingUrl(input.url);
    const cache = ctx.onDemand.scores;
    const now = ctx.clock.now().getTime();
    const hit = cache.get(key);
    if (hit && now - hit.at < ctx.config.scoreCacheS * 1000) return { ...hit.body, cached: true };
    const body = await freshReport(ctx, key);
    cache.set(key, { at: now, body });
    if (cache.size > 5000) cache.delete(cache.keys().next().value!);
    return { ...body, cached: false };
  },
});

export const scoreRubric = defineOperation({
  name: 'score_rubric',
  tool: false,
  description: 'How the 0-100 trust score is made.',
  input: z.object({}),
  async handler() {
    return { ok: true as const, max: 100, parts: RUBRIC, note: 'Relevance in search is computed apart from this trust score.' };
  },
});

export const checkLiveness = defineOperation({
  name: 'check_liveness',
  description:
    'Re-run only the protocol handshake now, for a listing_id (its probe.probed_at and age_hours are updated) or for any url. Returns whether it answered, the reason if not, and the latency.',
  input: z.object({
    listing_id: z.string().min(1).max(64).optional().describe('A listing to re-check; its probe age is reset.'),
    url: urlInput.optional(),
  }),
  async handler(ctx, input) {
    if (input.listing_id === undefined && input.url === undefined) throw badRequest('invalid_input', 'listing_id or url is required', 'listing_id');
    takeProbe(ctx);
    if (input.listing_id !== undefined) {
      const row = await requireListing(ctx, input.listing_id);
      const result = await ctx.prober.liveness(row.url, row.kind);
      const now = iso(ctx.clock.now());
      const updated = await updateListing(
        ctx.db.kysely,
        row.id,
        { probed_at: now, probe_ok: result.ok ? 1 : 0, probe_handshake: result.ok ? 'ok' : result.reason === 'auth_required' ? 'auth_required' : 'failed', probe_latency_ms: result.latencyMs, probe_detail: result.detail },
        now,
      );
      return { ok: true as const, listing_id: row.id, alive: result.ok, reason: result.reason, detail: result.detail, latency_ms: result.latencyMs, target: result.target, probe: listingView(updated!, viewContext(ctx)).probe };
    }
    const url = normalizeListingUrl(input.url!);
    const result = await ctx.prober.liveness(url, guessKind(url, false));
    return { ok: true as const, url, alive: result.ok, reason: result.reason, detail: result.detail, latency_ms: result.latencyMs, target: result.target };
  },
});
