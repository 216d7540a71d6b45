// This instance's index of Live listings' skills and tools, one search document per skill or tool,
// so the search engine (src/search/engine.ts: stemming, synonyms, spelling, its relevance floor)
// says which of a listing's capabilities serves an asked one, not only that the listing does.
// Filled lazily: a listing is (re)indexed when a call meets it as a candidate with capabilities
// that differ from what was indexed; a query only sees the candidates it names (filter.ids), so
// listings that left meanwhile are never answered from here.
import { SearchEngine, type SearchHit } from '../search/engine.ts';
import type { ListingRow } from '../listings/store.ts';
import { storedItems, type StoredItem } from './coverage.ts';

/** Past this many indexed skills and tools the cache starts over (memory stays bounded). */
const MAX_DOCS = 200_000;

interface Indexed {
  /** The stored capabilities JSON the documents were built from. */
  source: string | null;
  items: StoredItem[];
}

export interface ItemHit {
  listing_id: string;
  item: StoredItem;
  /** 0-100 relative to the best hit of the same query among the candidates. */
  score: number;
  relevance: number;
  why: string[];
}

const itemDocId = (listingId: string, i: number) => `${listingId}#${i}`;

export class CapabilityIndex {
  private engine = new SearchEngine();
  private readonly listings = new Map<string, Indexed>();
  private docs = 0;

  /** Makes sure each row's current skills or tools are indexed. */
  ensure(rows: readonly ListingRow[]): void {
    // Checked once per call, so a reset never drops what this call indexed a moment ago.
    if (this.docs > MAX_DOCS) this.reset();
    for (const row of rows) {
      const known = this.listings.get(row.id);
      if (known && known.source === row.capabilities) continue;
      const old = this.listings.get(row.id);
      if (old) {
        this.engine.remove(old.items.map((_, i) => itemDocId(row.id, i)));
        this.docs -= old.items.length;
      }
      const items = storedItems(row.capabilities);
      this.engine.index(
        items.map((item, i) => ({
          id: itemDocId(row.id, i),
          kind: row.kind,
          source: 'listing' as const,
          name: item.name,
          ...(item.title ? { title: item.title } : {}),
          description: item.description ?? '',
          capabilities: [item.name, ...(item.title ? [item.title] : [])],
          tags: item.tags ?? [],
        })),
      );
      this.listings.set(row.id, { source: row.capabilities, items });
      this.docs += items.length;
    }
  }

  /** The skills and tools of `listingIds` (indexed with ensure) that match `text`, best first. */
  query(text: string, listingIds: readonly string[], limit: number): ItemHit[] {
    const ids = new Set<string>();
    for (const id of listingIds) {
      const n = this.listings.get(id)?.items.length ?? 0;
      for (let i = 0; i < n; i++) ids.add(itemDocId(id, i));
    }
    if (ids.size === 0) return [];
    return this.engine.query(text, { ids }, limit).flatMap((h: SearchHit) => {
      const cut = h.id.lastIndexOf('#');
      const listingId = h.id.slice(0, cut);
      const item = this.listings.get(listingId)?.items[Number(h.id.slice(cut + 1))];
      return item ? [{ listing_id: listingId, item, score: h.score, relevance: h.relevance, why: h.why }] : [];
    });
  }

  private reset(): void {
    this.engine = new SearchEngine();
    this.listings.clear();
    this.docs = 0;
  }
}

/** The mesh domain's runtime objects (in the services bundle). */
export interface MeshRuntime {
  capabilities: CapabilityIndex;
}
