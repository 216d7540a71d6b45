// A short list of small integers per index slot (a document's term ids, its surface-word ids), kept
// in pooled Int32Array chunks: at 100,000 catalog entries a JS array per slot cost 8 bytes per
// entry plus a header each, where a chunk costs 4. Chunks never grow (a growing pool leaves its old
// copies behind as garbage until the next full collection, which is what a process's RSS shows
// right after it indexed a large catalog). A cleared or replaced list leaves a hole; the chunks are
// compacted when the holes outgrow the lists still in use.

/** Ints per chunk (256 KB); a longer list gets a chunk of its own. */
const CHUNK = 1 << 16;

export class SlotLists {
  private chunks: Int32Array[] = [];
  /** ints used of the last chunk */
  private used = 0;
  private live = 0;
  private holes = 0;
  /** per slot: its chunk, offset in the chunk and length */
  private chunkOf = new Int32Array(0);
  private starts = new Int32Array(0);
  private lengths = new Int32Array(0);

  /** The chunk that holds the slot's list: its values are `data(slot)[begin(slot) .. end(slot))`. */
  data(slot: number): Int32Array {
    return this.chunks[this.chunkOf[slot] ?? 0] ?? EMPTY;
  }

  begin(slot: number): number {
    return slot < this.starts.length ? this.starts[slot]! : 0;
  }

  end(slot: number): number {
    return slot < this.starts.length ? this.starts[slot]! + this.lengths[slot]! : 0;
  }

  /** Replaces the slot's list with the first `count` values. */
  set(slot: number, values: ArrayLike<number>, count = values.length): void {
    this.clear(slot);
    if (slot >= this.starts.length) {
      const size = Math.max(1024, slot + 1, this.starts.length * 2);
      this.chunkOf = grown(this.chunkOf, size);
      this.starts = grown(this.starts, size);
      this.lengths = grown(this.lengths, size);
    }
    if (this.holes > CHUNK && this.holes > this.live) this.compact();
    const [chunk, at] = this.room(count);
    const data = this.chunks[chunk]!;
    for (let i = 0; i < count; i++) data[at + i] = values[i]!;
    this.chunkOf[slot] = chunk;
    this.starts[slot] = at;
    this.lengths[slot] = count;
    this.live += count;
  }

  clear(slot: number): void {
    if (slot >= this.lengths.length) return;
    this.holes += this.lengths[slot]!;
    this.live -= this.lengths[slot]!;
    this.lengths[slot] = 0;
  }

  /** Where `count` ints go: the end of the last chunk, or a new one. */
  private room(count: number): [chunk: number, at: number] {
    const last = this.chunks.length - 1;
    if (last >= 0 && this.used + count <= this.chunks[last]!.length) {
      this.used += count;
      return [last, this.used - count];
    }
    this.chunks.push(new Int32Array(Math.max(CHUNK, count)));
    this.used = count;
    return [last + 1, 0];
  }

  /** Copies every list into fresh chunks, in slot order. */
  private compact(): void {
    const old = this.chunks;
    this.chunks = [];
    this.used = 0;
    for (let slot = 0; slot < this.starts.length; slot++) {
      const n = this.lengths[slot]!;
      if (n === 0) continue;
      const from = this.starts[slot]!;
      const [chunk, at] = this.room(n);
      this.chunks[chunk]!.set(old[this.chunkOf[slot]!]!.subarray(from, from + n), at);
      this.chunkOf[slot] = chunk;
      this.starts[slot] = at;
    }
    this.holes = 0;
  }
}

const EMPTY = new Int32Array(0);

/** A copy of `a` with room for `size` entries (zero-filled beyond `a`). */
export function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size);
  next.set(a.length <= size ? a : a.subarray(0, size));
  return next;
}
