// The A2A door's versions and methods, and its GET info document (SPEC.md 4.1: endpoint info with
// the agent-card pointer), generated from the intents and the catalog's tools.
import type { DiscoveryModel } from '../discovery/model.ts';
import { A2A_PATH } from '../discovery/paths.ts';
import type { Intent } from './intents.ts';
import { V01_METHOD } from './v01.ts';
import { SERVED_METHODS } from '../mcp-era.ts';

/** The methods served per protocol version (v0.1's tasks/send is the shim's). */
export const METHODS = {
  '1.0': ['SendMessage', 'GetTask', 'CancelTask'],
  '0.3': ['message/send', 'tasks/get', 'tasks/cancel'],
} as const;

export type Version = keyof typeof METHODS;

/**
 * The version a request speaks: its A2A-Version header (1, 1.0, 1.0.x -> 1.0; 0.3, 0.3.x -> 0.3);
 * without one, v1 when the method is a v1 name, else 0.3 (the A2A default for no header).
 */
export function resolveVersion(header: string | string[] | undefined, method: string): { version: Version } | { unsupported: string } {
  const given = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (given === '') return { version: (METHODS['1.0'] as readonly string[]).includes(method) ? '1.0' : '0.3' };
  const m = /^(\d+)(?:\.(\d+))?(?:\.\d+)?$/.exec(given);
  const major = Number(m?.[1]);
  const minor = Number(m?.[2] ?? 0);
  if (m && major === 1 && minor === 0) return { version: '1.0' };
  if (m && major === 0 && minor === 3) return { version: '0.3' };
  return { unsupported: given };
}

export interface InfoInput {
  base: string;
  model: DiscoveryModel;
  intents: readonly Intent[];
  tools: readonly string[];
}

const message = (text: string, v1: boolean) =>
  v1 ? { messageId: '<a uuid you choose>', role: 'ROLE_USER', parts: [{ text }] } : { kind: 'message', messageId: '<a uuid you choose>', role: 'user', parts: [{ kind: 'text', text }] };

export function a2aInfo({ base, model, intents, tools }: InfoInput) {
  const endpoint = `${base}${A2A_PATH}`;
  const example = intents[0]?.examples[0] ?? 'help';
  return {
    ok: true,
    name: 'rollcall',
    protocol: 'a2a',
    endpoint,
    transport: 'JSONRPC',
    agent_card: model.docs.agentCard,
    agent_card_aliases: [model.docs.agentJson],
    protocol_versions: ['1.0', '0.3'],
    version_header: { name: 'A2A-Version', default: '0.3', note: 'Send 1.0 for the v1 methods; without the header a v1 method name still selects v1.' },
    methods: { '1.0': METHODS['1.0'], '0.3': METHODS['0.3'], '0.1': [V01_METHOD] },
    streaming: false,
    push_notifications: false,
    requests: intents.map((i) => ({ say: i.say, does: i.does, examples: i.examples, operation: i.operation })),
    tool_call: {
      note: 'Any tool of the agent card also runs from a data part: {"tool": "<name>", "arguments": {...}} (the same tools as the MCP endpoint).',
      tools,
    },
    tasks: {
      states: {
        completed: 'the request ran; the result is the artifact "result" (a data part with the JSON, a text part with a summary); a request not understood gets the artifact "help"',
        failed: 'the operation refused; status.message carries the error code and message (a text part and a data part {ok:false, error})',
      },
      note: 'Every task finishes within its request and is stored: tasks/get (GetTask) finds it on any instance for A2A_TASK_KEEP_DAYS days. A finished task cannot be canceled (-32002).',
    },
    examples: {
      '1.0': { headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' }, body: { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message(example, true) } } },
      '0.3': { headers: { 'content-type': 'application/json' }, body: { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: message(example, false) } } },
      '0.1': { headers: { 'content-type': 'application/json' }, body: { jsonrpc: '2.0', id: 1, method: V01_METHOD, params: { id: '<a task id>', message: { role: 'user', parts: [{ type: 'text', text: example }] } } } },
      get_task: { headers: { 'content-type': 'application/json' }, body: { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: '<the task id from the answer>' } } },
    },
    mcp: model.mcp.endpoint,
    // The MCP server card lists this endpoint as a remote: an MCP method here is answered as at the MCP endpoint.
    also_mcp: {
      methods: [...SERVED_METHODS],
      note: 'This endpoint answers MCP too (every tool, both protocol eras), told apart by the JSON-RPC method name. A batch that mixes MCP and A2A messages is refused with -32600.',
    },
    discovery: model.docs.discovery,
  };
}
