// The index's words as written (not stemmed) and how many documents contain each: spelling fixes
// and completions are looked up here, exactly (a Map) or by prefix and edit distance (a radix
// tree). Each word has a small id, so a document keeps its words as integers (to take them out
// again when it leaves) instead of its text.
import SearchableMap from 'minisearch/SearchableMap';

export class SurfaceWords {
  private readonly ids = new Map<string, number>();
  private readonly words: (string | undefined)[] = [];
  private readonly counts: number[] = [];
  private readonly free: number[] = [];
  /**
   * word -> its id, for prefix and fuzzy lookups (`count` has its documents). Set once per word,
   * not once per document that contains it: that was a radix-tree walk per word of every document.
   */
  readonly tree = new SearchableMap<number>();

  get size(): number {
    return this.ids.size;
  }

  /** Documents that contain the word (0 when none). */
  count(word: string): number {
    const id = this.ids.get(word);
    return id === undefined ? 0 : this.counts[id]!;
  }

  /** One more document contains the word; returns its id. */
  add(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.free.pop() ?? this.words.length;
      this.ids.set(word, id);
      this.words[id] = word;
      this.counts[id] = 0;
      this.tree.set(word, id);
    }
    this.counts[id]! += 1;
    return id;
  }

  /** One document fewer contains the word of this id; the word goes when none does. */
  release(id: number): void {
    const word = this.words[id];
    if (word === undefined) return;
    const n = this.counts[id]! - 1;
    if (n > 0) {
      this.counts[id] = n;
      return;
    }
    this.ids.delete(word);
    this.tree.delete(word);
    this.words[id] = undefined;
    this.counts[id] = 0;
    this.free.push(id);
  }

  /** Every word with its count, for tests that compare two indexes. */
  entries(): [string, number][] {
    return [...this.ids].map(([w, id]) => [w, this.counts[id]!]);
  }
}
