// Whether a short text someone typed says anything (DESIGN.md "Real feedback"; a real trace, SPEC.md
// 8.2): the one junk check for every domain that takes free text (feedback bodies and survey
// answers, trace notes, co-signs). Pure and domain-free, so every door applies the same rule; the
// length and word-count minimums stay with each caller, since a trace note and a feedback
// sentence need different amounts of text. A text that still holds an example's `<placeholder>` is
// not real either (refusePlaceholder).

import { badRequest } from './errors.ts';

/** Words of a text: runs of letters, marks and digits; in scripts written without spaces, every two characters count as a word. */
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

/** Placeholder words: a text made only of these (and filler words) says nothing. */
const PLACEHOLDER = new Set(
  (
    'test tests testing tested asdf asdfgh qwerty qwertz azerty zxcv hjkl lorem ipsum dolor sit amet foo bar baz qux ' +
    'xxx xx yyy zzz xyz abc abcd blah bla meh lol ok okay hi hello hey yo placeholder sample dummy todo tbd na n a ' +
    'feedback comment text sentence body example something stuff thing whatever nothing none null undefined aaa'
  ).split(/\s+/),
);

const FILLER = new Set('a an the this that it is was be are of to and or in on for with my your our just here there very some any'.split(/\s+/));

/** Whether a word (as `words` gives it) is a placeholder. */
export const isPlaceholder = (word: string): boolean => PLACEHOLDER.has(word);

/** Keyboard rows and alphabet runs typed to fill a field (checked on the letters only). */
const RUNS = ['qwert', 'werty', 'asdfg', 'sdfgh', 'dfghj', 'zxcvb', 'xcvbn', 'yxcvb', 'hjkl', 'uiop', 'abcdef', 'bcdefg', '12345', '23456', 'azert', 'qwertz'];
/** Whole rows: a text that is nothing but a stretch of one (either way round, 4+ keys) is a run too. */
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890', 'abcdefghijklmnopqrstuvwxyz'];

/**
 * Why a text is junk (no letters, repeated letters, keyboard runs, placeholder words, repeated
 * words, mashed keys), or undefined. Length rules are the caller's. `sentence`: the rules of a
 * feedback body (2 distinct meaningful words, 5 distinct letters); a short text ("none yet", a
 * trace note "fast") needs 1 meaningful word and fewer letters.
 */
export function junkReason(text: string, sentence = false): string | undefined {
  const ws = words(text);
  const compact = text.toLowerCase().replace(/\s+/g, '');
  const letters = compact.replace(/[^\p{L}\p{N}]/gu, '');
  if (!/\p{L}/u.test(text)) return 'the text has no words';
  if (/(\p{L})\1{4,}/u.test(letters)) return 'the text repeats one letter over and over';
  const minLetters = sentence || letters.length >= 12 ? 5 : 3;
  if (new Set(letters).size < minLetters) return `the text uses fewer than ${minLetters} different letters`;
  const run = RUNS.find((r) => letters.includes(r)) ?? (letters.length >= 4 && ROWS.some((row) => row.includes(letters) || [...row].reverse().join('').includes(letters)) ? letters : undefined);
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

/**
 * An unfilled template slot such as `<one honest sentence about the demo>` or `<listing_id>`: angle
 * brackets around words joined by spaces or underscores (a markup tag such as `<br>` or
 * `<a href="...">` is not one). A text holding one was sent as Rollcall's own example, unchanged.
 */
const SLOT = /<[\p{L}][\p{L}\p{N}'’,:.()-]*(?:[ _][\p{L}\p{N}'’,:.()-]+)+>/u;

/** The first unfilled `<placeholder>` of a text, if any. */
export const placeholderIn = (text: string): string | undefined => SLOT.exec(text)?.[0];

/** The 400 of a text that still holds a template slot: which part to replace, and with what. */
export function refusePlaceholder(text: string, field: string, what: string): void {
  const slot = placeholderIn(text);
  if (slot !== undefined) throw badRequest('placeholder_text', `${field}: ${JSON.stringify(slot)} is a placeholder from an example: replace it with ${what}. Nothing was recorded.`, field, { placeholder: slot });
}
