// Answers of hot reads (operations with `cacheMs`), kept by each door in its own serialized form:
// keyed by the door's key (route or tool and input), valid while the change feed has not moved and
// for at most the operation's lifetime (fields derived from the clock stay true). A REST answer's
// ETag is a hash of its bytes, so a client revalidating unchanged content gets a 304.
import { createHash } from 'node:crypto';

interface Entry<T> {
  version: number;
  expires: number;
  value: T;
  bytes: number;
}

/** Bounds on what one door's cache holds, so varied queries cannot grow it without end. */
const MAX_ENTRIES = 2048;
const MAX_BYTES = 32 * 1024 * 1024;

export class AnswerCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  get(key: string, version: number, now: number): T | undefined {
    const e = this.entries.get(key);
    return e && e.version === version && now < e.expires ? e.value : undefined;
  }

  /** Keeps `value` (`bytes` long) for `maxAgeMs` from `now`; returns it. */
  set(key: string, version: number, now: number, maxAgeMs: number, value: T, bytes: number): T {
    this.remove(key);
    this.entries.set(key, { version, expires: now + maxAgeMs, value, bytes });
    this.bytes += bytes;
    // Oldest first out: what has expired, then whatever exceeds the bounds; the newest entry always stays.
    for (const [k, e] of this.entries) {
      const over = this.entries.size > MAX_ENTRIES || this.bytes > MAX_BYTES;
      if (k === key || (!over && now < e.expires)) break;
      this.remove(k);
    }
    return value;
  }

  private remove(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.bytes;
    this.entries.delete(key);
  }
}

/** A REST answer encoded once (sending a Buffer skips re-encoding a large string per request) and its ETag. */
export interface EncodedAnswer {
  body: Buffer;
  etag: string;
}

export function encodeAnswer(value: unknown): EncodedAnswer {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** True when an If-None-Match header names this ETag (weak or strong, or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === etag || tag === '*';
  });
}
