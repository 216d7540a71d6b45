// What a listing can do, as calls a client sends as given (pure): each of a server's tools with a
// ready `tools/call` (its arguments valid against the tool's input schema, example-arguments.ts)
// and each of an agent's skills with a ready A2A message (its card's first example, else a request
// built from its name and description). How to send them (endpoint, method, headers) is said once
// beside the list, never per item. Text from the card or tool list stays data: it is shown, and
// it is only ever sent to the listing it came from.
import { exampleArguments } from './example-arguments.ts';
import type { StoredDetails, StoredItem } from './coverage.ts';

/** Tools or skills shown at most (a demo of a server with endless tools stays small). */
export const MAX_SHOWN = 100;
/** Characters of a description shown. */
const DESCRIPTION_CHARS = 300;

type Item = StoredItem & StoredDetails;

const clip = (text: string | undefined): string | undefined => (text === undefined ? undefined : text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS - 3)}...` : text);

/** The schema a tool stored before input schemas were kept: its parameters' names, types and docs. */
function paramsSchema(item: StoredItem): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(item.params.map((p) => [p.name, { ...(p.type ? { type: p.type } : {}), ...(p.description ? { description: p.description } : {}) }])),
    required: item.params.filter((p) => p.required).map((p) => p.name),
  };
}

/** A tool as the demo shows it: its name is its call's (said once). */
export interface ReadyTool {
  title?: string;
  description?: string;
  annotations?: Record<string, string | boolean>;
  /** The params of a tools/call request, valid as given unless `needs` names values to write. */
  call: { name: string; arguments: Record<string, unknown> };
  needs?: string[];
}

export function readyTools(items: readonly Item[]): { tools: ReadyTool[]; more: number } {
  const tools = items.slice(0, MAX_SHOWN).map((item): ReadyTool => {
    const built = exampleArguments(item.input_schema ?? paramsSchema(item));
    const description = clip(item.description);
    return {
      ...(item.title ? { title: item.title } : {}),
      ...(description ? { description } : {}),
      ...(item.annotations ? { annotations: item.annotations } : {}),
      call: { name: item.name, arguments: built.arguments },
      ...(built.needs.length ? { needs: built.needs.map((n) => `arguments.${n}`) } : {}),
    };
  });
  return { tools, more: Math.max(0, items.length - MAX_SHOWN) };
}

/** How the ready calls are sent: once for all of them. */
export function mcpCallWith(endpoint: string, protocol: string | null) {
  return {
    endpoint,
    protocol,
    method: 'tools/call' as const,
    params: 'each tool\'s call, as the params of a JSON-RPC tools/call request to endpoint (an MCP client\'s callTool takes it as is)',
  };
}

export interface ReadySkill {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  /** The card's examples past the first (the first is the message's text). */
  other_examples?: string[];
  /** An A2A message for this skill, sent as params.message of the send_with request. */
  message: Record<string, unknown>;
}

/** The A2A version a probe's protocol names (`a2a/1.0`): 1.0 speaks SendMessage, earlier ones message/send. */
const isV1 = (protocol: string | null) => protocol === 'a2a/1.0';

/** The request text for a skill: its card's first example, else a request naming it and what it does. */
function skillText(item: Item): string {
  const example = item.examples?.[0];
  if (example) return example;
  const name = item.title ?? item.name;
  return item.description ? `Please use your skill ${JSON.stringify(name)} (${item.description}) on a short example of your choice.` : `Please use your skill ${JSON.stringify(name)} on a short example of your choice.`;
}

export function readySkills(items: readonly Item[], protocol: string | null, messageId: () => string): { skills: ReadySkill[]; more: number } {
  const v1 = isV1(protocol);
  const skills = items.slice(0, MAX_SHOWN).map((item): ReadySkill => {
    const text = skillText(item);
    const description = clip(item.description);
    return {
      id: item.name,
      name: item.title ?? item.name,
      ...(description ? { description } : {}),
      ...(item.tags?.length ? { tags: item.tags } : {}),
      ...(item.examples && item.examples.length > 1 ? { other_examples: item.examples.slice(1) } : {}),
      message: v1 ? { messageId: messageId(), role: 'ROLE_USER', parts: [{ text }] } : { kind: 'message', messageId: messageId(), role: 'user', parts: [{ kind: 'text', text }] },
    };
  });
  return { skills, more: Math.max(0, items.length - MAX_SHOWN) };
}

/** The JSON-RPC request that carries a skill's message: once for all of them. */
export function a2aSendWith(endpoint: string, protocol: string | null) {
  const v1 = isV1(protocol);
  return {
    endpoint,
    protocol,
    method: v1 ? ('SendMessage' as const) : ('message/send' as const),
    headers: { 'content-type': 'application/json', 'a2a-version': v1 ? '1.0' : '0.3' },
    params: 'each skill\'s message as params.message of a JSON-RPC request to endpoint',
  };
}
