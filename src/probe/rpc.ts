// JSON-RPC over HTTP for probes: one POST through the guarded client, the answer read from a JSON
// body or from a server-sent event stream (streamable HTTP servers may answer either way).
import type { Fetcher, OutboundResponse } from '../platform/net/guarded-client.ts';

export interface RpcReply {
  http: OutboundResponse;
  /** The JSON-RPC response with our id, when one came back. */
  message?: { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
}

/** The `data:` payloads of an SSE body, one per event. */
export function sseEvents(text: string): string[] {
  const events: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''));
    if (data.length) events.push(data.join('\n'));
  }
  return events;
}

function findReply(candidates: unknown[], id: unknown): RpcReply['message'] {
  for (const c of candidates.flat()) {
    if (typeof c === 'object' && c !== null && (c as { id?: unknown }).id === id && ('result' in c || 'error' in c)) return c as RpcReply['message'];
  }
  return undefined;
}

const isEventStream = (headers: Record<string, string>) => (headers['content-type'] ?? '').toLowerCase().includes('text/event-stream');

export const parseRpcBody = (http: OutboundResponse, id: unknown): RpcReply['message'] => parseFromText(http.text(), id, isEventStream(http.headers));

/**
 * Reads an event stream chunk by chunk and says when the answer with `id` has arrived. Each byte
 * is looked at once (a server sending tiny chunks cannot make this quadratic).
 */
export function answerSpotter(id: unknown): (chunk: Buffer) => boolean {
  const decoder = new TextDecoder();
  const boundary = /\r?\n\r?\n/g;
  let pending = '';
  return (chunk) => {
    // A boundary can straddle chunks: look back 3 characters, no further.
    boundary.lastIndex = Math.max(0, pending.length - 3);
    pending += decoder.decode(chunk, { stream: true });
    let found = false;
    for (let hit = boundary.exec(pending); hit; hit = boundary.exec(pending)) {
      const event = pending.slice(0, hit.index);
      pending = pending.slice(hit.index + hit[0].length);
      boundary.lastIndex = 0;
      if (parseFromText(`${event}\n\n`, id, true) !== undefined) found = true;
    }
    return found;
  };
}

function parseFromText(text: string, id: unknown, sse: boolean): RpcReply['message'] {
  const candidates: unknown[] = [];
  const tryParse = (s: string) => {
    try {
      candidates.push(JSON.parse(s));
    } catch {
      /* not JSON: not a candidate */
    }
  };
  if (sse) sseEvents(text).forEach(tryParse);
  else tryParse(text);
  return findReply(candidates, id);
}

export async function postRpc(client: Fetcher, url: string, message: Record<string, unknown>, headers: Record<string, string> = {}): Promise<RpcReply> {
  const http = await client.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
    // A server may keep its event stream open after answering: stop once our answer is in.
    until: (headers) => ('id' in message && isEventStream(headers) ? answerSpotter(message.id) : undefined),
  });
  return { http, message: 'id' in message ? parseRpcBody(http, message.id) : undefined };
}
