// What every listings store operation shares: the row other domains see (rank parts are this
// domain's bookkeeping), the change feed's entity name, and how rank parts add up.
import type { Selectable } from 'kysely';
import type { ListingsTable } from '../tables.ts';

export type ListingRow = Omit<Selectable<ListingsTable>, 'rank_parts' | 'contact_email'> & { contact_email: string | null };

/**
 * The listing as other domains see it (rank parts are this domain's bookkeeping): its owner's
 * name, description and website, when set, in place of what its card says; its host in place of
 * a card name another listing holds (name_withheld).
 */
export const toRow = ({ rank_parts: _parts, ...row }: Selectable<ListingsTable>): ListingRow => ({
  ...row,
  name: row.owner_name ?? (row.name_withheld !== null ? new URL(row.url).host : row.name),
  description: row.owner_description ?? row.description,
  website: row.owner_website ?? row.website,
});

export const LISTING_ENTITY = 'listing';

/** The rank column is an integer (an index orders the active list on it); parts may carry fractions (the decaying trail). */
export const sumParts = (parts: Record<string, number>) => Math.round(Object.values(parts).reduce((a, b) => a + b, 0));
