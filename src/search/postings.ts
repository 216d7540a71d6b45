// The inverted index: per term and field, the documents (slots) that contain it and how often,
// scored with MiniSearch's BM25+ (same formula and parameters). Our own rather than MiniSearch's
// search because an OR query over common terms there allocates a result object per matching
// document: p99 of 640 ms at 100,000 entries, where this flat loop over arrays takes a few ms
// (docs/decisions.md "Search (issue 11)").

/** MiniSearch's defaults: k term-frequency saturation, b length normalisation, d the BM25+ floor. */
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** Slots a query has scored so far: a reused buffer of `capacity` entries and how many are used. */
export interface Touched {
  slots: Int32Array;
  length: number;
}

/**
 * One field's postings of a term: each entry is `slot * 64 + tf` (tf capped at 63, where BM25's
 * saturation has long flattened it), one small integer instead of two, which halves the largest
 * part of the index (3 million entries at 100,000 catalog entries).
 */
type FieldPosting = number[];
const TF_BITS = 6;
const TF_MAX = (1 << TF_BITS) - 1;
/** Slots must fit beside the tf in a small integer (2^31): far beyond any catalog held in memory. */
const MAX_SLOTS = 2 ** (31 - TF_BITS);
const entry = (slot: number, tf: number) => slot * (TF_MAX + 1) + Math.min(tf, TF_MAX);

/** A term's postings per field, and the one copy of the term string every slot refers to. */
interface TermPostings {
  term: string;
  fields: (FieldPosting | undefined)[];
}

export class PostingIndex {
  private readonly postings = new Map<string, TermPostings>();
  private readonly slotOf = new Map<string, number>();
  private readonly ids: (string | undefined)[] = [];
  private readonly free: number[] = [];
  /** per field, per slot: number of terms */
  private readonly lengths: number[][];
  private readonly totalLength: number[];
  /**
   * per slot: its unique terms (to match a hit's words and to take it out again). They are the
   * postings' own strings, not the document's: 100,000 entries each kept ~50 copies of strings the
   * index already held.
   */
  private readonly slotTerms: (string[] | undefined)[] = [];
  private count = 0;

  constructor(readonly fieldCount: number) {
    this.lengths = Array.from({ length: fieldCount }, () => []);
    this.totalLength = new Array<number>(fieldCount).fill(0);
  }

  get size(): number {
    return this.count;
  }

  /** Slots are reused: scratch arrays sized by `capacity` cover every slot. */
  get capacity(): number {
    return this.ids.length;
  }

  idAt(slot: number): string | undefined {
    return this.ids[slot];
  }

  slot(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  termsAt(slot: number): readonly string[] {
    return this.slotTerms[slot] ?? [];
  }

  /** Adds a document given its terms per field (in order, repeats counted). The id must be new. */
  add(id: string, fields: readonly (readonly string[])[]): number {
    const slot = this.free.pop() ?? this.ids.length;
    if (slot >= MAX_SLOTS) throw new Error(`the in-memory index holds at most ${MAX_SLOTS} documents`);
    this.ids[slot] = id;
    this.slotOf.set(id, slot);
    const unique = new Set<string>();
    for (let f = 0; f < this.fieldCount; f++) {
      const terms = fields[f] ?? [];
      this.lengths[f]![slot] = terms.length;
      this.totalLength[f]! += terms.length;
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let per = this.postings.get(t);
        if (!per) {
          per = { term: t, fields: new Array<FieldPosting | undefined>(this.fieldCount) };
          this.postings.set(t, per);
        }
        unique.add(per.term);
        let p = per.fields[f];
        if (!p) {
          p = [];
          per.fields[f] = p;
        }
        p.push(entry(slot, n));
      }
    }
    this.slotTerms[slot] = [...unique];
    this.count++;
    return slot;
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    for (const t of this.slotTerms[slot] ?? []) {
      const per = this.postings.get(t);
      if (!per) continue;
      let empty = true;
      for (let f = 0; f < this.fieldCount; f++) {
        const p = per.fields[f];
        if (!p) continue;
        const i = p.findIndex((e) => e >>> TF_BITS === slot);
        if (i >= 0) {
          p[i] = p[p.length - 1]!;
          p.pop();
        }
        if (p.length === 0) per.fields[f] = undefined;
        else empty = false;
      }
      if (empty) this.postings.delete(t);
    }
    for (let f = 0; f < this.fieldCount; f++) {
      this.totalLength[f]! -= this.lengths[f]![slot] ?? 0;
      this.lengths[f]![slot] = 0;
    }
    this.slotTerms[slot] = undefined;
    this.ids[slot] = undefined;
    this.slotOf.delete(id);
    this.free.push(slot);
    this.count--;
    return true;
  }

  /**
   * Adds `weight * boost[f] * BM25+(term, f)` to `scores[slot]` for every document with the term in
   * a field of `fields`; slots seen for the first time (score 0 before) are appended to `touched`.
   */
  accumulate(term: string, fields: readonly number[], boost: readonly number[], weight: number, scores: Float64Array, touched: Touched): void {
    const per = this.postings.get(term);
    if (!per || this.count === 0) return;
    for (const f of fields) {
      const p = per.fields[f];
      if (!p) continue;
      const n = p.length;
      const idf = Math.log(1 + (this.count - n + 0.5) / (n + 0.5));
      const avg = this.totalLength[f]! / this.count || 1;
      const lens = this.lengths[f]!;
      const w = weight * boost[f]! * idf;
      for (let i = 0; i < n; i++) {
        const e = p[i]!;
        const s = e >>> TF_BITS;
        const tf = e & TF_MAX;
        const add = w * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lens[s]!) / avg)));
        if (scores[s] === 0) touched.slots[touched.length++] = s;
        scores[s]! += add;
      }
    }
  }
}
