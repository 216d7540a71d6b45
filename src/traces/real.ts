// What makes a trace's body "real" (SPEC.md 8.2: a real trace refills): words a reader can use.
// Junk (a run of one character, a keyboard row, placeholder words, no letters) is refused outright;
// a short but sensible note ("fast") is kept as a trace but refills nothing.

/** Longest body kept (characters, after cleaning). */
export const MAX_BODY = 500;
/** A trace that refills says at least this much. */
export const REAL_MIN_CHARS = 12;
export const REAL_MIN_WORDS = 3;

const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890', 'abcdefghijklmnopqrstuvwxyz'];
const PLACEHOLDERS = new Set(['test', 'testing', 'tests', 'asdf', 'foo', 'bar', 'baz', 'lorem', 'ipsum', 'dolor', 'xxx', 'todo', 'tbd', 'n/a', 'na', 'none', 'null', 'undefined', 'placeholder', 'blah', 'hello', 'hi', 'ok', 'okay', 'aaa', 'abc', 'xyz', 'qwerty', 'sample', 'dummy']);

const words = (body: string): string[] => body.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'/-]*/gu) ?? [];

/** Why a body is junk (refused with 400 trace_not_real), or undefined. */
export function junkReason(body: string): string | undefined {
  const letters = body.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return 'the body has no words';
  const squeezed = body.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (squeezed.length >= 4 && new Set(squeezed).size <= 2) return 'the body repeats one or two characters';
  if (squeezed.length >= 4 && KEYBOARD_ROWS.some((row) => row.includes(squeezed) || [...row].reverse().join('').includes(squeezed))) return 'the body is a run of keys';
  const ws = words(body);
  if (ws.length > 0 && ws.every((w) => PLACEHOLDERS.has(w))) return 'the body is placeholder words';
  return undefined;
}

/** Why a (non-junk) body is too thin to refill, or undefined when it is a real trace. */
export function thinReason(body: string): string | undefined {
  const ws = words(body).filter((w) => /\p{L}/u.test(w));
  const distinct = new Set(ws);
  if (body.length < REAL_MIN_CHARS || distinct.size < REAL_MIN_WORDS) {
    return `a trace refills when its body says something real: at least ${REAL_MIN_WORDS} different words and ${REAL_MIN_CHARS} characters`;
  }
  if (ws.filter((w) => !PLACEHOLDERS.has(w)).length < 2) return 'a trace refills when its body is more than placeholder words';
  return undefined;
}
