// The survey's part of recording feedback (SPEC.md 2.5): which mode an item is in, its checked
// answers (every violation reported at once, a junk body with them), the text its themes are read
// from, and the pricing_fairness bonus (SPEC.md 8.1) a counted item with a low answer earns.
import { z } from 'zod';
import type { Executor } from '../platform/db/executor.ts';
import { badRequest } from '../platform/errors.ts';
import { cleanText } from '../listings/text.ts';
import type { Subject } from '../metering/caller.ts';
import { FAIRNESS_BONUS, grantFairnessBonus, type BonusResult } from '../metering/bonus.ts';
import { checkReal, MAX_BODY_CHARS } from './real.ts';
import { checkAnswers, question, REQUIRED_IDS, SURVEY_VERSION, type Answers, type Violation } from './survey.ts';

export type FeedbackMode = 'ultra' | 'structured';

/** `answers` as leave_feedback and POST /api/products/feedback take it: checked by checkAnswers, not by zod, so every problem is listed. */
export const answersField = z
  .record(z.string(), z.unknown())
  .optional()
  .describe(
    `Survey ${SURVEY_VERSION} answers by question id (GET /api/products/feedback); mode structured needs all ${REQUIRED_IDS.length} required.`,
  );

export interface SurveyPart {
  mode: FeedbackMode;
  /** The complete survey was answered (mode structured). */
  structured: boolean;
  answers: Answers | null;
}

/**
 * Checks the survey part of a feedback input: mode structured needs every required answer; any
 * mode checks the answers given. Throws one 400 invalid_input listing every violation (and the
 * body's problem, when the body is junk too), so a caller fixes everything in one go.
 */
export function surveyPart(input: { mode?: FeedbackMode; answers?: unknown; body: string }): SurveyPart {
  const mode = input.mode ?? 'ultra';
  const complete = mode === 'structured';
  if (!complete && input.answers === undefined) return { mode, structured: false, answers: null };
  const { answers, violations } = checkAnswers(input.answers, complete);
  if (violations.length) {
    const body = checkReal(cleanText(input.body, MAX_BODY_CHARS));
    const all: Violation[] = body.real ? violations : [...violations, { field: 'body', question: null, rule: 'not_real', message: `must be one real sentence: ${body.reason}` }];
    const summary = all.map((v) => `${v.field}: ${v.message}`).join('; ');
    throw badRequest('invalid_input', `the survey answers have ${all.length} problem${all.length === 1 ? '' : 's'} (nothing was recorded): ${summary}`, all[0]!.field, all);
  }
  return { mode, structured: complete, answers: Object.keys(answers).length ? answers : null };
}

/** The text an item's themes are read from: the body and every text answer. */
export function themeText(body: string, answers: Answers | null): string {
  if (!answers) return body;
  const texts = Object.entries(answers)
    .filter(([id]) => question(id)?.type === 'text')
    .map(([, v]) => v as string);
  return [body, ...texts].join('\n');
}

/** The pricing_fairness bonus for a counted item whose answer is at most 2 (once per caller). */
export async function surveyBonus(trx: Executor, subject: Subject, part: SurveyPart, counted: boolean, now: Date): Promise<BonusResult | null> {
  const fairness = part.answers?.pricing_fairness;
  if (!counted || typeof fairness !== 'number' || fairness > FAIRNESS_BONUS.at_most) return null;
  return grantFairnessBonus(trx, subject, now);
}

/** What a feedback answer tells of its survey part (beside the fields it always has). */
export function surveyView(item: { mode: FeedbackMode; structured: boolean; answers: Answers | null }, bonus: BonusResult | null) {
  return {
    mode: item.mode,
    structured: item.structured,
    ...(item.answers ? { survey_version: SURVEY_VERSION, answers_recorded: Object.keys(item.answers).length } : {}),
    ...(bonus ? { fairness_bonus: bonus } : {}),
  };
}
