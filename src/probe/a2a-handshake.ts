// Proves an agent's declared endpoint speaks A2A JSON-RPC without side effects: a method nobody
// implements must come back as JSON-RPC -32601. The A2A-Version header names the card's version
// (an absent header means 0.3 to a v1 server, which would answer -32009 instead).
import type { Fetcher } from '../platform/net/guarded-client.ts';
import { OutboundError } from '../platform/net/guarded-client.ts';
import { postRpc } from './rpc.ts';

export interface A2aHandshake {
  ok: boolean;
  latencyMs: number | null;
  spokeJsonRpc: boolean;
  auth?: { resourceMetadata?: string };
  error?: OutboundError;
  detail?: string;
}

export async function a2aHandshake(client: Fetcher, endpoint: string, protocol: '0.3' | '1.0'): Promise<A2aHandshake> {
  try {
    const reply = await postRpc(client, endpoint, { jsonrpc: '2.0', id: 'rc-probe', method: 'rollcall/probe', params: {} }, { 'a2a-version': protocol });
    const { status, headers, elapsedMs } = reply.http;
    if ((status === 401 || status === 403) && headers['www-authenticate']) {
      return { ok: false, latencyMs: null, spokeJsonRpc: false, auth: {}, detail: 'the agent endpoint requires authorization' };
    }
    const code = reply.message?.error?.code;
    if (code === -32601) return { ok: true, latencyMs: elapsedMs, spokeJsonRpc: true };
    return {
      ok: false,
      latencyMs: null,
      spokeJsonRpc: Boolean(reply.message),
      detail: reply.message
        ? `an unknown method should answer JSON-RPC -32601; the endpoint answered ${code !== undefined ? `error ${String(code)}` : 'a result'}`
        : `the endpoint answered HTTP ${status} without JSON-RPC`,
    };
  } catch (err) {
    const error = err instanceof OutboundError ? err : new OutboundError('unreachable', String(err));
    return { ok: false, latencyMs: null, spokeJsonRpc: false, error, detail: error.message };
  }
}
