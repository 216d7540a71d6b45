// What other code asks of listings through an operation's ctx.
import type { Ctx } from '../platform/operation.ts';
import { notFound } from '../platform/errors.ts';
import { findListingById, type ListingRow } from './store.ts';

export async function requireListing(ctx: Ctx, id: string, field = 'listing_id'): Promise<ListingRow> {
  const row = await findListingById(ctx.db.kysely, id);
  if (!row || row.deleted_at !== null) throw notFound(`no listing with ${field} ${JSON.stringify(id)}`, field);
  return row;
}

export const statusUrl = (ctx: Ctx, id: string) => `${ctx.config.publicBaseUrl}/api/listings/status?id=${encodeURIComponent(id)}`;
