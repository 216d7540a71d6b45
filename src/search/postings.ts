// The inverted index: per term and field, the documents (slots) that contain it and how often,
// scored with MiniSearch's BM25+ (same formula and parameters). Our own rather than MiniSearch's
// search because an OR query over common terms there allocates a result object per matching
// document: p99 of 640 ms at 100,000 entries, where this flat loop over arrays takes a few ms
// (docs/decisions/search-memory.md). Terms have small integer ids, so what each slot keeps
// (its terms, its field lengths) lives in typed arrays rather than in a JS array per document.
import { SlotLists, grown } from './slot-lists.ts';

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
 * Each posting is `slot * 64 + tf` (tf capped at 63, where BM25's saturation has long flattened
 * it), one small integer instead of two.
 */
const TF_BITS = 6;
const TF_MAX = (1 << TF_BITS) - 1;
/** Slots must fit beside the tf in an int32: far beyond any catalog held in memory. */
const MAX_SLOTS = 2 ** (31 - TF_BITS);
const entry = (slot: number, tf: number) => slot * (TF_MAX + 1) + Math.min(tf, TF_MAX);
/**
 * A list starts as a JS array (most terms are rare, and a typed array's header costs more than a
 * few entries) and moves to an Int32Array, half the bytes per posting, once it is this long.
 */
const TYPED_FROM = 32;

/** One field's postings of a term; `data` may be longer than `length` (room to grow). */
interface FieldPosting {
  data: number[] | Int32Array;
  length: number;
}

function append(p: FieldPosting, e: number): void {
  if (p.length === p.data.length && p.length >= TYPED_FROM) {
    p.data = grown(p.data instanceof Int32Array ? p.data : Int32Array.from(p.data), p.length * 2);
  }
  p.data[p.length++] = e;
}

/** Takes the slot's posting out by moving the last one into its place. */
function removeSlot(p: FieldPosting, slot: number): void {
  const d = p.data;
  for (let i = 0; i < p.length; i++) {
    if (d[i]! >>> TF_BITS !== slot) continue;
    d[i] = d[p.length - 1]!;
    p.length--;
    if (Array.isArray(d)) d.pop();
    return;
  }
}

export class PostingIndex {
  private readonly termIds = new Map<string, number>();
  private readonly terms: (string | undefined)[] = [];
  private readonly freeTerms: number[] = [];
  /** per term id, per field */
  private readonly postings: (FieldPosting | undefined)[][] = [];
  /** per term id: documents that contain it in any field */
  private termDf = new Int32Array(0);
  private readonly slotOf = new Map<string, number>();
  private readonly ids: (string | undefined)[] = [];
  private readonly free: number[] = [];
  /** per slot and field (slot * fieldCount + field): number of terms */
  private lengths = new Int32Array(0);
  private readonly totalLength: number[];
  /** per slot: its unique term ids, in order of first appearance (to match a hit's words and to take it out again) */
  private readonly slotTerms = new SlotLists();
  private count = 0;
  /** Scratch of `add`, per term id: its count in the field being added, and the last add that met it. */
  private tf = new Int32Array(0);
  private seenBy = new Int32Array(0);
  private stamp = 0;
  /** Scratch of `add`: the field's distinct term ids, and the document's, in order of first appearance. */
  private fieldTerms = new Int32Array(64);
  private slotScratch = new Int32Array(64);

  constructor(readonly fieldCount: number) {
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

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }

  /** Documents that contain the term in any field. */
  df(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.termDf[id]!;
  }

  /** The slot's unique term ids are `termData(slot)[termsBegin(slot) .. termsEnd(slot))`. */
  termData(slot: number): Int32Array {
    return this.slotTerms.data(slot);
  }

  termsBegin(slot: number): number {
    return this.slotTerms.begin(slot);
  }

  termsEnd(slot: number): number {
    return this.slotTerms.end(slot);
  }

  /** Adds a document given its terms per field (in order, repeats counted). The id must be new. */
  add(id: string, fields: readonly (readonly string[])[]): number {
    const slot = this.free.pop() ?? this.ids.length;
    if (slot >= MAX_SLOTS) throw new Error(`the in-memory index holds at most ${MAX_SLOTS} documents`);
    this.ids[slot] = id;
    this.slotOf.set(id, slot);
    if ((slot + 1) * this.fieldCount > this.lengths.length) this.lengths = grown(this.lengths, Math.max(1024, this.lengths.length * 2));
    if (++this.stamp === 2 ** 31 - 1) {
      this.seenBy.fill(0);
      this.stamp = 1;
    }
    // Counted in scratch arrays by term id (no Map or Set per document: indexing a large catalog
    // allocated hundreds of megabytes of them).
    let unique = 0;
    for (let f = 0; f < this.fieldCount; f++) {
      const terms = fields[f] ?? [];
      this.lengths[slot * this.fieldCount + f] = terms.length;
      this.totalLength[f]! += terms.length;
      if (terms.length > this.fieldTerms.length) this.fieldTerms = new Int32Array(terms.length * 2);
      if (unique + terms.length > this.slotScratch.length) this.slotScratch = grown(this.slotScratch, (unique + terms.length) * 2);
      let distinct = 0;
      for (const t of terms) {
        const term = this.termIds.get(t) ?? this.newTerm(t);
        if (this.tf[term] === 0) this.fieldTerms[distinct++] = term;
        this.tf[term]!++;
        if (this.seenBy[term] !== this.stamp) {
          this.seenBy[term] = this.stamp;
          this.slotScratch[unique++] = term;
        }
      }
      for (let k = 0; k < distinct; k++) {
        const term = this.fieldTerms[k]!;
        const per = this.postings[term]!;
        let p = per[f];
        if (!p) {
          p = { data: [], length: 0 };
          per[f] = p;
        }
        append(p, entry(slot, this.tf[term]!));
        this.tf[term] = 0;
      }
    }
    for (let k = 0; k < unique; k++) this.termDf[this.slotScratch[k]!]!++;
    this.slotTerms.set(slot, this.slotScratch, unique);
    this.count++;
    return slot;
  }

  private newTerm(t: string): number {
    const term = this.freeTerms.pop() ?? this.terms.length;
    this.terms[term] = t;
    this.termIds.set(t, term);
    this.postings[term] = new Array<FieldPosting | undefined>(this.fieldCount);
    if (term >= this.termDf.length) {
      const size = Math.max(1024, this.termDf.length * 2);
      this.termDf = grown(this.termDf, size);
      this.tf = grown(this.tf, size);
      this.seenBy = grown(this.seenBy, size);
    }
    this.termDf[term] = 0;
    return term;
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const data = this.slotTerms.data(slot);
    for (let i = this.slotTerms.begin(slot), end = this.slotTerms.end(slot); i < end; i++) {
      const term = data[i]!;
      const per = this.postings[term]!;
      for (let f = 0; f < this.fieldCount; f++) {
        const p = per[f];
        if (!p) continue;
        removeSlot(p, slot);
        if (p.length === 0) per[f] = undefined;
      }
      this.termDf[term] = this.termDf[term]! - 1;
      if (this.termDf[term] === 0) {
        this.termIds.delete(this.terms[term]!);
        this.terms[term] = undefined;
        this.postings[term] = [];
        this.freeTerms.push(term);
      }
    }
    for (let f = 0; f < this.fieldCount; f++) {
      this.totalLength[f]! -= this.lengths[slot * this.fieldCount + f]!;
      this.lengths[slot * this.fieldCount + f] = 0;
    }
    this.slotTerms.clear(slot);
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
    const id = this.termIds.get(term);
    if (id === undefined || this.count === 0) return;
    const per = this.postings[id]!;
    const F = this.fieldCount;
    const lens = this.lengths;
    for (const f of fields) {
      const p = per[f];
      if (!p) continue;
      const n = p.length;
      const d = p.data;
      const idf = Math.log(1 + (this.count - n + 0.5) / (n + 0.5));
      const avg = this.totalLength[f]! / this.count || 1;
      const w = weight * boost[f]! * idf;
      for (let i = 0; i < n; i++) {
        const e = d[i]!;
        const s = e >>> TF_BITS;
        const tf = e & TF_MAX;
        const add = w * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lens[s * F + f]!) / avg)));
        if (scores[s] === 0) touched.slots[touched.length++] = s;
        scores[s]! += add;
      }
    }
  }
}
