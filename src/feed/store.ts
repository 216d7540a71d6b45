// Appending to and reading the public feed. Any domain that makes something public happen calls
// appendFeedEvent in its own transaction; the feed domain sits just above listings so every other
// domain may.
import type { Executor } from '../platform/db/executor.ts';
import { together, write, type Part } from '../platform/db/together.ts';
import { feedTables as q } from './tables.ts';

/** Event types and the public facts each may carry (anything else given is dropped, never stored). */
export const FEED_EVENTS = {
  'listing.listed': [],
  'listing.claimed': ['method'],
  'listing.live': ['score'],
  'demo.taken': [],
  'feedback.left': ['rating'],
  // The endorsed listing is the event's listing; the endorser is an id (public, like the listing's).
  'endorsement.counted': ['from_listing_id'],
  // A stored composition (mesh_compose, interop_session) on its first partner: ids and counts only.
  'composition.planned': ['composition_id', 'partners', 'gaps'],
  'composition.executed': ['composition_id', 'answered', 'failed', 'skipped'],
} as const satisfies Record<string, readonly string[]>;

/** Ids a feed event may carry beside numbers: a listing or composition id, nothing free-form. */
const PUBLIC_ID = /^(lst|cmp|iss)_[A-Za-z0-9_-]{1,60}$/;

export type FeedEventType = keyof typeof FEED_EVENTS;

export interface FeedEvent {
  seq: number;
  at: string;
  type: FeedEventType;
  listing_id: string;
  data: Record<string, number | boolean | string>;
}

/** Appends one event; only the facts its type allows, and only numbers, booleans or public ids (`*_id` facts), are kept. */
export async function appendFeedEvent(ex: Executor, type: FeedEventType, listingId: string, at: string, facts: Record<string, unknown> = {}): Promise<void> {
  await together(ex, [feedEventPart(ex, type, listingId, at, facts)]);
}

/** appendFeedEvent as a part of a batch (platform/db/together.ts). */
export function feedEventPart(ex: Executor, type: FeedEventType, listingId: string, at: string, facts: Record<string, unknown> = {}): Part<void> {
  const data: Record<string, number | boolean | string> = {};
  for (const key of FEED_EVENTS[type] as readonly string[]) {
    const v = facts[key];
    if (typeof v === 'number' || typeof v === 'boolean') data[key] = v;
    else if (key === 'method' && typeof v === 'string' && /^[a-z_]{1,20}$/.test(v)) data[key] = v;
    else if (key.endsWith('_id') && typeof v === 'string' && PUBLIC_ID.test(v)) data[key] = v;
  }
  return write(q(ex).insertInto('feed_events').values({ at, type, listing_id: listingId, data: JSON.stringify(data) }));
}

/** Events newest first, strictly before `beforeSeq` when given. */
export async function readFeedEvents(ex: Executor, limit: number, beforeSeq?: number): Promise<FeedEvent[]> {
  let sel = q(ex).selectFrom('feed_events').selectAll().orderBy('seq', 'desc').limit(limit);
  if (beforeSeq !== undefined) sel = sel.where('seq', '<', beforeSeq);
  const rows = await sel.execute();
  return rows.map((r) => ({ seq: Number(r.seq), at: r.at, type: r.type as FeedEventType, listing_id: r.listing_id, data: JSON.parse(r.data) }));
}

/** Removes every event of a listing (it was deleted: the feed keeps no trace of it). */
export async function deleteFeedEventsOf(ex: Executor, listingId: string): Promise<void> {
  await q(ex).deleteFrom('feed_events').where('listing_id', '=', listingId).execute();
}
