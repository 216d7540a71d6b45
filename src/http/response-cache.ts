// Serialized responses of hot read routes, keyed by route and parsed input, valid while the change
// feed has not moved and for at most a short lifetime (fields derived from the clock stay true).
// The ETag is a hash of the bytes, so a client revalidating unchanged content gets a 304.
import { createHash } from 'node:crypto';

interface Entry {
  version: number;
  at: number;
  /** Encoded once: sending a Buffer skips re-encoding and re-measuring a large string per request. */
  body: Buffer;
  etag: string;
}

/** Bounds on what the cache holds, so varied queries cannot grow it without end. */
const MAX_ENTRIES = 64;
const MAX_BYTES = 64 * 1024 * 1024;

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  constructor(private readonly maxAgeMs: number) {}

  get(key: string, version: number, now: number): Entry | undefined {
    const e = this.entries.get(key);
    return e && e.version === version && now - e.at < this.maxAgeMs ? e : undefined;
  }

  set(key: string, version: number, now: number, value: unknown): Entry {
    const body = Buffer.from(JSON.stringify(value));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const entry = { version, at: now, body, etag };
    this.remove(key);
    this.entries.set(key, entry);
    this.bytes += body.length;
    // Oldest first out; the newest entry always stays.
    while (this.entries.size > 1 && (this.entries.size > MAX_ENTRIES || this.bytes > MAX_BYTES)) this.remove(this.entries.keys().next().value!);
    return entry;
  }

  private remove(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.body.length;
    this.entries.delete(key);
  }
}

/** True when an If-None-Match header names this ETag (weak or strong, or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === etag || tag === '*';
  });
}
