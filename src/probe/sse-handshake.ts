// The MCP handshake over the legacy HTTP+SSE transport (protocol 2024-11-05), which many registry
// remotes still serve: GET the event stream, read its `endpoint` event, POST each message there and
// read each answer back from the stream. The stream stays open through the whole exchange and is
// cut when it is done. Every request goes through the guarded client (its budget admission, its
// limits); the posts ride on the stream's host slot, so one check holds one slot of the host.
import { type Fetcher, OutboundError, type OutboundResponse } from '../platform/net/guarded-client.ts';
import { CLIENT_INFO, completed, isObj, listTools, type McpHandshake } from './mcp-exchange.ts';
import type { RpcReply } from './rpc.ts';

export const SSE_VERSION = '2024-11-05';

type Message = NonNullable<RpcReply['message']>;

/** Reads `event:`/`data:` blocks from chunks as they come (a block may straddle chunks). */
function eventReader(onEvent: (event: string, data: string, bytes: number) => void): (chunk: Buffer) => void {
  const decoder = new TextDecoder();
  let pending = '';
  return (chunk) => {
    pending += decoder.decode(chunk, { stream: true });
    for (let at = pending.search(/\r?\n\r?\n/); at >= 0; at = pending.search(/\r?\n\r?\n/)) {
      const block = pending.slice(0, at);
      pending = pending.slice(at).replace(/^\r?\n\r?\n/, '');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) onEvent(event, data.join('\n'), Buffer.byteLength(block));
    }
  };
}

const failed = (detail: string, extra: Partial<McpHandshake> = {}): McpHandshake => ({ ok: false, tools: [], latencyMs: null, spokeJsonRpc: false, transport: 'sse', detail, ...extra });

/** The handshake over HTTP+SSE at `url` (the stream's URL). */
export async function sseHandshake(client: Fetcher, url: string): Promise<McpHandshake> {
  const stop = new AbortController();
  const started = Date.now();
  let endpoint: ((url: string) => void) | undefined;
  const endpointSeen = new Promise<string>((resolve) => {
    endpoint = resolve;
  });
  const waiting = new Map<unknown, (m: Message) => void>();
  let streamOpen = false;
  const read = eventReader((event, data) => {
    if (event === 'endpoint') return endpoint?.(data.trim());
    try {
      const message = JSON.parse(data) as Message;
      if (isObj(message) && ('result' in message || 'error' in message)) waiting.get(message.id)?.(message);
    } catch {
      /* not JSON: not an answer */
    }
  });
  const stream = client.fetch(url, {
    method: 'GET',
    headers: { accept: 'text/event-stream' },
    signal: stop.signal,
    until: (headers) => {
      if (!(headers['content-type'] ?? '').toLowerCase().includes('text/event-stream')) return undefined;
      streamOpen = true;
      return (chunk) => {
        read(chunk);
        return false; // read until the exchange is done and the stream is cut
      };
    },
  });
  // The stream ends (an answer that is not a stream, an error) or names its endpoint, whichever first.
  let endedWith: OutboundError | undefined;
  const ended = stream.then(
    (res): { res: OutboundResponse } => ({ res }),
    (err: unknown): { err: OutboundError } => {
      endedWith = err instanceof OutboundError ? err : new OutboundError('unreachable', String(err));
      return { err: endedWith };
    },
  );
  try {
    const first = await Promise.race([endpointSeen.then((at) => ({ at })), ended]);
    if ('res' in first) {
      const { status, headers } = first.res;
      const challenge = headers['www-authenticate'];
      if ((status === 401 || status === 403) && challenge) return failed('the server requires authorization', { auth: { resourceMetadata: /resource_metadata="([^"]+)"/i.exec(challenge)?.[1] } });
      return failed(streamOpen ? 'the event stream ended before naming its endpoint' : `GET answered HTTP ${status} without an event stream`, { httpStatus: status });
    }
    if ('err' in first) return failed(first.err.message, { error: first.err });
    let target: URL;
    try {
      target = new URL(first.at, url);
    } catch {
      return failed('the endpoint event is not a URL', { spokeJsonRpc: true });
    }
    // The endpoint must be on the stream's own origin: a stranger's server may not send us elsewhere.
    if (target.origin !== new URL(url).origin) return failed(`the endpoint event names another origin (${target.origin})`, { spokeJsonRpc: true });

    const exchange = async (message: Record<string, unknown>): Promise<Message | undefined> => {
      const answered = 'id' in message ? new Promise<Message>((resolve) => waiting.set(message.id, resolve)) : undefined;
      // sameOrigin: a redirect may not carry the post to another origin either.
      const posted = await client.fetch(target.toString(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message), signal: stop.signal, slotHeld: true, sameOrigin: true });
      if (posted.status >= 400) throw new OutboundError('unreachable', `the endpoint answered HTTP ${posted.status}`);
      if (!answered) return undefined;
      const settled = await Promise.race([answered, ended.then(() => undefined)]);
      waiting.delete(message.id);
      // The stream failed before the answer came (a timeout, the body limit): that is the outcome.
      if (!settled && endedWith) throw endedWith;
      return settled;
    };
    const init = await exchange({ jsonrpc: '2.0', id: 'rc-init', method: 'initialize', params: { protocolVersion: SSE_VERSION, capabilities: {}, clientInfo: CLIENT_INFO } });
    const latencyMs = Date.now() - started;
    const result = init?.result;
    if (!isObj(result) || typeof result.protocolVersion !== 'string') {
      return failed(init?.error ? `initialize failed: ${String(init.error.message ?? init.error.code)}` : 'initialize got no JSON-RPC result on the stream', { spokeJsonRpc: Boolean(init) });
    }
    await exchange({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const listed = await listTools(async (cursor) => {
      // A stream past the body limit before the list was whole throws too_large: a list too large to read.
      const message = await exchange({ jsonrpc: '2.0', id: `rc-tools-${cursor ?? 0}`, method: 'tools/list', params: cursor ? { cursor } : {} });
      return { http: { url: target.toString(), status: 200, headers: {}, body: Buffer.alloc(0), redirects: [], elapsedMs: 0, text: () => '' }, message };
    });
    const info = isObj(result.serverInfo) ? result.serverInfo : {};
    return completed(result.protocolVersion, info, result, listed, { latencyMs, endpoint: url, transport: 'sse' });
  } catch (err) {
    const error = err instanceof OutboundError ? err : new OutboundError('unreachable', String(err));
    return failed(error.message, { error, spokeJsonRpc: true });
  } finally {
    stop.abort();
    await ended;
  }
}
