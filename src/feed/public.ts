// The public activity feed: what happened to listings, newest first, read from the change feed.
// It carries no personal data: no email, no token, no address, no feedback text.
import type { Executor } from '../platform/db/changes.ts';

export const FEED_LIMIT = 50;

export async function readPublicFeed(db: Executor, limit = FEED_LIMIT) {
  const rows = await db
    .selectFrom('changes')
    .innerJoin('listings', 'listings.id', 'changes.entity_id')
    .select(['changes.seq', 'changes.at', 'changes.op', 'listings.id', 'listings.kind', 'listings.name', 'listings.lane', 'listings.created_at'])
    .where('changes.entity', '=', 'listing')
    .orderBy('changes.seq', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    at: r.at,
    event: r.op === 'remove' ? 'listing.removed' : r.at === r.created_at ? 'listing.listed' : 'listing.updated',
    listing: { id: r.id, kind: r.kind, name: r.name, lane: r.lane },
  }));
}
