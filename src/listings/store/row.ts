// What every listings store operation shares: the row other domains see (rank parts are this
// domain's bookkeeping), the change feed's entity name, and how rank parts add up.
import type { Selectable } from 'kysely';
import type { ListingsTable } from '../tables.ts';

export type ListingRow = Omit<Selectable<ListingsTable>, 'rank_parts' | 'contact_email'> & { contact_email: string | null };

/** The listing as other domains see it (rank parts are this domain's bookkeeping). */
export const toRow = ({ rank_parts: _parts, ...row }: Selectable<ListingsTable>): ListingRow => row;

export const LISTING_ENTITY = 'listing';

/** The rank column is an integer (an index orders the active list on it); parts may carry fractions (the decaying trail). */
export const sumParts = (parts: Record<string, number>) => Math.round(Object.values(parts).reduce((a, b) => a + b, 0));
