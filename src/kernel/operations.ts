// improve_kernel and run_loop_tick (SPEC.md 1.5, 4.2; TOOLS.md "Value tools"): metered value tools
// over the pure builder (build.ts) and loop (loop.ts). improve_kernel builds a kernel from goals,
// the listing's card, the caller's feedback (same-call feedback is recorded and applied) and the
// most common themes of others' feedback, keeps what loop ticks learned on the caller's earlier
// versions (carry.ts), and stores it as the caller's next version. run_loop_tick is in tick.ts.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { badRequest } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { nextStep } from '../platform/next-step.ts';
import { cleanText, MAX_DESCRIPTION, MAX_NAME } from '../listings/text.ts';
import { requireListing } from '../listings/operations.ts';
import { capabilityNames } from '../listings/capabilities.ts';
import type { ListingRow } from '../listings/store.ts';
import { metered, meteredArgs } from '../metering/run.ts';
import { meterView } from '../metering/meter.ts';
import { usageOfDay } from '../metering/store.ts';
import { utcDay } from '../metering/day.ts';
import { bodyField, feedbackModeField, ratingField, realBody, recordFeedback, structuredNotOpen, themesView, type Recorded } from '../feedback/operations.ts';
import { commonThemes, recentFeedbackOf } from '../feedback/store.ts';
import { themeLabel, type ThemeId } from '../feedback/themes.ts';
import { buildKernel, withThemes, type CardData, type KernelArtifact, type KernelSpec } from './build.ts';
import { THEME_PARTS } from './parts.ts';
import { goalsField, parseGoals } from './goals.ts';
import { carryLearned, keptAnything, keptReason, type LoopKept } from './carry.ts';
import { latestVersion, lockHead, saveVersion } from './store.ts';
import { claimsOf, meterOutput, nextStepOutput, subjectView } from './tool-parts.ts';

export { runLoopTick } from './tick.ts';

/** The caller's own feedback read into a new kernel (newest first). */
export const OWN_HISTORY = 20;
/** Others' themes listed as community_deltas, and how many of them a kernel applies. */
export const COMMUNITY_LISTED = 5;
export const COMMUNITY_APPLIED = 2;
/** A community theme is applied only when at least this many of others' items name it. */
export const COMMUNITY_MIN_COUNT = 2;

export const cardOf = (row: ListingRow): CardData => ({
  listing_id: row.id,
  kind: row.kind,
  name: cleanText(row.name, MAX_NAME),
  description: cleanText(row.description, MAX_DESCRIPTION),
  capabilities: (capabilityNames(row.capabilities) ?? []).map((c) => cleanText(c, 80)).filter((c) => c !== '').slice(0, 50),
});

const improveInput = z.object({
  agent_name: z.string().min(1, 'is required').max(MAX_NAME).describe('Your agent\'s name (the kernel\'s role; with no listing or token, also whose allowance this spends).'),
  goals: goalsField,
  listing_id: z.string().max(64).optional().describe('Your listing: its card\'s name, description and capabilities feed the role (quoted as data).'),
  audience: z.enum(['agent', 'mcp']).optional().describe('Who runs the kernel: an agent or an MCP server (default: the listing\'s kind, else agent).'),
  mode: feedbackModeField,
  rating: ratingField.optional().describe('Same-call feedback: your rating 1-5 of your last kernel (with feedback or body).'),
  feedback: bodyField.optional().describe('Same-call feedback: one real sentence; it is recorded (as leave_feedback would) and applied to this kernel.'),
  body: bodyField.optional().describe('Same as feedback.'),
  ...meteredArgs,
});

export const improveKernel = defineOperation({
  name: 'improve_kernel',
  title: 'Improve kernel',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  description:
    'Build your agent\'s kernel from its goals (role, objectives, constraints, output contract, eval checks, a short system prompt) and store a new version; rating + feedback apply feedback now. Metered: 3 free a day, refilled by feedback.',
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
    loop_kept: z.looseObject({ from_version: z.number(), dropped: z.array(z.looseObject({ id: z.string(), why: z.string() })) }).optional(),
    your_feedback_applied: z.looseObject({ feedback_id: z.string(), changes: z.array(z.looseObject({ id: z.string() })) }).optional(),
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
    const listing = input.listing_id !== undefined ? await requireListing(ctx, input.listing_id) : undefined;
    const card = listing ? cardOf(listing) : null;
    const audience = input.audience ?? card?.kind ?? 'agent';
    const now = ctx.clock.now();

    const run = await metered(ctx, { listing_id: input.listing_id, agent_name: input.agent_name, payment_proof: input.payment_proof }, 'improve_kernel', async (trx, subject) => {
      let recorded: Recorded | undefined;
      if (text !== undefined && input.rating !== undefined) {
        recorded = await recordFeedback(trx, subject, { rating: input.rating, body: text, agent_name: agentName, listing_id: input.listing_id, audience, surface: 'improve_kernel', sku: 'kernel', source: 'improve_kernel' }, now);
      }
      const own = await recentFeedbackOf(trx, subject.key, OWN_HISTORY);
      const community = await commonThemes(trx, subject.key, COMMUNITY_LISTED);
      const applied = community.filter((c) => c.count >= COMMUNITY_MIN_COUNT).slice(0, COMMUNITY_APPLIED).map((c) => c.theme);
      const ownThemes = [...new Set(own.flatMap((f) => f.themes))];
      let themes = withThemes([], ownThemes, 'your_feedback');
      themes = withThemes(themes, applied, 'community');
      const fresh: KernelSpec = {
        agent_name: agentName,
        audience,
        goals,
        card,
        themes,
        notes: recorded ? [{ feedback_id: recorded.item.id, rating: recorded.item.rating, body: recorded.item.body }] : [],
        strength: {},
        focus: [],
      };
      // What loop ticks learned on the caller's latest version stays (read under the head's lock, so a tick storing now is not lost).
      await lockHead(trx, subject.key);
      const previous = await latestVersion(trx, subject.key);
      const carried = previous ? carryLearned(previous, fresh) : undefined;
      const kept: LoopKept | undefined = carried && keptAnything(carried.kept) ? carried.kept : undefined;
      const spec = carried?.spec ?? fresh;
      const artifact = buildKernel(spec);
      const reasonParts = [`built from ${goals.length} goal${goals.length === 1 ? '' : 's'}`];
      if (card) reasonParts.push(`the card of ${card.listing_id}`);
      if (ownThemes.length) reasonParts.push(`your feedback themes (${ownThemes.map(themeLabel).join(', ')})`);
      if (applied.length) reasonParts.push(`community themes (${applied.map(themeLabel).join(', ')})`);
      if (kept) reasonParts.push(keptReason(kept));
      const saved = await saveVersion(trx, { subject: subject.key, kind: 'improve', listing_id: input.listing_id ?? null, agent_name: agentName, spec, artifact, reason: reasonParts.join(', '), diff: null, created_at: iso(now) });
      // The refill of same-call feedback lands after the charge: the meter shows the state after both.
      const usage = recorded?.refill.granted ? (await usageOfDay(trx, subject.allowance, utcDay(now))).find((r) => r.event_id === 'improve_kernel') : undefined;
      return { saved, artifact, recorded, community, applied, kept, meter: usage ? meterView(subject, 'improve_kernel', usage, now) : undefined };
    });

    const { saved, artifact, recorded, community, applied, kept } = run.result;
    return {
      ok: true as const,
      kernel_id: saved.id,
      version: saved.version,
      agent_name: agentName,
      system_prompt_short: artifact.system_prompt_short,
      chars: artifact.chars,
      cut: artifact.cut,
      artifact,
      reason: saved.reason,
      community_deltas: community.map((c) => ({ theme: c.theme, label: themeLabel(c.theme), count: c.count, applied: applied.includes(c.theme), change: themeChange(c.theme) })),
      ...(kept ? { loop_kept: kept } : {}),
      ...(recorded ? { your_feedback_applied: feedbackApplied(recorded, artifact), ship_id: saved.id } : {}),
      subject: subjectView(run.subject),
      meter: run.result.meter ?? run.meter,
      next_step: nextStep(
        'run_loop_tick',
        claimsOf(input),
        'Use system_prompt_short in your runtime; report how runs went with deposit_outcome or leave_feedback (feedback given in this call counts too), then run one loop tick: it scores this kernel\'s checks against that evidence and stores the improved next version (with no evidence yet it changes nothing and says how to give some).',
      ),
    };
  },
});

const themeChange = (theme: ThemeId) => `rule ${THEME_PARTS[theme].constraint.id} + check ${THEME_PARTS[theme].check.id}`;

function feedbackApplied(recorded: Recorded, artifact: KernelArtifact) {
  const { item } = recorded;
  const changes: { id: string; part: 'constraint' | 'eval_check'; text: string }[] = [];
  for (const theme of item.themes) {
    const p = THEME_PARTS[theme];
    const c = artifact.constraints.find((x) => x.id === p.constraint.id);
    const e = artifact.eval_checks.find((x) => x.id === p.check.id);
    if (c) changes.push({ id: c.id, part: 'constraint', text: c.text });
    if (e) changes.push({ id: e.id, part: 'eval_check', text: e.check });
  }
  const note = artifact.eval_checks.find((x) => x.covers.feedback_id === item.id);
  if (note) changes.push({ id: note.id, part: 'eval_check', text: note.check });
  return { feedback_id: item.id, rating: item.rating, counted: item.counted, themes: themesView(item.themes), changes, refill: recorded.refill };
}
