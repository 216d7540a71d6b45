// What makes a trace's body "real" (SPEC.md 8.2: a real trace refills): words a reader can use.
// Junk (a run of one character, a keyboard row, placeholder words, no letters) is refused outright;
// a short but sensible note ("fast") is kept as a trace but refills nothing. The junk rules are the
// shared ones of platform/real-text.ts; what is thin is the trace's own rule.
import { isPlaceholder, junkReason as sharedJunk, words as sharedWords } from '../platform/real-text.ts';

/** Longest body kept (characters, after cleaning). */
export const MAX_BODY = 500;
/** A trace that refills says at least this much. */
export const REAL_MIN_CHARS = 12;
export const REAL_MIN_WORDS = 3;

const words = (body: string): string[] => sharedWords(body).filter((w) => /\p{L}/u.test(w));

/** Why a body is junk (refused with 400 trace_not_real), or undefined: the shared rule for short texts. */
export const junkReason = (body: string): string | undefined => sharedJunk(body)?.replace(/^the text/, 'the body');

/** Why a (non-junk) body is too thin to refill, or undefined when it is a real trace. */
export function thinReason(body: string): string | undefined {
  const ws = words(body);
  const distinct = new Set(ws);
  if (body.length < REAL_MIN_CHARS || distinct.size < REAL_MIN_WORDS) {
    return `a trace refills when its body says something real: at least ${REAL_MIN_WORDS} different words and ${REAL_MIN_CHARS} characters`;
  }
  if (ws.filter((w) => !isPlaceholder(w)).length < 2) return 'a trace refills when its body is more than placeholder words';
  return undefined;
}
