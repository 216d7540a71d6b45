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
  // A catalog remote's status, once two checks in a row agree on a new one (catalog/checks-store.ts).
  'catalog.status_changed': ['from', 'to'],
} as const satisfies Record<string, readonly string[]>;

/** Ids a feed event may carry beside numbers: a listing or composition id, nothing free-form. */
const PUBLIC_ID = /^(lst|cmp|iss)_[A-Za-z0-9_-]{1,60}$/;
/** Facts that are one short lower-case word (a claim's method, a status), never free text. */
const WORD_FACTS = new Set(['method', 'from', 'to']);
const WORD = /^[a-z_]{1,20}$/;

export type FeedEventType = keyof typeof FEED_EVENTS;

export interface FeedEvent {
  seq: number;
  at: string;
  type: FeedEventType;
  listing_id: string;
  /** The catalog remote (its lookup key) an event is about, instead of a listing. */
  catalog_remote: string | null;
  data: Record<string, number | boolean | string>;
}

/** Appends one event; only the facts its type allows, and only numbers, booleans or public ids (`*_id` facts), are kept. */
export async function appendFeedEvent(ex: Executor, type: FeedEventType, listingId: string, at: string, facts: Record<string, unknown> = {}): Promise<void> {
  await together(ex, [feedEventPart(ex, type, listingId, at, facts)]);
}

/** appendFeedEvent as a part of a batch (platform/db/together.ts). */
export function feedEventPart(ex: Executor, type: FeedEventType, listingId: string, at: string, facts: Record<string, unknown> = {}): Part<void> {
  return write(q(ex).insertInto('feed_events').values({ at, type, listing_id: listingId, data: JSON.stringify(publicFacts(type, facts)) }));
}

/** Appends an event about a catalog remote (by its lookup key), with the facts its type allows. */
export async function appendCatalogFeedEvent(ex: Executor, type: 'catalog.status_changed', remoteKey: string, at: string, facts: Record<string, unknown>): Promise<void> {
  await q(ex).insertInto('feed_events').values({ at, type, listing_id: '', catalog_remote: remoteKey, data: JSON.stringify(publicFacts(type, facts)) }).execute();
}

function publicFacts(type: FeedEventType, facts: Record<string, unknown>): Record<string, number | boolean | string> {
  const data: Record<string, number | boolean | string> = {};
  for (const key of FEED_EVENTS[type] as readonly string[]) {
    const v = facts[key];
    if (typeof v === 'number' || typeof v === 'boolean') data[key] = v;
    else if (WORD_FACTS.has(key) && typeof v === 'string' && WORD.test(v)) data[key] = v;
    else if (key.endsWith('_id') && typeof v === 'string' && PUBLIC_ID.test(v)) data[key] = v;
  }
  return data;
}

/** Events newest first, strictly before `beforeSeq` when given; only those about listings or about the catalog when `about` says so. */
export async function readFeedEvents(ex: Executor, limit: number, beforeSeq?: number, about?: 'listings' | 'catalog'): Promise<FeedEvent[]> {
  let sel = q(ex).selectFrom('feed_events').selectAll().orderBy('seq', 'desc').limit(limit);
  if (beforeSeq !== undefined) sel = sel.where('seq', '<', beforeSeq);
  if (about) sel = sel.where('catalog_remote', about === 'catalog' ? 'is not' : 'is', null);
  const rows = await sel.execute();
  return rows.map((r) => ({ seq: Number(r.seq), at: r.at, type: r.type as FeedEventType, listing_id: r.listing_id, catalog_remote: r.catalog_remote, data: JSON.parse(r.data) }));
}

/** Removes every event of a listing (it was deleted: the feed keeps no trace of it). */
export async function deleteFeedEventsOf(ex: Executor, listingId: string): Promise<void> {
  await q(ex).deleteFrom('feed_events').where('listing_id', '=', listingId).execute();
}
