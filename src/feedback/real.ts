// Real feedback (DESIGN.md "Real feedback"): a rating 1-5 and one sentence of real text, at least
// 12 characters and 3 words, that is not junk. Pure, so the rule is the same at every door; the junk
// rules themselves are the shared ones of platform/real-text.ts.
import { junkReason, words } from '../platform/real-text.ts';

export const MIN_BODY_CHARS = 12;
export const MIN_BODY_WORDS = 3;
export const MAX_BODY_CHARS = 4000;

export interface RealCheck {
  real: boolean;
  /** Why it is not real (for the 400's message). */
  reason?: string;
}

/** Whether a cleaned feedback body is real (DESIGN.md). */
export function checkReal(body: string): RealCheck {
  const text = body.trim();
  if (text.length < MIN_BODY_CHARS) return { real: false, reason: `the body has ${text.length} characters; one real sentence of at least ${MIN_BODY_CHARS} is needed` };
  const ws = words(text);
  if (ws.length < MIN_BODY_WORDS) return { real: false, reason: `the body has ${ws.length} word(s); one real sentence of at least ${MIN_BODY_WORDS} words is needed` };
  const junk = junkReason(text, true);
  return junk ? { real: false, reason: junk.replace(/^the text/, 'the body') } : { real: true };
}
