// The public activity feed: what happened to listings, newest first, read from the change feed.
// It carries no personal data: no email, no token, no address, no feedback text.
import type { Executor } from '../platform/db/changes.ts';

export const FEED_LIMIT = 50;

const EMAIL = /[^\s@<>()]+@[^\s@<>()]+\.[a-z]{2,}/gi;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;

/** Names come from cards that strangers write: an email or address inside one is not repeated here. */
export const scrubPersonal = (text: string): string => text.replace(EMAIL, '[email]').replace(IPV4, '[address]');

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
    listing: { id: r.id, kind: r.kind, name: scrubPersonal(r.name), lane: r.lane },
  }));
}
