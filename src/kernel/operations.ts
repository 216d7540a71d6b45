// improve_kernel and run_loop_tick (SPEC.md 1.5, 4.2; TOOLS.md "Value tools"): metered value tools
// over the pure builder (build.ts) and loop (loop.ts). improve_kernel builds a kernel from goals, the
// listing the caller acts for (its owner token), the caller's requests for change (its critical
// feedback; same-call feedback is recorded and applied) and the most common themes of others'
// feedback, each rule citing the feedback ids that brought it; keeps what loop ticks learned on the
// caller's earlier versions (carry.ts), and stores it as the caller's next version. run_loop_tick is
// in tick.ts.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import type { Executor } from '../platform/db/executor.ts';
import { badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { nextStep } from '../platform/next-step.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { requireListing } from '../listings/operations.ts';
import { capabilityNames } from '../listings/capabilities.ts';
import { findListingById, type ListingRow } from '../listings/store.ts';
import { metered, meteredArgs } from '../metering/run.ts';
import { meterView } from '../metering/meter.ts';
import { usageOfDay } from '../metering/store.ts';
import { utcDay } from '../metering/day.ts';
import { bodyField, feedbackModeField, ratingField, realBody, recordFeedback, structuredNotOpen, type Recorded } from '../feedback/operations.ts';
import { commonThemes, recentFeedbackOf, recentThemeItems, type FeedbackItem } from '../feedback/store.ts';
import { themeLabel, type ThemeId } from '../feedback/themes.ts';
import { artifactView, buildKernel, EVIDENCE_CITED, withThemes, type CardData, type KernelArtifact, type KernelSpec } from './build.ts';
import { THEME_PARTS } from './parts.ts';
import { goalsField, parseGoals } from './goals.ts';
import { carryLearned, keptAnything, keptReason, type LoopKept } from './carry.ts';
import { latestVersion, lockHead, saveVersion } from './store.ts';
import { claimsOf, detailField, meterOutput, nextStepOutput } from './tool-parts.ts';

export { runLoopTick } from './tick.ts';

/** The caller's own feedback read into a new kernel (newest first). */
export const OWN_HISTORY = 20;
/** Others' themes listed as community_deltas, and how many of them a kernel applies. */
export const COMMUNITY_LISTED = 5;
export const COMMUNITY_APPLIED = 2;
/** A community theme is applied only when at least this many of others' items name it. */
export const COMMUNITY_MIN_COUNT = 2;
/** Themes of the caller's own requests a kernel applies at most. */
export const OWN_APPLIED = 3;
/** A rating at or below this asks for change: its themes may add rules (praise that names a theme adds none). */
export const REQUEST_RATING = 3;
/** Characters of a feedback text an answer's evidence details show. */
const EVIDENCE_TEXT = 160;

export const cardOf = (row: ListingRow): CardData => ({
  listing_id: row.id,
  kind: row.kind,
  name: cleanText(row.name, MAX_NAME),
  description: cleanText(row.description, MAX_DESCRIPTION),
  capabilities: (capabilityNames(row.capabilities) ?? []).map((c) => cleanText(c, 80)).filter((c) => c !== '').slice(0, 50),
});

/**
 * The themes a caller's own feedback asks for most (at most OWN_APPLIED: more rules than a short
 * prompt holds would only be cut), each with the ids of the critical items naming it, newest
 * first; ties go to the theme asked for most recently.
 */
export function requestedThemes(own: readonly FeedbackItem[]): Map<ThemeId, string[]> {
  const named = new Map<ThemeId, string[]>();
  for (const f of own) {
    if (f.rating > REQUEST_RATING) continue;
    for (const theme of f.themes) named.set(theme, [...(named.get(theme) ?? []), f.id]);
  }
  return new Map([...named].sort((a, b) => b[1].length - a[1].length).slice(0, OWN_APPLIED));
}

/**
 * The themes others ask for most (their requests for change: praise that names a theme is no
 * request), most common first: improve_kernel's community_deltas, and what the read surfaces say
 * new kernels apply (the first COMMUNITY_APPLIED named by at least COMMUNITY_MIN_COUNT items).
 */
export const communityRequests = (ex: Executor, excludeSubject: string | undefined, limit: number) => commonThemes(ex, excludeSubject, limit, REQUEST_RATING);

export const appliedOf = <T extends { theme: ThemeId; count: number }>(community: readonly T[]): T[] => community.filter((c) => c.count >= COMMUNITY_MIN_COUNT).slice(0, COMMUNITY_APPLIED);

/** Others' requested themes (community_deltas) and the ones applied, each applied one (all with detail) with the ids of the items naming it. */
export async function communityThemes(ex: Executor, subjectKey: string, detail: boolean) {
  const community = await communityRequests(ex, subjectKey, COMMUNITY_LISTED);
  const applied = appliedOf(community).map((c) => c.theme);
  const evidence = await recentThemeItems(ex, detail ? community.map((c) => c.theme) : applied, subjectKey, EVIDENCE_CITED, REQUEST_RATING);
  return { community, applied, evidence };
}

const improveInput = z.object({
  agent_name: z.string().min(1, 'is required').max(MAX_NAME).describe('Your agent\'s name (a label; without an owner token, whose allowance this spends).'),
  goals: goalsField,
  listing_id: z.string().max(64).optional().describe('Your listing (with its owner token): the role names it.'),
  audience: z.enum(['agent', 'mcp']).optional().describe('Who runs the kernel: an agent or an MCP server (default: the listing\'s kind, else agent).'),
  mode: feedbackModeField,
  rating: ratingField.optional().describe('Same-call feedback: your rating 1-5 of your kernel (with feedback or body).'),
  feedback: bodyField.optional().describe('Same-call feedback: one real sentence, recorded as leave_feedback records it and applied now.'),
  body: bodyField.optional().describe('Same as feedback.'),
  detail: detailField,
  ...meteredArgs,
});

export const improveKernel = defineOperation({
  name: 'improve_kernel',
  title: 'Improve kernel',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  description:
    'Build your agent\'s kernel (role, objectives, rules, output contract, eval checks, short system prompt) from its goals and store a new version; rating + feedback apply now. Metered: 3 free a day, refilled by feedback.',
  input: improveInput,
  output: z.looseObject({
    ok: z.literal(true),
    kernel_id: z.string(),
    version: z.number(),
    system_prompt_short: z.string().max(600),
    chars: z.number(),
    cut: z.array(z.looseObject({ kind: z.string() })),
    artifact: z.looseObject({ role: z.looseObject({ text: z.string() }), objectives: z.array(z.looseObject({ id: z.string() })), constraints: z.array(z.looseObject({ id: z.string() })), eval_checks: z.array(z.looseObject({ id: z.string() })) }),
    community_deltas: z.array(z.looseObject({ theme: z.string(), count: z.number(), applied: z.boolean() })),
    loop_kept: z.looseObject({ from_version: z.number() }).optional(),
    your_feedback_applied: z.looseObject({ feedback_id: z.string(), changes: z.array(z.string()) }).optional(),
    ship_id: z.string().optional(),
    meter: meterOutput,
    next_step: nextStepOutput,
  }),
  handler: async (ctx: Ctx, input) => {
    if (input.mode === 'structured') throw structuredNotOpen('mode');
    const agentName = cleanText(input.agent_name, MAX_NAME);
    if (agentName === '') throw badRequest('invalid_input', 'agent_name: is empty', 'agent_name');
    const goals = parseGoals(input.goals);
    if (input.feedback !== undefined && input.body !== undefined && input.feedback !== input.body) throw badRequest('invalid_input', 'feedback and body are the same field: give one', 'body');
    const text = input.feedback ?? input.body;
    const textField = input.feedback !== undefined ? 'feedback' : 'body';
    if (text !== undefined && input.rating === undefined) throw badRequest('invalid_input', 'rating: same-call feedback needs a rating 1-5 with its sentence', 'rating');
    if (text === undefined && input.rating !== undefined) throw badRequest('invalid_input', 'feedback: a rating needs one real sentence with it (feedback or body)', 'feedback');
    if (text !== undefined) realBody(text, textField); // junk is refused before anything is spent
    const named = input.listing_id !== undefined ? await requireListing(ctx, input.listing_id) : undefined;
    const detail = input.detail === true;
    const now = ctx.clock.now();

    const run = await metered(ctx, { listing_id: input.listing_id, agent_name: input.agent_name, payment_proof: input.payment_proof }, 'improve_kernel', async (trx, subject) => {
      // The role names a listing only when the call acts for it (its owner token); a stranger naming one acts as itself.
      const acting = subject.kind === 'listing' ? (named?.id === subject.listing_id ? named : await findListingById(trx, subject.listing_id!)) : undefined;
      const card = acting ? cardOf(acting) : null;
      const audience = input.audience ?? card?.kind ?? 'agent';
      let recorded: Recorded | undefined;
      if (text !== undefined && input.rating !== undefined) {
        recorded = await recordFeedback(trx, subject, { rating: input.rating, body: text, agent_name: agentName, listing_id: input.listing_id, audience, surface: 'improve_kernel', sku: 'kernel', source: 'improve_kernel' }, now);
      }
      const own = await recentFeedbackOf(trx, subject.key, OWN_HISTORY);
      const requested = requestedThemes(own);
      const { community, applied, evidence: communityEvidence } = await communityThemes(trx, subject.key, detail);
      let themes = withThemes([], requested, 'your_feedback');
      themes = withThemes(themes, new Map(applied.map((t) => [t, communityEvidence.get(t) ?? []])), 'community');
      const fresh: KernelSpec = {
        agent_name: agentName,
        audience,
        goals,
        card,
        themes,
        notes: recorded ? [{ feedback_id: recorded.item.id, rating: recorded.item.rating, body: recorded.item.body }] : [],
        strength: {},
      };
      // What loop ticks learned on the caller's latest version stays (read under the head's lock, so a tick storing now is not lost).
      await lockHead(trx, subject.key);
      const previous = await latestVersion(trx, subject.key);
      const carried = previous ? carryLearned(previous, fresh) : undefined;
      const kept: LoopKept | undefined = carried && keptAnything(carried.kept) ? carried.kept : undefined;
      const spec = carried?.spec ?? fresh;
      const artifact = buildKernel(spec);
      const reasonParts = [`built from ${goals.length} goal${goals.length === 1 ? '' : 's'}`];
      if (card) reasonParts.push(`for the listing ${card.listing_id}`);
      // Themes by label: each rule cites its evidence ids itself.
      const bySource = (source: string) => themes.filter((t) => t.source === source).map((t) => themeLabel(t.theme));
      if (bySource('your_feedback').length) reasonParts.push(`your requests for change (${bySource('your_feedback').join(', ')})`);
      if (bySource('community').length) reasonParts.push(`community requests (${bySource('community').join(', ')})`);
      if (kept) reasonParts.push(keptReason(kept));
      const saved = await saveVersion(trx, { subject: subject.key, kind: 'improve', listing_id: input.listing_id ?? subject.listing_id ?? null, agent_name: agentName, spec, artifact, reason: reasonParts.join(', '), diff: null, created_at: iso(now) });
      // The refill of same-call feedback lands after the charge: the meter shows the state after both.
      const usage = recorded?.refill.granted ? (await usageOfDay(trx, subject.allowance, utcDay(now))).find((r) => r.event_id === 'improve_kernel') : undefined;
      return { saved, artifact, recorded, own, community, applied, communityEvidence, kept, meter: usage ? meterView(subject, 'improve_kernel', usage, now) : undefined };
    });

    const { saved, artifact, recorded, own, community, applied, communityEvidence, kept } = run.result;
    const requests = own.filter((f) => f.rating <= REQUEST_RATING);
    return {
      ok: true as const,
      kernel_id: saved.id,
      version: saved.version,
      system_prompt_short: artifact.system_prompt_short,
      chars: artifact.chars,
      cut: artifact.cut,
      artifact: artifactView(artifact),
      reason: saved.reason,
      community_deltas: community.map((c) => ({
        theme: c.theme,
        count: c.count,
        applied: applied.includes(c.theme),
        ...(detail ? { label: themeLabel(c.theme), change: themeChange(c.theme), evidence: communityEvidence.get(c.theme) ?? [] } : {}),
      })),
      // What was read: counts; with detail, the items themselves.
      evidence: {
        feedback: own.length,
        requests: requests.length,
        ...(detail ? { items: own.map((f) => ({ id: f.id, rating: f.rating, request: f.rating <= REQUEST_RATING, themes: f.themes, text: cleanText(f.body, EVIDENCE_TEXT) })) } : {}),
      },
      ...(kept ? { loop_kept: kept } : {}),
      ...(recorded ? { your_feedback_applied: feedbackApplied(recorded, artifact), ship_id: saved.id } : {}),
      meter: run.result.meter ?? run.meter,
      next_step: nextStep(
        'run_loop_tick',
        claimsOf(input),
        'Use system_prompt_short in your runtime, report how runs went (deposit_outcome, leave_feedback), then tick: it edits the check that evidence speaks to (without evidence it changes nothing).',
      ),
    };
  },
});

const themeChange = (theme: ThemeId) => `rule ${THEME_PARTS[theme].constraint.id} + check ${THEME_PARTS[theme].check.id}`;

/** Same-call feedback and the parts of this kernel it brought (ids: their texts are in the artifact). */
function feedbackApplied(recorded: Recorded, artifact: KernelArtifact) {
  const { item } = recorded;
  const changes: string[] = [];
  for (const c of artifact.constraints) {
    if (!c.evidence?.includes(item.id)) continue;
    changes.push(c.id);
    const check = artifact.eval_checks.find((e) => e.covers.constraint === c.id);
    if (check) changes.push(check.id);
  }
  const note = artifact.eval_checks.find((x) => x.covers.feedback_id === item.id);
  if (note) changes.push(note.id);
  return { feedback_id: item.id, rating: item.rating, counted: item.counted, request: item.rating <= REQUEST_RATING, themes: item.themes, changes, refill: recorded.refill };
}
