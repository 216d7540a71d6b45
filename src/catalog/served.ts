// The server.json the registry API serves: the stored one (kept as received, which search and
// pages read in full) brought within the current server.json schema's limits, so a strict client
// of `/v0.1` can decode every entry. Upstream and file loads (the seed's old format above all) carry
// descriptions over 100 characters, empty ones, titles over 100 and packages with `version: ""`;
// each is mended the least it can be, and the text that was cut is returned for Rollcall's `_meta`.

/** server.json's `description` and `title` limit (characters, as JSON Schema counts them: code points). */
export const SERVED_TEXT_MAX = 100;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const codePoints = (s: string) => Array.from(s);

/**
 * `text` in at most `max` code points: whole when it fits, else cut after the last whole word that
 * leaves room for an ellipsis (mid-word only when one word is longer than the limit).
 */
export function cutAtWord(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = codePoints(flat);
  if (chars.length <= max) return flat;
  const room = chars.slice(0, max - 1).join('');
  const space = room.lastIndexOf(' ');
  const head = (space > room.length / 2 ? room.slice(0, space) : room).replace(/[\s,;:.\-–—]+$/u, '');
  return `${head}…`;
}

/** What was mended: the full text of a field that was cut or filled in. */
export interface ServedCuts {
  description?: string;
  title?: string;
}

/** A package with an empty or reserved version loses the version (the schema allows none, not ""). */
function servedPackage(p: unknown): unknown {
  if (!isObject(p) || typeof p.version !== 'string') return p;
  if (p.version.trim() !== '' && p.version !== 'latest') return p;
  const { version: _dropped, ...rest } = p;
  return rest;
}

/** The server.json to serve, and the full text of what had to be cut. */
export function servedServerJson(server: Json): { server: Json; cuts: ServedCuts } {
  const out: Json = { ...server };
  const cuts: ServedCuts = {};
  const description = typeof server.description === 'string' ? server.description : '';
  if (!description.trim()) {
    out.description = cutAtWord(String(server.name), SERVED_TEXT_MAX);
    if (description) cuts.description = description;
  } else if (codePoints(description).length > SERVED_TEXT_MAX) {
    out.description = cutAtWord(description, SERVED_TEXT_MAX);
    cuts.description = description;
  }
  if (typeof server.title === 'string') {
    if (!server.title.trim()) delete out.title;
    else if (codePoints(server.title).length > SERVED_TEXT_MAX) {
      out.title = cutAtWord(server.title, SERVED_TEXT_MAX);
      cuts.title = server.title;
    }
  }
  if (Array.isArray(server.packages)) out.packages = server.packages.map(servedPackage);
  return { server: out, cuts };
}
