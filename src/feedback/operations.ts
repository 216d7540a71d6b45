// leave_feedback in its ultra form (SPEC.md 2.5, DESIGN.md "Real feedback"): a rating 1-5 and one
// real sentence. Real feedback is stored under the caller's subject, grants the leave_feedback
// refill (once per identical body per day, at most 3 grants a day) and, when it names a listing,
// leaves a system trace on it. `recordFeedback` is the one way in, also for same-call feedback of
// improve_kernel. The operation leave_feedback is composed in registry/feedback.ts (it settles the
// founding deal too, which the funnel, above this domain, owns); its input and answer are here. The
// structured survey (survey.ts, structured.ts) is checked inside recordFeedback.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { badRequest, notFound } from '../platform/errors.ts';
import { iso } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import type { Executor } from '../platform/db/executor.ts';
import { nextStep } from '../platform/next-step.ts';
import { cleanText, MAX_NAME } from '../listings/text.ts';
import { findListingById } from '../listings/store.ts';
import type { Subject } from '../metering/caller.ts';
import { grantFor, type RefillResult } from '../metering/grants.ts';
import { refill as refillOf } from '../metering/refills.ts';
import { grantsOfDay } from '../metering/store.ts';
import { utcDay } from '../metering/day.ts';
import { deposit } from '../traces/store.ts';
import { subjectKey } from '../traces/subjects.ts';
import { checkReal, MAX_BODY_CHARS } from './real.ts';
import { refusePlaceholder } from '../platform/real-text.ts';
import { extractThemes, themeLabel, type ThemeId } from './themes.ts';
import { claimCount, insertFeedback, type FeedbackItem } from './store.ts';
import { answersField, surveyBonus, surveyPart, surveyView, themeText, type FeedbackMode } from './structured.ts';
import type { BonusResult } from '../metering/bonus.ts';

/** SPEC.md 2.5 surface ids; `general` is the default. */
export const SURFACES = [
  'demo',
  'improve_kernel',
  'run_loop_tick',
  'mesh_match',
  'mesh_compose',
  'collab_workflow',
  'collab_session',
  'collab_session_step',
  'collab_market',
  'collab_install',
  'talk',
  'list',
  'probe',
  'products',
  'try',
  'for_agents',
  'registry_home',
  'grow',
  'connectors',
  'install_product',
  'deposit_outcome',
  'general',
] as const;
export type Surface = (typeof SURFACES)[number];

export const MAX_TAGS = 10;
const MAX_TAG = 40;
const MAX_SHORT = 60;

/** The fields of one feedback item as callers send them (leave_feedback and improve_kernel share them). */
export const ratingField = z.number().int('must be a whole number 1-5').min(1, 'must be 1-5').max(5, 'must be 1-5');
export const bodyField = z.string().max(MAX_BODY_CHARS, `must be at most ${MAX_BODY_CHARS} characters`);
export const feedbackModeField = z
  .enum(['ultra', 'structured'])
  .optional()
  .describe('ultra (default): rating + one real sentence; structured: plus the full survey.');

export interface FeedbackInput {
  rating: number;
  body: string;
  agent_name?: string;
  sku?: string;
  source?: string;
  audience?: 'agent' | 'mcp';
  tags?: string[];
  listing_id?: string;
  surface: Surface;
  /** The survey (structured.ts): mode structured needs every required answer. */
  mode?: FeedbackMode;
  answers?: unknown;
}

export interface Recorded {
  item: FeedbackItem;
  /** The leave_feedback refill: granted, or why not. */
  refill: RefillResult;
  /** The system trace this feedback left on the listing it names, if any. */
  trace: { channel: 'attraction' | 'danger'; listing_id: string; intensity: number } | null;
  /** The pricing_fairness bonus (a counted item answering 1 or 2), granted or why not. */
  bonus: BonusResult | null;
}

/** The 400 for structured mode where only ultra feedback is taken (improve_kernel's same-call feedback). */
export const structuredNotOpen = (field: 'mode' | 'answers') =>
  badRequest('structured_not_available', 'this call takes ultra feedback only (rating and body, one real sentence); send the structured survey with leave_feedback (mode "structured", answers) or POST /api/products/agent {tool: "submit_feedback", answers}', field);

/** Cleans and checks a body: real text, or the 400 `placeholder_text` (an example sent unchanged) or `feedback_not_real`. */
export function realBody(raw: string, field = 'body'): string {
  const body = cleanText(raw, MAX_BODY_CHARS);
  refusePlaceholder(body, field, 'one sentence of your own about what worked and what did not');
  const check = checkReal(body);
  if (!check.real) throw badRequest('feedback_not_real', `feedback must be real: ${check.reason}. Nothing was recorded and nothing granted.`, field);
  return body;
}

const bodyHash = (body: string) => createHash('sha256').update(body.toLowerCase().replace(/\s+/g, ' ').trim()).digest('hex');

/** Trace intensity of a rating: 2 per point away from a neutral 3 (attraction above, danger below). */
export const traceOfRating = (rating: number): { channel: 'attraction' | 'danger'; intensity: number } | null =>
  rating >= 4 ? { channel: 'attraction', intensity: 2 * (rating - 3) } : rating <= 2 ? { channel: 'danger', intensity: 2 * (3 - rating) } : null;

/**
 * Records one ultra feedback item for `subject` in `trx`: refuses junk (400 feedback_not_real) and
 * unknown listings (404), counts an identical body once per caller and day (a caller without an
 * owner token: one item per address and day), grants the refill for a counted item, and leaves the
 * listing's trace for the caller's first counted item on it that day (moving the listing's field
 * only when its owner sent it; anyone else's is recorded).
 */
export async function recordFeedback(trx: Executor, subject: Subject, input: FeedbackInput, now: Date): Promise<Recorded> {
  const survey = surveyPart(input);
  const body = realBody(input.body);
  if (input.listing_id !== undefined && !(await findListingById(trx, input.listing_id))) {
    throw notFound(`no listing with listing_id ${JSON.stringify(input.listing_id)}`, 'listing_id');
  }
  const day = utcDay(now);
  const owner = subject.kind === 'listing';
  const counted = owner ? await claimCount(trx, subject.key, day, bodyHash(body)) : await claimCount(trx, subject.allowance, day, 'anonymous');
  // The trace is claimed like a body (its own key in the same table), so concurrent items leave one.
  const mark = traceOfRating(input.rating);
  const traceClaimed = input.listing_id !== undefined && counted && mark !== null && (await claimCount(trx, subject.key, day, `trace:${input.listing_id}`));
  const short = (v: string | undefined, max = MAX_SHORT) => (v === undefined ? null : cleanText(v, max) || null);
  const item = await insertFeedback(trx, {
    id: newId('fb'),
    created_at: iso(now),
    subject: subject.key,
    listing_id: input.listing_id ?? null,
    source: short(input.source),
    agent_name: short(input.agent_name, MAX_NAME),
    sku: short(input.sku),
    body,
    rating: input.rating,
    tags: [...new Set((input.tags ?? []).map((t) => cleanText(t, MAX_TAG).toLowerCase()).filter((t) => t !== ''))].slice(0, MAX_TAGS),
    audience: input.audience ?? null,
    surface: input.surface,
    themes: extractThemes(themeText(body, survey.answers)),
    counted,
    ...survey,
  });
  let refill: RefillResult;
  if (counted) refill = await grantFor(trx, subject, 'leave_feedback', now);
  else {
    const r = refillOf('leave_feedback');
    const reason = owner
      ? 'you already left this same feedback today: it is stored once more but refills once'
      : 'feedback without an owner token counts once per address and day: it is stored, but only your first item today refills';
    refill = { action: 'leave_feedback', granted: false, events: [], grants_today: (await grantsOfDay(trx, subject.allowance, day)).get('leave_feedback') ?? 0, max_per_day: r.max_per_day, reason };
  }
  let trace: Recorded['trace'] = null;
  if (traceClaimed && mark) {
    const moves = subject.listing_id === input.listing_id;
    await deposit(trx, { channel: mark.channel, subject: subjectKey({ kind: 'listing', listing_id: input.listing_id! }), intensity: mark.intensity, body: `feedback ${input.rating}/5`, depositor: 'system', at: now }, { moves });
    trace = { ...mark, listing_id: input.listing_id! };
  }
  return { item, refill, trace, bonus: await surveyBonus(trx, subject, survey, counted, now) };
}

export const themesView = (themes: readonly ThemeId[]) => themes.map((theme) => ({ theme, label: themeLabel(theme) }));

/** leave_feedback's input (the operation is composed in registry/feedback.ts: it also settles the founding deal). */
export const feedbackInput = z.object({
  rating: ratingField.describe('Your rating, a whole number 1-5.'),
  body: bodyField.describe('One real sentence about your experience (at least 12 characters and 3 words; placeholder text is refused).'),
  agent_name: z.string().max(MAX_NAME).optional().describe('Your agent\'s name, a label kept with the feedback (required as a tool).'),
  listing_id: z.string().max(64).optional().describe('The listing this feedback is about (must exist); your own, with its owner token, for a seat.'),
  surface: z.enum(SURFACES).optional().describe('Where the feedback is about (SPEC.md 2.5 surface ids); default general.'),
  mode: feedbackModeField,
  audience: z.enum(['agent', 'mcp']).optional().describe('Whether you are an agent or an MCP server.'),
  sku: z.string().max(MAX_SHORT).optional().describe('The product the feedback is about (for example kernel, alive, mcp_mesh).'),
  source: z.string().max(MAX_SHORT).optional().describe('Where the feedback comes from (your runtime or client).'),
  tags: z.array(z.string().max(MAX_TAG)).max(MAX_TAGS).optional().describe(`Up to ${MAX_TAGS} short tags.`),
  answers: answersField,
});

/** The tool door's stricter input: the tool requires agent_name (SPEC.md 4.2); REST does not (2.5). */
export const feedbackToolInput = feedbackInput.extend({ agent_name: z.string().min(1, 'is required').max(MAX_NAME).describe('Your agent\'s name, a label kept with the feedback.') });
export type LeaveFeedbackInput = z.output<typeof feedbackInput>;

/** What leave_feedback answers about the item itself (the founding part is added by the composed operation). */
export const feedbackOutputShape = {
  ok: z.literal(true),
  feedback_id: z.string(),
  counted: z.boolean(),
  themes: z.array(z.looseObject({ theme: z.string(), label: z.string() })),
  refill: z.looseObject({ action: z.string(), granted: z.boolean(), events: z.array(z.string()), grants_today: z.number(), max_per_day: z.number() }),
  trace: z.looseObject({ channel: z.string(), listing_id: z.string(), intensity: z.number() }).nullable(),
  next_step: z.looseObject({ tool: z.string(), args: z.record(z.string(), z.unknown()), why: z.string() }),
};

/** Records leave_feedback's item in `trx` (the surface defaults to general). */
export const recordLeftFeedback = (trx: Executor, subject: Subject, input: LeaveFeedbackInput, now: Date): Promise<Recorded> =>
  recordFeedback(trx, subject, { ...input, surface: input.surface ?? 'general' }, now);

/** leave_feedback's answer about the recorded item. */
export function feedbackAnswer(recorded: Recorded, subject: Subject, input: LeaveFeedbackInput) {
  const { item, refill, trace, bonus } = recorded;
  // The same claims the caller used, so the tick spends the allowance this refill went to.
  const claims = { ...(input.agent_name !== undefined ? { agent_name: input.agent_name } : {}), ...(input.listing_id !== undefined ? { listing_id: input.listing_id } : {}) };
  return {
    ok: true as const,
    feedback_id: item.id,
    counted: item.counted,
    themes: themesView(item.themes),
    refill,
    trace,
    ...surveyView(item, bonus),
    subject: { kind: subject.kind, label: subject.label, ...(subject.note ? { note: subject.note } : {}) },
    next_step: nextStep(
      'run_loop_tick',
      claims,
      'Apply this feedback to your latest kernel: one loop tick reads it, strengthens the weakest eval check and stores the next version (without a kernel yet, it tells you how to make one with improve_kernel).',
    ),
  };
}

/** leave_feedback's description (the operation itself is registry/feedback.ts). */
export const LEAVE_FEEDBACK_DESCRIPTION =
  'Rate Rollcall 1-5 with one real sentence (same as POST /api/products/feedback); real feedback refills value tools\' free allowance (3 a day).';
