// One call to a composition partner, through the guarded client the prober uses (a Fetcher bound
// to the step's deadline): MCP `tools/call` in the era the partner's probe recorded (2026-07-28:
// one request with the `_meta` envelope; older eras: initialize, initialized, the call, then the
// session ended), or A2A message/send (`SendMessage` with A2A-Version 1.0, `message/send` for 0.3).
// What comes back is untrusted data: only its text is kept, cleaned and capped, and it is never
// run or spliced into an instruction; it only becomes the next step's input text.
import { OutboundError, type Fetcher } from '../platform/net/guarded-client.ts';
import { postRpc, type RpcReply } from '../probe/rpc.ts';
import { LEGACY_VERSIONS, MODERN_VERSION } from '../probe/mcp-handshake.ts';
import { cleanText } from '../listings/text.ts';

/** A partner's answer is kept up to this many characters (what feeds the next step and is shown). */
export const MAX_ANSWER_CHARS = 2000;

export type CallFailure = 'timeout' | 'blocked_address' | 'unreachable' | 'too_large' | 'bad_answer' | 'partner_error' | 'auth_required' | 'downgrade_redirect' | 'host_budget' | 'invalid_arguments';

/** A tool's refusal of the arguments it was sent (JSON-RPC -32602 or the SDKs' validation text): the caller's values, not the partner's fault. */
const ARGUMENT_REFUSAL = /-32602|input validation|invalid arguments|invalid params/i;
/** -32602 is also an unknown tool: the partner no longer offers what the plan calls. */
const UNKNOWN_TOOL = /unknown tool|not found/i;
const argumentRefusal = (text: string): CallResult | undefined =>
  ARGUMENT_REFUSAL.test(text) && !UNKNOWN_TOOL.test(text) ? { ok: false, reason: 'invalid_arguments', detail: `the tool refused its arguments: ${JSON.stringify(cleanText(text, 200))}` } : undefined;

export type CallResult = { ok: true; text: string; truncated: boolean } | { ok: false; reason: CallFailure; detail: string };

const CLIENT_INFO = { name: 'rollcall-compose', version: '1' };
// biome-ignore lint/suspicious/noExplicitAny: untrusted JSON, narrowed where read
const isObj = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text parts anywhere in an answer (MCP content, A2A message/task parts and artifacts), depth-bounded. */
export function textsOf(value: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 8 || out.length > 50) return out;
  if (Array.isArray(value)) {
    for (const v of value) textsOf(v, depth + 1, out);
  } else if (isObj(value)) {
    if (typeof value.text === 'string') out.push(value.text);
    // v1 proto JSON: {content: {$case: "text", value}} never reaches the wire; its JSON form is {text}.
    for (const key of ['content', 'parts', 'message', 'status', 'artifacts', 'task', 'result', 'history']) {
      if (key in value && key !== 'text') textsOf(value[key], depth + 1, out);
    }
  }
  return out;
}

function kept(texts: string[]): CallResult {
  const joined = texts.join('\n');
  const text = cleanText(joined, MAX_ANSWER_CHARS);
  if (!text) return { ok: false, reason: 'bad_answer', detail: 'the answer carried no text' };
  return { ok: true, text, truncated: joined.length > MAX_ANSWER_CHARS };
}

const outboundFailure = (err: unknown): CallResult => {
  if (err instanceof OutboundError) {
    const reason: CallFailure = err.reason === 'invalid_url' || err.reason === 'redirect_loop' ? 'unreachable' : err.reason;
    return { ok: false, reason, detail: err.message };
  }
  return { ok: false, reason: 'unreachable', detail: 'the call failed' };
};

/** The JSON-RPC reply read: its result, or why it is not one. */
function resultOf(reply: RpcReply, what: string): { result: unknown } | { failure: CallResult } {
  const { status, headers } = reply.http;
  if ((status === 401 || status === 403) && headers['www-authenticate']) return { failure: { ok: false, reason: 'auth_required', detail: `${what}: the partner requires authorization` } };
  if (!reply.message) return { failure: { ok: false, reason: 'bad_answer', detail: `${what}: HTTP ${status} without a JSON-RPC answer` } };
  if (reply.message.error) {
    const code = typeof reply.message.error.code === 'number' ? reply.message.error.code : 'unknown';
    return { failure: { ok: false, reason: 'partner_error', detail: `${what}: JSON-RPC error ${code}` } };
  }
  return { result: reply.message.result };
}

const modernMeta = { 'io.modelcontextprotocol/protocolVersion': MODERN_VERSION, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 tools/call as sent to a partner: one request, the `_meta` envelope and the standard headers. */
export function modernToolCall(name: string, args: Record<string, unknown>): { message: Record<string, unknown>; headers: Record<string, string> } {
  return {
    message: { jsonrpc: '2.0', id: 'rc-call', method: 'tools/call', params: { name, arguments: args, _meta: modernMeta } },
    headers: { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': 'tools/call', 'mcp-name': name },
  };
}

/** A tools/call reply: the tool's answer, or why there is none (a JSON-RPC -32602 about the arguments is the caller's). */
function toolReply(reply: RpcReply): CallResult {
  const error = reply.message?.error;
  if (error && error.code === -32602) {
    const refused = argumentRefusal(`-32602 ${typeof error.message === 'string' ? error.message : ''}`);
    if (refused) return refused;
  }
  const r = resultOf(reply, 'tools/call');
  return 'failure' in r ? r.failure : toolAnswer(r.result);
}

function toolAnswer(result: unknown): CallResult {
  if (!isObj(result)) return { ok: false, reason: 'bad_answer', detail: 'tools/call answered without a result object' };
  if (result.isError === true) return argumentRefusal(textsOf(result.content).join(' ')) ?? { ok: false, reason: 'partner_error', detail: 'the tool reported an error' };
  const texts = textsOf(result.content);
  if (texts.length === 0 && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent));
  return kept(texts);
}

/** MCP tools/call in the partner's era. */
export async function callMcpTool(client: Fetcher, endpoint: string, protocol: string | null, name: string, args: Record<string, unknown>): Promise<CallResult> {
  try {
    if (protocol === MODERN_VERSION) {
      const call = modernToolCall(name, args);
      return toolReply(await postRpc(client, endpoint, call.message, call.headers));
    }
    const version = protocol && LEGACY_VERSIONS.includes(protocol) ? protocol : LEGACY_VERSIONS[0]!;
    const init = await postRpc(client, endpoint, { jsonrpc: '2.0', id: 'rc-init', method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: CLIENT_INFO } });
    const ir = resultOf(init, 'initialize');
    if ('failure' in ir) return ir.failure;
    if (!isObj(ir.result) || typeof ir.result.protocolVersion !== 'string') return { ok: false, reason: 'bad_answer', detail: 'initialize answered without a protocol version' };
    const session = init.http.headers['mcp-session-id'];
    const headers: Record<string, string> = { 'mcp-protocol-version': ir.result.protocolVersion, ...(session ? { 'mcp-session-id': session } : {}) };
    try {
      await postRpc(client, endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      return toolReply(await postRpc(client, endpoint, { jsonrpc: '2.0', id: 'rc-call', method: 'tools/call', params: { name, arguments: args } }, headers));
    } finally {
      // A stateful server keeps the session until told; ending it is polite and never waited on for its fate.
      if (session) await client.fetch(endpoint, { method: 'DELETE', headers }).catch(() => undefined);
    }
  } catch (err) {
    return outboundFailure(err);
  }
}

/** A2A message/send with `text` as one text part; `protocol` is the probe's `a2a/<version>`. */
export async function sendA2aText(client: Fetcher, endpoint: string, protocol: string | null, text: string, messageId: string, metadata: Record<string, unknown> = {}): Promise<CallResult> {
  const v1 = protocol === 'a2a/1.0';
  const message = v1
    ? { jsonrpc: '2.0', id: 'rc-send', method: 'SendMessage', params: { message: { messageId, role: 'ROLE_USER', parts: [{ text }], metadata } } }
    : { jsonrpc: '2.0', id: 'rc-send', method: 'message/send', params: { message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }], metadata } } };
  try {
    const reply = await postRpc(client, endpoint, message, { 'a2a-version': v1 ? '1.0' : '0.3' });
    const r = resultOf(reply, v1 ? 'SendMessage' : 'message/send');
    if ('failure' in r) return r.failure;
    if (!isObj(r.result)) return { ok: false, reason: 'bad_answer', detail: 'message/send answered without a message or task' };
    const state = r.result.status?.state ?? r.result.task?.status?.state;
    if (typeof state === 'string' && /failed|rejected|canceled/i.test(state)) return { ok: false, reason: 'partner_error', detail: `the agent's task ended ${state.toLowerCase()}` };
    return kept(textsOf(r.result));
  } catch (err) {
    return outboundFailure(err);
  }
}
