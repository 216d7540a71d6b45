// When two display names are the same name: compared ignoring case, spacing and Unicode
// compatibility forms, with confusable characters (a Cyrillic "а" for a Latin "a") mapped to the
// letters they imitate by the `confusables` library, so an owner cannot take a look-alike of
// another owner's name.
import { remove } from 'confusables';

export const nameKey = (name: string): string => remove(name.normalize('NFKC')).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
