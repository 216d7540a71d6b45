// This instance's search index (DESIGN.md "Search"): hydrated at start from the Live listings (with
// the tool cost each one's probe measured) and the catalog (each entry with the health facts search
// narrows by), then kept fresh by following the change feed (a catalog check that changes those
// facts writes its entries' changes there).
// On PostgreSQL a sequence number is not commit order (a transaction that took a lower number may
// commit after a higher one is seen), so each poll re-reads a trailing window behind its position
// and applies only the changes it has not applied yet; applying is idempotent anyway, since it
// re-reads each entity's current state.
import { setImmediate } from 'node:timers/promises';
import type { Executor } from '../platform/db/executor.ts';
import type { Logger } from '../platform/log.ts';
import { changesAfter, latestChange } from '../platform/db/changes.ts';
import { activeOrder, findListingsByIds, LISTING_ENTITY, type ListingRow } from '../listings/store.ts';
import { CATALOG_ENTITY, catalogPage, findCatalogEntries, type CatalogEntry } from '../catalog/store.ts';
import { healthFactsOf } from '../catalog/health-facts.ts';
import { loadToolTokens } from '../probe/store.ts';
import { SearchEngine } from './engine.ts';
import { catalogDoc, catalogDocId, listingDoc, listingDocId } from './docs.ts';
import { logQuery } from './store.ts';

const PAGE = 1000;
/**
 * Catalog entries read per query while hydrating. Small on purpose: each page (rows, their parsed
 * server.json, their documents) is garbage once indexed, and a page that is still alive when the
 * young generation is collected gets promoted to the old one, where it stays until a full
 * collection. With pages of 1,000 that garbage was about 100 MB of the RSS right after start at
 * 100,000 entries; with 100 it is mostly collected young (docs/performance.md).
 */
const CATALOG_PAGE = 100;
/**
 * Listings indexed between two turns of the event loop. A poll that finds hundreds of listings
 * newly Live (a launch) held the loop for 60-70 ms at once, and every probe and request in flight
 * waited behind it (the publish-to-Live run).
 */
const INDEX_SLICE = 50;
/** How far behind its position each poll looks again for late commits (PostgreSQL). */
const TRAILING_WINDOW = 500;
const ENTITIES = [LISTING_ENTITY, CATALOG_ENTITY];

export interface SearchIndexOptions {
  /** How often the change feed is polled; 0: never (tests call poll()). */
  pollMs: number;
}

export class SearchIndex {
  readonly engine = new SearchEngine();
  /** The newest change-feed position applied (everything at or below it, except late commits). */
  position = 0;
  /** Sequence numbers applied inside the trailing window, so a re-read applies nothing twice. */
  private readonly applied = new Set<number>();
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  /** When the last poll finished (for /metrics and the freshness benchmark). */
  lastPollAt = 0;
  /** Each indexed listing's rank (probe score, badge and trail strength): the trust signal that orders near-ties. */
  private readonly ranks = new Map<string, number>();
  /** Query-log inserts under way: no search waits for them, but stop() does, so closing the database loses none. */
  private readonly logging = new Set<Promise<void>>();

  constructor(
    private readonly db: Executor,
    private readonly log: Logger,
    private readonly options: SearchIndexOptions,
  ) {}

  /** Indexes every Live listing and catalog entry; changes made meanwhile are caught by the first poll. */
  async hydrate(): Promise<{ listings: number; catalog: number; ms: number }> {
    const started = performance.now();
    this.position = await latestChange(this.db);
    const ids = [...(await activeOrder(this.db, 'agent')), ...(await activeOrder(this.db, 'mcp'))];
    for (let i = 0; i < ids.length; i += PAGE) {
      const slice = ids.slice(i, i + PAGE);
      this.indexListings(await findListingsByIds(this.db, slice), await loadToolTokens(this.db, slice));
    }
    let catalog = 0;
    for (let after: string | null = null; ; ) {
      const page = await catalogPage(this.db, after, CATALOG_PAGE);
      await this.indexCatalog(page);
      catalog += page.length;
      if (page.length < CATALOG_PAGE) break;
      after = page[page.length - 1]!.name;
    }
    return { listings: ids.length, catalog, ms: Math.round(performance.now() - started) };
  }

  /**
   * Brings the index up to the change feed before a search, so that whatever changed before the
   * search was asked (on this instance or another) is in its answer: one read of the feed's
   * position, and a poll only when it moved (or one is already under way).
   */
  async caughtUp(): Promise<void> {
    if (this.polling) await this.polling;
    if ((await latestChange(this.db)) > this.position) await this.poll();
  }

  /** Applies what changed since the last poll (one poll at a time; callers share a running one). */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => {
      this.polling = undefined;
      this.lastPollAt = Date.now();
    });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    for (;;) {
      const changes = await changesAfter(this.db, Math.max(0, this.position - TRAILING_WINDOW), ENTITIES, PAGE);
      const fresh = changes.filter((c) => !this.applied.has(c.seq));
      if (fresh.length) {
        const listingIds = [...new Set(fresh.filter((c) => c.entity === LISTING_ENTITY).map((c) => c.entity_id))];
        const catalogNames = [...new Set(fresh.filter((c) => c.entity === CATALOG_ENTITY).map((c) => c.entity_id))];
        await this.refreshListings(listingIds);
        await this.refreshCatalog(catalogNames);
        for (const c of fresh) this.applied.add(c.seq);
        this.position = Math.max(this.position, ...fresh.map((c) => c.seq));
        for (const seq of this.applied) if (seq <= this.position - TRAILING_WINDOW) this.applied.delete(seq);
      }
      if (changes.length < PAGE) return;
    }
  }

  /** A listing is searchable while it is Live; any other lane (or a deletion) takes it out. */
  private async refreshListings(ids: string[]): Promise<void> {
    if (!ids.length) return;
    const rows = await findListingsByIds(this.db, ids);
    const live = rows.filter((r) => r.lane === 'active');
    const tokens = await loadToolTokens(this.db, live.map((r) => r.id));
    for (let i = 0; i < live.length; i += INDEX_SLICE) {
      if (i > 0) await setImmediate();
      this.indexListings(live.slice(i, i + INDEX_SLICE), tokens);
    }
    const liveIds = new Set(live.map((r) => r.id));
    const gone = ids.filter((id) => !liveIds.has(id)).map(listingDocId);
    this.engine.remove(gone);
    for (const docId of gone) this.ranks.delete(docId);
  }

  /** `tokens`: each listing's tool cost as its last probe measured it (max_tool_tokens narrows by it). */
  private indexListings(rows: ListingRow[], tokens: Map<string, number>): void {
    this.engine.index(rows.map((r) => listingDoc(r, tokens.get(r.id))));
    for (const r of rows) this.ranks.set(listingDocId(r.id), r.rank);
  }

  /** The trust signal of a document (listings: their rank; catalog entries: none). */
  trust = (docId: string): number => this.ranks.get(docId) ?? 0;

  private async refreshCatalog(names: string[]): Promise<void> {
    if (!names.length) return;
    const entries = await findCatalogEntries(this.db, names);
    await this.indexCatalog(entries);
    const present = new Set(entries.map((e) => e.name));
    this.engine.remove(names.filter((n) => !present.has(n)).map(catalogDocId));
  }

  private async indexCatalog(entries: CatalogEntry[]): Promise<void> {
    const health = await healthFactsOf(this.db, entries);
    this.engine.index(entries.map((e) => catalogDoc(e, health.get(e.name))));
  }

  /** Logs a query (text and hit count, never the caller) without making the search wait; a failed insert is only a warning. */
  logQuery(entry: { text: string; hits: number; tool: string }, at: string): void {
    const insert: Promise<void> = logQuery(this.db, entry, at)
      .catch((err) => this.log.warn({ err }, 'search query not logged'))
      .finally(() => this.logging.delete(insert));
    this.logging.add(insert);
  }

  start(): void {
    if (this.options.pollMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.poll().catch((err) => this.log.error({ err }, 'search index poll failed'));
    }, this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.polling?.catch(() => undefined);
    await Promise.all(this.logging);
  }
}
