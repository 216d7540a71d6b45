// Input fields the mesh tools share. A count is a whole number in a range; anything else (a word,
// a fraction, a number out of range) gets one message that says what is wanted, naming the field
// (DESIGN.md errors), never a parser's "received NaN".
import { z } from 'zod';

/** A whole number from `min` to `max`; a number written as text is taken as that number. */
export const wholeNumber = (min: number, max: number) => {
  const wanted = `must be a whole number ${min}-${max}`;
  return z.coerce.number({ error: wanted }).int(wanted).min(min, wanted).max(max, wanted);
};
