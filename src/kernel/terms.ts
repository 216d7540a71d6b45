// A goal's key terms: its words (letters, marks and digits; NFKC, lower case) without English stop
// words and one-character words, one per Porter stem (`stemmer`; words outside a-z are their own
// stem), in the order they first appear. A goal needs one to mean something; a loop tick compares
// the stems of a goal (or of what it states) with the words of its evidence.
import { stemmer } from 'stemmer';
import { eng } from 'stopword';

const STOP = new Set<string>(eng);

export const wordsOf = (text: string): string[] => [...text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{M}\p{N}]+/gu)].map((m) => m[0]);

export const stemOf = (word: string): string => (/^[a-z]+$/.test(word) ? stemmer(word) : word);

export const isKeyWord = (word: string): boolean => word.length >= 2 && !STOP.has(word);

export function keyTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of wordsOf(text)) {
    if (!isKeyWord(w)) continue;
    const s = stemOf(w);
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(w);
  }
  return out;
}

/** The stems of every word of a text (to check which terms a prompt keeps). */
export const stemsOf = (text: string): Set<string> => new Set(wordsOf(text).map(stemOf));
