// The A2A v0.1 `tasks/send` shim (DESIGN.md stack row "A2A"): a v0.1 request becomes a v0.3
// `message/send` for the SDK's legacy handler, and its answer goes back in the v0.1 shape (parts
// with `type`, `sessionId`, artifacts with `index`, v0.1 state names). Pure.
import { randomUUID } from 'node:crypto';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const V01_METHOD = 'tasks/send';
const MAX_ID = 128;

export type ShimRequest = { ok: true; request: Json } | { ok: false; message: string };

/** A v0.1 part (`type`) as a v0.3 part (`kind`); null when it is neither. */
function partToV03(p: unknown): Json | null {
  if (!isObject(p)) return null;
  const type = p.type ?? p.kind;
  const metadata = isObject(p.metadata) ? { metadata: p.metadata } : {};
  if (type === 'text' && typeof p.text === 'string') return { kind: 'text', text: p.text, ...metadata };
  if (type === 'data' && isObject(p.data)) return { kind: 'data', data: p.data, ...metadata };
  if (type === 'file' && isObject(p.file)) return { kind: 'file', file: p.file, ...metadata };
  return null;
}

/** `tasks/send` params -> a `message/send` request, or what is wrong with them. */
export function v01ToMessageSend(body: Json): ShimRequest {
  const params = body.params;
  if (!isObject(params)) return { ok: false, message: 'Invalid params: tasks/send needs params {id, sessionId?, message: {role, parts}}' };
  const message = params.message;
  if (!isObject(message) || !Array.isArray(message.parts) || message.parts.length === 0) {
    return { ok: false, message: 'Invalid params: params.message must be {role: "user", parts: [{type: "text", text}]} with at least one part' };
  }
  const parts = message.parts.map(partToV03);
  const bad = parts.indexOf(null);
  if (bad >= 0) return { ok: false, message: `Invalid params: params.message.parts[${bad}] must be {type: "text", text}, {type: "data", data: {...}} or {type: "file", file: {...}}` };
  for (const key of ['id', 'sessionId'] as const) {
    const v = params[key];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length === 0 || v.length > MAX_ID)) {
      return { ok: false, message: `Invalid params: params.${key} must be a string of 1 to ${MAX_ID} characters` };
    }
  }
  const historyLength = params.historyLength;
  if (historyLength !== undefined && historyLength !== null && !(Number.isInteger(historyLength) && (historyLength as number) >= 0)) {
    return { ok: false, message: 'Invalid params: params.historyLength must be a non-negative integer' };
  }
  // The server names tasks (the SDK creates a task only under its own id): the v0.1 id the client
  // chose is kept in the task's metadata as `requested_id`, and the answer carries the real id.
  const metadata = { ...(isObject(params.metadata) ? params.metadata : {}), ...(typeof params.id === 'string' ? { requested_id: params.id } : {}) };
  return {
    ok: true,
    request: {
      jsonrpc: '2.0',
      id: body.id ?? null,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: randomUUID(),
          role: 'user',
          parts,
          ...(typeof params.sessionId === 'string' ? { contextId: params.sessionId } : {}),
          ...(isObject(message.metadata) ? { metadata: message.metadata } : {}),
        },
        configuration: { blocking: true, ...(typeof historyLength === 'number' ? { historyLength } : {}) },
        ...(Object.keys(metadata).length ? { metadata } : {}),
      },
    },
  };
}

/** v0.3 state names that v0.1 lacks map to the nearest v0.1 one. */
const STATES: Record<string, string> = {
  submitted: 'submitted',
  working: 'working',
  'input-required': 'input-required',
  completed: 'completed',
  canceled: 'canceled',
  failed: 'failed',
  rejected: 'failed',
  'auth-required': 'input-required',
};

function partToV01(p: unknown): Json {
  if (!isObject(p)) return { type: 'text', text: '' };
  const metadata = isObject(p.metadata) ? { metadata: p.metadata } : {};
  if (p.kind === 'data') return { type: 'data', data: p.data, ...metadata };
  if (p.kind === 'file') return { type: 'file', file: p.file, ...metadata };
  return { type: 'text', text: typeof p.text === 'string' ? p.text : '', ...metadata };
}

function messageToV01(m: unknown): Json | undefined {
  if (!isObject(m)) return undefined;
  return { role: m.role === 'agent' ? 'agent' : 'user', parts: Array.isArray(m.parts) ? m.parts.map(partToV01) : [], ...(isObject(m.metadata) ? { metadata: m.metadata } : {}) };
}

/** A v0.3 task (message/send's result) in the v0.1 shape. */
export function taskToV01(task: Json): Json {
  const status = isObject(task.status) ? task.status : {};
  const message = messageToV01(status.message);
  const artifacts = Array.isArray(task.artifacts) ? task.artifacts : [];
  const history = Array.isArray(task.history) ? task.history : undefined;
  return {
    id: task.id,
    sessionId: task.contextId ?? null,
    status: { state: STATES[String(status.state)] ?? 'unknown', ...(message ? { message } : {}), ...(status.timestamp ? { timestamp: status.timestamp } : {}) },
    artifacts: artifacts.filter(isObject).map((a, index) => ({
      name: a.name ?? null,
      ...(a.description ? { description: a.description } : {}),
      parts: Array.isArray(a.parts) ? a.parts.map(partToV01) : [],
      index,
      lastChunk: true,
      ...(isObject(a.metadata) ? { metadata: a.metadata } : {}),
    })),
    ...(history ? { history: history.map(messageToV01).filter(Boolean) } : {}),
    metadata: isObject(task.metadata) ? task.metadata : {},
  };
}

/** The legacy handler's answer to the mapped request, in the v0.1 shape (errors pass unchanged). */
export function responseToV01(response: Json): Json {
  if (!isObject(response.result) || response.result.kind !== 'task') return response;
  return { jsonrpc: '2.0', id: response.id ?? null, result: taskToV01(response.result) };
}
