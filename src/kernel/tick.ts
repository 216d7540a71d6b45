// run_loop_tick (TOOLS.md "Value tools"): one improvement cycle over the caller's latest kernel.
// It reads the evidence no earlier tick read (evidence.ts), scores the kernel's checks against it
// and stores the next version addressing the weakest check the evidence speaks to (loop.ts); the
// reason and diff name the goal it concerns and the evidence ids that moved it. Without a kernel,
// or without unread evidence, it changes nothing and spends nothing, and its next_step is the call
// that gives what it lacks.
import { z } from 'zod';
import { defineOperation, type Ctx } from '../platform/operation.ts';
import { iso } from '../platform/clock.ts';
import { nextStep } from '../platform/next-step.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import { requireListing } from '../listings/operations.ts';
import { metered, meteredArgs } from '../metering/run.ts';
import { resolveSubject, type Subject } from '../metering/caller.ts';
import { meterView } from '../metering/meter.ts';
import { usageOfDay } from '../metering/store.ts';
import { utcDay } from '../metering/day.ts';
import { feedbackSignal, IDLE_REASONS, outcomeSignal, planTick, type CheckScore } from './loop.ts';
import { artifactView, type KernelArtifact } from './build.ts';
import { THEME_PARTS } from './parts.ts';
import { unreadEvidence, type Evidence } from './evidence.ts';
import { evidenceSteps } from './evidence-steps.ts';
import { latestVersion, lockHead, saveVersion, type KernelVersion } from './store.ts';
import { claimsOf, detailField, meterOutput, nextStepOutput, subjectView } from './tool-parts.ts';

const tickInput = z.object({
  agent_name: z.string().max(MAX_NAME).optional().describe('Your agent\'s name as given to improve_kernel (whose kernel).'),
  listing_id: z.string().max(64).optional().describe('Your listing, if your kernel was made for it.'),
  detail: detailField,
  ...meteredArgs,
});
type TickInput = z.output<typeof tickInput>;

/** Thrown inside the metered transaction when another tick read the evidence first: the unit is rolled back. */
class NoUnreadEvidence extends Error {
  constructor(
    readonly latest: KernelVersion,
    readonly evidence: Evidence,
  ) {
    super('no unread evidence');
  }
}

/** The caller's run_loop_tick usage today, when a call spends nothing. */
async function meterAsItStands(ctx: Ctx, subject: Subject, now: Date) {
  const row = (await usageOfDay(ctx.db.kysely, subject.allowance, utcDay(now))).find((r) => r.event_id === 'run_loop_tick') ?? { used: 0, refilled: 0, paid: 0 };
  return meterView(subject, 'run_loop_tick', row, now);
}

/** Characters of a feedback or outcome text the evidence details show. */
const EVIDENCE_TEXT = 160;

/** What a tick read: counts; with detail, each item's id and text. */
const evidenceView = (e: Evidence, detail = false) => ({
  since: e.from.at,
  feedback: e.feedback.length,
  outcomes: e.outcomes.length,
  ...(detail
    ? {
        items: [
          ...e.feedback.map((f) => ({ kind: 'feedback' as const, id: f.id, rating: f.rating, text: cleanText(f.body, EVIDENCE_TEXT) })),
          ...e.outcomes.map((o) => ({ kind: 'outcome' as const, id: o.id, ok: o.ok, quality: o.quality, text: cleanText(o.body ?? '', EVIDENCE_TEXT) })),
        ],
      }
    : {}),
});

/** The weakest check as the answer names it: its score with its label. */
const weakestView = (t: CheckScore, artifact: KernelArtifact) => ({ ...t, label: t.missing ? THEME_PARTS[t.missing].check.label : (artifact.eval_checks.find((c) => c.id === t.id)?.label ?? t.id) });

/** The tools that give evidence, for this caller and kernel (`withGoals: false` where the answer's artifact shows the goals). */
const stepsFor = (input: TickInput, subject: Subject, latest: KernelVersion, withGoals = true) =>
  evidenceSteps({ agent_name: input.agent_name ?? (subject.kind === 'name' ? subject.label : latest.agent_name), listing_id: input.listing_id, ...(withGoals ? { goals: latest.spec.goals } : {}) });

async function noKernel(ctx: Ctx, input: TickInput, subject: Subject, listingName: string | undefined, now: Date) {
  const name = cleanText(input.agent_name ?? '', MAX_NAME) || (listingName ? cleanText(listingName, MAX_NAME) : '') || 'my-agent';
  return {
    ok: true as const,
    ticked: false,
    changed: false,
    reason: `${subjectView(subject).label} has no kernel yet: make one with improve_kernel, then tick`,
    meter: await meterAsItStands(ctx, subject, now),
    next_step: nextStep(
      'improve_kernel',
      { agent_name: name, ...(input.listing_id !== undefined ? { listing_id: input.listing_id } : {}) },
      'Make your first kernel: add goals (what your agent must achieve, in your own words), then tick with the same agent_name (or listing_id): each tick improves it from your feedback and outcomes.',
      ['goals'],
    ),
  };
}

async function noEvidence(ctx: Ctx, input: TickInput, subject: Subject, latest: KernelVersion, evidence: Evidence, now: Date) {
  const steps = stepsFor(input, subject, latest);
  return {
    ok: true as const,
    ticked: false,
    changed: false,
    reason: `${IDLE_REASONS.no_evidence}. Nothing was recorded since ${evidence.from.at} that no tick has read, so version ${latest.version} stays as it is and nothing was spent. Give evidence with leave_feedback, deposit_outcome or improve_kernel's rating and feedback, then tick.`,
    version: latest.version,
    system_prompt_short: latest.artifact.system_prompt_short,
    evidence: evidenceView(evidence),
    // The calls that give evidence, but the one next_step already names.
    evidence_needed: steps.slice(1),
    meter: await meterAsItStands(ctx, subject, now),
    next_step: steps[0]!,
  };
}

/**
 * Where a tick leads: more unread evidence than one tick reads, another tick; a changed kernel, on
 * to the next value tool (partners for what the agent does, whose run's outcome is the next tick's
 * evidence; rating the new prompt is in evidence_needed); otherwise the call that gives evidence.
 */
function afterTick(input: TickInput, more: boolean, changed: boolean, steps: ReturnType<typeof stepsFor>) {
  if (more) return nextStep('run_loop_tick', claimsOf(input), 'More feedback and outcomes wait than one tick reads: tick again to work through them.');
  if (changed) {
    return nextStep(
      'mesh_compose',
      claimsOf(input),
      'Your kernel is improved. Next, partners: say as a goal a task your agent does with others ("translate the text and send it by email"); mesh_compose plans the Live listings that cover it, and a run\'s outcome is evidence for the next tick (evidence_needed lists the other ways).',
      ['goal'],
    );
  }
  return { ...steps[0]!, why: 'Run your agent with the new system_prompt_short and rate how it did: the next tick reads it (evidence_needed: other ways).' };
}

export const runLoopTick = defineOperation({
  name: 'run_loop_tick',
  title: 'Run one loop tick',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  description:
    'One improvement cycle over your latest kernel: scores its checks against feedback and outcomes no tick read yet, strengthens the weakest they speak to (goals never move), stores the next version. No kernel or new evidence: changes and spends nothing. Metered: 3 free a day.',
  input: tickInput,
  output: z.looseObject({
    ok: z.literal(true),
    ticked: z.boolean(),
    changed: z.boolean(),
    reason: z.string(),
    version: z.number().optional(),
    diff: z.looseObject({ added: z.array(z.unknown()), removed: z.array(z.unknown()), changed: z.array(z.unknown()) }).optional(),
    evidence_needed: z.array(nextStepOutput).optional(),
    meter: meterOutput,
    next_step: nextStepOutput,
  }),
  handler: async (ctx: Ctx, input) => {
    const listing = input.listing_id !== undefined ? await requireListing(ctx, input.listing_id) : undefined;
    const claims = { listing_id: input.listing_id, agent_name: input.agent_name, payment_proof: input.payment_proof };
    const now = ctx.clock.now();
    const subject = await resolveSubject(ctx.db.kysely, ctx, claims);
    const latest = await latestVersion(ctx.db.kysely, subject.key);
    if (!latest) return noKernel(ctx, input, subject, listing?.name, now);
    // Checked before a unit is taken: a tick with nothing to read costs nothing.
    const waiting = await unreadEvidence(ctx.db.kysely, subject, latest);
    if (!waiting.feedback.length && !waiting.outcomes.length) return noEvidence(ctx, input, subject, latest, waiting, now);

    const run = await metered(ctx, claims, 'run_loop_tick', async (trx, subject) => {
      await lockHead(trx, subject.key);
      const latest = (await latestVersion(trx, subject.key))!;
      const evidence = await unreadEvidence(trx, subject, latest);
      if (!evidence.feedback.length && !evidence.outcomes.length) throw new NoUnreadEvidence(latest, evidence);
      const signals = [...evidence.feedback.map(feedbackSignal), ...evidence.outcomes.map(outcomeSignal)];
      const { plan, idle, scores } = planTick(latest.spec, signals);
      const read = `${evidence.feedback.length} feedback item(s) and ${evidence.outcomes.length} outcome(s) recorded since ${evidence.from.at} (version ${latest.version})`;
      if (!plan) return { latest, scores, evidence, plan: undefined, saved: undefined, reason: `${IDLE_REASONS[idle ?? 'nothing_to_change']} (read ${read})` };
      const t = weakestView(plan.target, plan.before);
      const cause = plan.diff.because!;
      // A goal is named by number (its check's label): the reason is shown in the public improvement log; the goal's text and the evidence ids are the caller's (diff.because).
      const reason = `${t.id} (${t.label}) was the weakest check the evidence speaks to: score ${t.score} on ${t.evidence} weight of evidence from ${evidence.feedback.length} feedback item(s) and ${evidence.outcomes.length} outcome(s), ${cause.evidence.length} of them naming it (diff.because); ${plan.action}`;
      const saved = await saveVersion(trx, { subject: subject.key, kind: 'tick', listing_id: latest.listing_id, agent_name: latest.agent_name, spec: plan.spec, artifact: plan.artifact, reason, diff: plan.diff, created_at: iso(now) });
      return { latest, scores, evidence, plan, saved, reason };
    }).catch((err: unknown) => {
      if (err instanceof NoUnreadEvidence) return err;
      throw err;
    });
    if (run instanceof NoUnreadEvidence) return noEvidence(ctx, input, subject, run.latest, run.evidence, now);

    const r = run.result;
    const steps = stepsFor(input, run.subject, r.saved ?? r.latest, !r.saved);
    const detail = input.detail === true;
    return {
      ok: true as const,
      ticked: true,
      changed: r.saved !== undefined,
      reason: r.reason,
      previous_version: r.latest.version,
      ...(r.saved && r.plan
        ? {
            kernel_id: r.saved.id,
            version: r.saved.version,
            weakest: weakestView(r.plan.target, r.plan.before),
            diff: r.plan.diff,
            system_prompt_short: r.plan.artifact.system_prompt_short,
            chars: r.plan.artifact.chars,
            cut: r.plan.artifact.cut,
            artifact: artifactView(r.plan.artifact),
          }
        : { version: r.latest.version, system_prompt_short: r.latest.artifact.system_prompt_short }),
      // With detail, how the evidence scored each check it spoke to (the others stay at their prior).
      ...(detail ? { scores: r.scores.filter((x) => x.evidence > 0).map(({ strength: _s, ...x }) => x) } : {}),
      evidence: evidenceView(r.evidence, detail),
      // The calls that give the next tick evidence, but the one next_step already names.
      evidence_needed: r.evidence.more || r.saved ? steps : steps.slice(1),
      meter: run.meter,
      next_step: afterTick(input, r.evidence.more, r.saved !== undefined, steps),
    };
  },
});
