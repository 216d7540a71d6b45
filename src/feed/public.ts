// The public activity feed (SPEC.md 1.3, 6.1): what happened to listings and to the catalog's
// remotes, newest first, with cursor paging. It carries no personal data: no email, token, address,
// contact or free text. An event names a listing by id, kind, lane and its current name, or a
// catalog remote by the server that lists it (and how many do), with emails and addresses masked;
// never the remote's URL.
import { isIPv6 } from 'node:net';
import type { Executor } from '../platform/db/executor.ts';
import { findListingsByIds } from '../listings/store.ts';
import { catalogNamesByRemoteKeys } from '../catalog/store.ts';
import { readFeedEvents } from './store.ts';

export const FEED_LIMIT = 50;

const EMAIL = /[^\s@<>()]+@[^\s@<>()]+\.[a-z]{2,}/gi;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;
/** Runs of hex digits, colons and dots: candidates for an IPv6 address, checked by node's parser. */
const IPV6_CANDIDATE = /[0-9a-f]*:[0-9a-f:.]*/gi;

/** Names come from cards that strangers write: an email or address inside one is not repeated here. */
export const scrubPersonal = (text: string): string =>
  text
    .replace(EMAIL, '[email]')
    .replace(IPV4, '[address]')
    .replace(IPV6_CANDIDATE, (token) => (isIPv6(token) ? '[address]' : token));

/** A page of the feed: `before` is the `next_cursor` of the previous page; `about` keeps only listings' or only the catalog's events. */
export async function readPublicFeed(db: Executor, limit = FEED_LIMIT, before?: number, about?: 'listings' | 'catalog') {
  const events = await readFeedEvents(db, limit + 1, before, about);
  const page = events.slice(0, limit);
  const [listings, servers] = await Promise.all([
    findListingsByIds(db, [...new Set(page.flatMap((e) => (e.catalog_remote === null ? [e.listing_id] : [])))]).then((rows) => new Map(rows.map((l) => [l.id, l]))),
    catalogNamesByRemoteKeys(db, page.flatMap((e) => (e.catalog_remote === null ? [] : [e.catalog_remote]))),
  ]);
  type Item = { seq: number; at: string; event: string; listing?: { id: string; kind: string; name: string; lane: string }; catalog?: { name: string; entries: number } } & Record<string, unknown>;
  const items = page.flatMap((e): Item[] => {
    if (e.catalog_remote !== null) {
      // A remote no latest entry lists any more is not news about anything shown.
      const names = servers.get(e.catalog_remote);
      return names?.length ? [{ seq: e.seq, at: e.at, event: e.type, catalog: { name: scrubPersonal(names[0]!), entries: names.length }, ...e.data }] : [];
    }
    const l = listings.get(e.listing_id);
    if (!l) return [];
    return [{ seq: e.seq, at: e.at, event: e.type, listing: { id: l.id, kind: l.kind, name: scrubPersonal(l.name), lane: l.lane }, ...e.data }];
  });
  return { items, next_cursor: events.length > limit ? String(page[page.length - 1]!.seq) : null };
}
