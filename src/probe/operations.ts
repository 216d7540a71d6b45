// On-demand probing: probe_clean (a full probe and checks, no listing), the free score
// (GET /api/score, cached briefly) and check_liveness (only the handshake).
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { claimJob, releaseLease, stillHeld } from '../platform/jobs/store.ts';
import { guessKind, normalizeListingUrl, MAX_URL_LENGTH } from '../listings/url.ts';
import { requireListing } from '../listings/operations.ts';
import { findListingBySpelling, updateListing } from '../listings/store.ts';
import { RUBRIC } from './score.ts';
import type { ProbeReport } from './prober.ts';
import type { ProbeCtx } from './runtime.ts';
import { loadProbeState, saveProbeState } from './store.ts';
import { probeFields } from './view.ts';
import { hostBudgetSpent, onDemandProbe } from './on-demand.ts';
import { actsFor } from '../owners/caller.ts';
import { fetchPayer } from '../metering/caller.ts';
import { probeJobId } from './scheduler.ts';

export const rubricUrl = (ctx: Pick<Ctx, 'config'>) => `${ctx.config.publicBaseUrl}/api/score/rubric`;

/** A probe report as probe_clean and the free score answer it (also `rollcall probe --json`). */
export function reportBody(ctx: Pick<Ctx, 'config'>, url: string, report: ProbeReport, probedAt: string) {
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
      // An agent card's signature: whether it holds and why not (null for an MCP server or a card not read).
      card_signature: report.cardSignature?.status ?? null,
      card_signature_detail: report.cardSignature?.detail ?? null,
    },
    name: report.name ?? null,
    capabilities: report.capabilities.map((c) => c.name),
    rubric: rubricUrl(ctx),
  };
}

const urlInput = z.string().min(1).max(MAX_URL_LENGTH).describe('An agent card URL or an MCP server URL.');

/** A full probe of an already normalized URL, within the caller's and the host's budgets. */
async function freshReport(ctx: ProbeCtx, url: string) {
  const report = await onDemandProbe(ctx, { url, share: 'public' }, (signal, admit) => ctx.probe.prober.probe(url, { hint: guessKind(url, false), signal, admit }));
  if (report.reason === 'host_budget') throw hostBudgetSpent(ctx, url);
  return reportBody(ctx, url, report, iso(ctx.clock.now()));
}

const reportOutput = z.looseObject({
  ok: z.literal(true),
  url: z.string(),
  kind: z.enum(['agent', 'mcp']),
  live_ready: z.boolean(),
  score: z.number(),
  checks_clean: z.boolean(),
  checks: z.array(z.looseObject({ id: z.string(), pass: z.boolean(), detail: z.string() })),
});

export const probeClean = defineOperation({
  name: 'probe_clean',
  title: 'Probe a URL now',
  // Lists nothing and changes nothing here; it does send a real handshake to the URL's server.
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  output: reportOutput,
  description:
    'Probe a URL now without listing it: the real handshake (A2A card + JSON-RPC endpoint, or MCP initialize/server/discover + tools/list), every clean check with pass/fail, and the score with its breakdown. Rate limited per caller.',
  input: z.object({ url: urlInput }),
  handler: (ctx: ProbeCtx, input) => freshReport(ctx, normalizeListingUrl(input.url)),
});

/**
 * The score of a URL Rollcall already knows (a listing's, however spelled) from its last check, with
 * its age: nothing is fetched, so nobody's score of a known URL spends its host's budget or anyone's
 * allowance. Undefined when the URL is unknown or was never checked.
 */
async function lastCheck(ctx: ProbeCtx, url: string) {
  const listing = await findListingBySpelling(ctx.db.kysely, url);
  if (!listing || listing.deleted_at !== null) return undefined;
  const state = await loadProbeState(ctx.db.kysely, listing.id);
  if (!state?.probed_at) return undefined;
  const stored = (state.report ? JSON.parse(state.report) : {}) as { checks?: ProbeReport['checks']; breakdown?: ProbeReport['breakdown'] };
  const checks = stored.checks ?? [];
  const capabilities = listing.capabilities ? ((JSON.parse(listing.capabilities) as { names?: string[] }).names ?? []) : [];
  return {
    ok: true as const,
    url: listing.url,
    kind: listing.kind,
    live_ready: state.ok === 1 && checks.every((c) => c.pass),
    score: state.score ?? 0,
    breakdown: stored.breakdown ?? {},
    checks_clean: state.checks_clean === 1,
    checks,
    probe: { ok: state.ok === 1, handshake: state.handshake, reason: state.ok === 1 ? null : listing.lane_reason, detail: state.detail, target: state.target, protocol: state.protocol, latency_ms: state.latency_ms, probed_at: state.probed_at },
    name: listing.name,
    capabilities,
    rubric: rubricUrl(ctx),
    listing_id: listing.id,
    from_last_check: true,
    age_s: Math.max(0, Math.round((ctx.clock.now().getTime() - Date.parse(state.probed_at)) / 1000)),
    cached: false,
  };
}

export const freeScore = defineOperation({
  name: 'score',
  tool: false, // GET /api/score; probe_clean is the tool
  title: 'Free score',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  description:
    'The free score of any card or MCP URL, without listing it. A URL Rollcall knows is answered from its last check (with its age); an unknown one is probed now, paid from the caller\'s own hourly allowance, and served again from a short cache.',
  input: z.object({ url: urlInput.optional() }),
  handler: async (ctx: ProbeCtx, input) => {
    if (input.url === undefined) throw badRequest('invalid_input', `url is required; the rubric is at ${rubricUrl(ctx)}`, 'url');
    const key = normalizeListingUrl(input.url);
    const known = await lastCheck(ctx, key);
    if (known) return known;
    const cache = ctx.probe.onDemand.scores;
    const now = ctx.clock.now().getTime();
    const hit = cache.get(key);
    if (hit && now - hit.at < ctx.config.scoreCacheS * 1000) return { ...hit.body, cached: true };
    // An unknown URL is the caller's own work: its allowance pays, as for a verification.
    await ctx.budgets.takeCallerFetch(await fetchPayer(ctx), 'url');
    const body = await freshReport(ctx, key);
    cache.set(key, { at: now, body });
    if (cache.size > 5000) cache.delete(cache.keys().next().value!);
    return { ...body, cached: false };
  },
});

export const scoreRubric = defineOperation({
  name: 'score_rubric',
  tool: false,
  title: 'Score rubric',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  description: 'How the 0-100 trust score is made.',
  input: z.object({}),
  handler: async () => {
    return { ok: true as const, max: 100, parts: RUBRIC, note: 'Relevance in search is computed apart from this trust score.' };
  },
});

export const checkLiveness = defineOperation({
  name: 'check_liveness',
  title: 'Check liveness now',
  // Records the check on a listing (its probe age), so not read-only; repeating it changes nothing more.
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
  output: z.looseObject({ ok: z.literal(true), alive: z.boolean(), reason: z.string().nullable(), latency_ms: z.number().nullable() }),
  description:
    'Re-run only the protocol handshake now, for a listing_id (its probe.probed_at and age_hours are updated) or for any url. Returns whether it answered, the reason if not, and the latency.',
  input: z.object({
    listing_id: z.string().min(1).max(64).optional().describe('A listing to re-check; its probe age is reset.'),
    url: urlInput.optional(),
  }),
  handler: async (ctx: ProbeCtx, input) => {
    if (input.listing_id === undefined && input.url === undefined) throw badRequest('invalid_input', 'listing_id or url is required', 'listing_id');
    if (input.listing_id === undefined) {
      const url = normalizeListingUrl(input.url!);
      const result = await onDemandProbe(ctx, { url, share: 'public' }, (signal, admit) => ctx.probe.prober.liveness(url, guessKind(url, false), { signal, admit }));
      if (result.reason === 'host_budget') throw hostBudgetSpent(ctx, url);
      return { ok: true as const, url, alive: result.ok, reason: result.reason, detail: result.detail, latency_ms: result.latencyMs, target: result.target };
    }
    const row = await requireListing(ctx, input.listing_id);
    // The owner checking its own listing is owner's work: the share of the budget strangers cannot use.
    const share = (await actsFor(ctx, row.id)) ? 'owner' : 'public';
    return onDemandProbe(ctx, { url: row.url, share }, async (signal, admit) => {
      // A listing's probe fields are written only under its probe job's lease: the check takes the
      // lease for its short run, or, while a scheduled probe holds it, answers without writing.
      const lease = await claimJob(ctx.db, probeJobId(row.id), ctx.clock.now(), ctx.config.jobLeaseS * 1000);
      let released = false;
      try {
        const result = await ctx.probe.prober.liveness(row.url, row.kind, { signal, admit });
        if (result.reason === 'host_budget') throw hostBudgetSpent(ctx, row.url);
        const now = iso(ctx.clock.now());
        const handshake = result.ok ? 'ok' : result.reason === 'auth_required' ? 'auth_required' : 'failed';
        const updated = !lease
          ? undefined
          : await inTransaction(ctx.db.kysely, async (trx) => {
              if (!(await stillHeld(trx, lease))) return undefined;
              await saveProbeState(trx, row.id, { probed_at: now, ok: result.ok ? 1 : 0, handshake, latency_ms: result.latencyMs, detail: result.detail });
              const listing = await updateListing(trx, row.id, {}, now);
              await releaseLease(trx, lease, now);
              released = true;
              return listing;
            });
        const state = await loadProbeState(ctx.db.kysely, row.id);
        const probe = probeFields(updated ?? row, state, ctx.clock.now()).probe;
        return {
          ok: true as const,
          listing_id: row.id,
          alive: result.ok,
          reason: result.reason,
          detail: result.detail,
          latency_ms: result.latencyMs,
          target: result.target,
          probe,
          recorded: Boolean(updated),
          ...(updated ? {} : { note: 'A scheduled probe of this listing was under way (or it is retired), so this check was not recorded on it.' }),
        };
      } finally {
        if (lease && !released) await releaseLease(ctx.db.kysely, lease, iso(ctx.clock.now()));
      }
    });
  },
});
