// Real feedback (DESIGN.md "Real feedback"): a rating 1-5 and one sentence of real text, at least
// 12 characters and 3 words, that is not junk. Pure, so the rule is the same at every door.

export const MIN_BODY_CHARS = 12;
export const MIN_BODY_WORDS = 3;
export const MAX_BODY_CHARS = 4000;

/** Words of a body: runs of letters, marks and digits; in scripts written without spaces, every two characters count as a word. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    const w = m[0];
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u.test(w)) {
      for (let i = 0; i < w.length; i += 2) out.push(w.slice(i, i + 2));
    } else out.push(w);
  }
  return out;
}

/** Placeholder words: a body made only of these (and stop words) says nothing. */
const PLACEHOLDER = new Set(
  (
    'test tests testing tested asdf asdfgh qwerty qwertz azerty zxcv hjkl lorem ipsum dolor sit amet foo bar baz qux ' +
    'xxx xx yyy zzz abc abcd blah bla meh lol ok okay hi hello hey yo placeholder sample dummy todo tbd na n a ' +
    'feedback comment text sentence body example something stuff thing whatever nothing none null undefined aaa'
  ).split(/\s+/),
);

const FILLER = new Set(
  'a an the this that it is was be are of to and or in on for with my your our just here there very some any is a'.split(/\s+/),
);

/** Keyboard rows and alphabet runs typed to fill a field (checked on the letters only). */
const RUNS = ['qwert', 'werty', 'asdfg', 'sdfgh', 'dfghj', 'zxcvb', 'xcvbn', 'yxcvb', 'hjkl', 'uiop', 'abcdef', 'bcdefg', '12345', '23456', 'azert', 'qwertz'];

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

/**
 * Why a text is junk (repeated letters, keyboard runs, placeholder words, repeated words, mashed
 * keys), or undefined. Length rules are the caller's: survey answers have their own minimums.
 * `sentence`: the rules of a feedback body (2 distinct meaningful words, 5 distinct letters); a
 * short survey answer ("none yet") needs 1 meaningful word and fewer letters.
 */
export function junkReason(text: string, sentence = false): string | undefined {
  const ws = words(text);
  const compact = text.toLowerCase().replace(/\s+/g, '');
  const letters = compact.replace(/[^\p{L}\p{N}]/gu, '');
  if (/(\p{L})\1{4,}/u.test(letters)) return 'the text repeats one letter over and over';
  const minLetters = sentence || letters.length >= 12 ? 5 : 3;
  if (letters.length > 0 && new Set(letters).size < minLetters) return `the text uses fewer than ${minLetters} different letters`;
  const run = RUNS.find((r) => letters.includes(r));
  if (run) return `the text contains a keyboard or alphabet run ("${run}")`;
  const meaningful = ws.filter((w) => !PLACEHOLDER.has(w) && !FILLER.has(w) && w.length > 1);
  if (new Set(meaningful).size < (sentence ? 2 : 1)) return 'the text is placeholder words ("test", "asdf", "lorem ipsum" ...), not a sentence about your experience';
  if (ws.length >= 4 && new Set(ws).size / ws.length < 0.5) return 'the text repeats the same words';
  // A word with no vowel in Latin script and 6+ letters ("xkcdqwp") is mashed keys; most of them is junk.
  const latin = ws.filter((w) => /^[a-z]+$/.test(w));
  const mashed = latin.filter((w) => w.length >= 5 && (!/[aeiouy]/.test(w) || /[bcdfghjklmnpqrstvwxz]{5,}/.test(w)));
  const mostlyMashed = latin.length >= 3 ? mashed.length * 2 >= latin.length : !sentence && latin.length > 0 && mashed.length === latin.length;
  if (mostlyMashed) return 'the text looks like random key presses';
  return undefined;
}
