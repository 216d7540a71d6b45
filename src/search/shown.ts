// What the index keeps of each document to show it in a hit: kind and source as one byte per slot
// (the filters read them for every candidate, and the health facts search narrows by beside them),
// and the few display fields packed into one string.
// Not the whole document: its tags and the rest of a long description are only searched, and at
// 100,000 catalog entries keeping every document whole was about a third of the index.

/** A hit shows at most this much of a description (a listing's joins its tools' descriptions). */
export const SHOWN_DESCRIPTION_CHARS = 300;

/** The part of a search document a hit shows. */
export interface ShownDoc {
  id: string;
  kind: 'agent' | 'mcp';
  source: 'listing' | 'catalog';
  name: string;
  title?: string;
  /** the first SHOWN_DESCRIPTION_CHARS characters */
  description: string;
  capabilities: string[];
  url?: string;
}

/**
 * What the index knows of a document's measured health, for narrowing (ard_search's live_only,
 * remote_only, max_tool_tokens). `toolTokens`: the tool list's estimated tokens, null when none was
 * measured (an agent, a server not live).
 */
export interface DocHealth {
  live: boolean;
  remote: boolean;
  toolTokens: number | null;
}

/** What a query may ask of a document's health; a document the index has no health for passes none of it. */
export interface HealthFilter {
  live?: boolean;
  remote?: boolean;
  maxToolTokens?: number;
}

const AGENT = 1;
const LISTING = 2;
const LIVE = 4;
const REMOTE = 8;
/** Tool tokens of a slot: -1 none measured (fails a max_tool_tokens narrowing). */
const NO_TOKENS = -1;

/**
 * Fields in one flat string: their lengths (-1: absent), ';', then the fields one after the other
 * ("4,-1,9,-1;slackMessages"). Not JSON: V8 builds JSON.stringify's result as a tree of string
 * pieces, which kept about twice the bytes of the text.
 */
function pack(fields: readonly (string | undefined)[]): string {
  const parts = [fields.map((f) => (f === undefined ? -1 : f.length)).join(','), ';'];
  for (const f of fields) if (f !== undefined) parts.push(f);
  return parts.join('');
}

function unpack(packed: string): (string | undefined)[] {
  const head = packed.indexOf(';');
  let at = head + 1;
  return packed
    .slice(0, head)
    .split(',')
    .map((length) => {
      const n = Number(length);
      if (n < 0) return undefined;
      at += n;
      return packed.slice(at - n, at);
    });
}

export class ShownDocs {
  private flags = new Uint8Array(0);
  private tokens = new Int32Array(0);
  private readonly packed: (string | undefined)[] = [];

  set(slot: number, doc: ShownDoc & { health?: DocHealth }): void {
    if (slot >= this.flags.length) {
      const size = Math.max(1024, slot + 1, this.flags.length * 2);
      const flags = new Uint8Array(size);
      flags.set(this.flags);
      this.flags = flags;
      const tokens = new Int32Array(size);
      tokens.set(this.tokens);
      this.tokens = tokens;
    }
    this.flags[slot] = (doc.kind === 'agent' ? AGENT : 0) | (doc.source === 'listing' ? LISTING : 0);
    this.setHealth(slot, doc.health);
    this.packed[slot] = pack([doc.name, doc.title, doc.description.slice(0, SHOWN_DESCRIPTION_CHARS), doc.url, ...doc.capabilities]);
  }

  /** A document's health facts change without its text: set them alone. */
  setHealth(slot: number, health: DocHealth | undefined): void {
    this.flags[slot] = (this.flags[slot]! & (AGENT | LISTING)) | (health?.live ? LIVE : 0) | (health?.remote ? REMOTE : 0);
    this.tokens[slot] = health?.toolTokens ?? NO_TOKENS;
  }

  /** Whether a slot's health passes what a query asks. */
  healthPasses(slot: number, filter: HealthFilter): boolean {
    const flags = this.flags[slot]!;
    if (filter.live && !(flags & LIVE)) return false;
    if (filter.remote && !(flags & REMOTE)) return false;
    if (filter.maxToolTokens !== undefined) {
      const tokens = this.tokens[slot]!;
      if (!(flags & LIVE) || tokens === NO_TOKENS || tokens > filter.maxToolTokens) return false;
    }
    return true;
  }

  clear(slot: number): void {
    this.packed[slot] = undefined;
  }

  kind(slot: number): ShownDoc['kind'] {
    return this.flags[slot]! & AGENT ? 'agent' : 'mcp';
  }

  source(slot: number): ShownDoc['source'] {
    return this.flags[slot]! & LISTING ? 'listing' : 'catalog';
  }

  get(slot: number, id: string): ShownDoc {
    const [name, title, description, url, ...capabilities] = unpack(this.packed[slot]!);
    return {
      id,
      kind: this.kind(slot),
      source: this.source(slot),
      name: name!,
      ...(title !== undefined ? { title } : {}),
      description: description!,
      capabilities: capabilities as string[],
      ...(url !== undefined ? { url } : {}),
    };
  }
}
