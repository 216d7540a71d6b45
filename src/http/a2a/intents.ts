// What Rollcall-as-agent understands (SPEC.md 1.8, DESIGN.md "One operation, three doors"): the A2A
// door's translation of a plain-words request into an operation and its input. Pure: no I/O, no
// business rule (the operation validates and decides); unit-tested in test/a2a-intents.test.ts.
// The caller's text is only ever parsed into fields an operation checks; it is never echoed back.
import { cleanText } from '../../listings/text.ts';

export type IntentId = 'find' | 'live' | 'list' | 'status' | 'score';

export interface Intent {
  id: IntentId;
  /** The catalog operation the request runs. */
  operation: string;
  /** How to ask, in words. */
  say: string;
  does: string;
  /** Requests this parser maps to this intent (the agent card's skill examples; a test checks each). */
  examples: string[];
}

/** In the order the help answer lists them. */
export const INTENTS: readonly Intent[] = [
  {
    id: 'find',
    operation: 'ard_search',
    say: 'find <what you need>',
    does: 'Searches every MCP server and agent Rollcall knows (the synced catalog and the Live listings).',
    examples: ['find an MCP server for postgres', 'find an agent that can translate invoices'],
  },
  {
    id: 'live',
    operation: 'search_active',
    say: "what's live [agents | MCP servers] [for <need>]",
    does: 'Lists the Live listings by rank, or searches only them.',
    examples: ["what's live?", 'live agents for translation'],
  },
  {
    id: 'list',
    operation: 'list_yourself',
    say: 'list <agent card or MCP server URL>',
    does: 'Lists the URL in the registry; Rollcall probes it and it becomes Live when the probe is clean.',
    examples: ['list https://example.org/.well-known/agent-card.json', 'list my MCP server at https://example.org/mcp'],
  },
  {
    id: 'status',
    operation: 'check_status',
    say: 'status <listing_id or listing name>',
    does: "A listing's lane (queued, probing, active, failed, dormant), last probe and next step.",
    examples: ['status lst_5k2m8q0r7t1v3w9x4y6z', 'is lst_5k2m8q0r7t1v3w9x4y6z live yet?'],
  },
  {
    id: 'score',
    operation: 'score',
    say: 'score <agent card or MCP server URL>',
    does: 'Probes any URL now, without listing it, and returns its 0-100 trust score with every check.',
    examples: ['score https://example.org/mcp', "what's the score of https://example.org/.well-known/agent-card.json"],
  },
];

/** Longer requests are not parsed (a request is a sentence, not a document). */
export const MAX_REQUEST_CHARS = 2000;
const MAX_QUERY = 500;
const MAX_NAME = 120;

export type HelpReason = 'asked' | 'empty' | 'unknown' | 'too_long' | 'url_without_verb' | 'missing_argument' | 'bad_data';

export type Understanding =
  | { kind: 'call'; intent: IntentId; operation: string; input: Record<string, unknown> }
  /** A data part naming a tool: `{"tool": "<name>", "arguments": {...}}`. */
  | { kind: 'tool'; tool: string; arguments: unknown }
  | { kind: 'help'; reason: HelpReason; intent?: IntentId };

/** The parts of a message as the door reads them: text, or structured data. */
export type MessagePart = { text: string } | { data: unknown };

const call = (intent: IntentId, input: Record<string, unknown>): Understanding => ({ kind: 'call', intent, operation: INTENTS.find((i) => i.id === intent)!.operation, input });
const help = (reason: HelpReason, intent?: IntentId): Understanding => ({ kind: 'help', reason, ...(intent ? { intent } : {}) });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A message: a data part that names a tool wins; otherwise its text parts, read as one request. */
export function understandMessage(parts: readonly MessagePart[]): Understanding {
  for (const part of parts) {
    if (!('data' in part)) continue;
    const d = part.data;
    if (!isObject(d) || !('tool' in d)) continue;
    if (typeof d.tool !== 'string' || d.tool.length === 0 || d.tool.length > 64) return help('bad_data');
    if (d.arguments !== undefined && !isObject(d.arguments)) return help('bad_data');
    return { kind: 'tool', tool: d.tool, arguments: d.arguments ?? {} };
  }
  const text = parts.flatMap((p) => ('text' in p ? [p.text] : [])).join(' ');
  return understand(text);
}

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/i;
const LISTING_ID = /\blst_[0-9a-z]{1,60}\b/i;
const LEAD_IN = /^(?:(?:please|pls|kindly|hey|hi|hello|ok|okay|rollcall|so)[\s,:;!.]+|(?:can|could|would|will) you\s+|i(?:'d| would) like (?:you )?to\s+|i want (?:you )?to\s+|let'?s\s+)/i;
const GREETING_OR_HELP = /^(?:help|\?+|usage|commands|menu|options|hi|hello|hey|start|what can you do|what do you do|what are you|who are you|how does (?:this|it) work)\b/i;
const LIST_VERBS = new Set(['list', 'publish', 'register', 'add', 'submit', 'enlist', 'index', 'announce', 'onboard']);
const SCORE_VERBS = new Set(['score', 'rate', 'probe', 'check', 'test', 'grade', 'evaluate', 'audit', 'scan', 'verify']);
const FIND_LEAD = /^(?:find(?: me| us)?|search(?: for)?|look(?:ing)? for|(?:i|we) need|need|seek(?:ing)?|recommend|suggest|discover|locate|show me|is there|are there|which|who can|get me)\s+/i;
const LIVE_LEAD = /^(?:what(?:'s| is| are)\s+|who(?:'s| is| are)\s+|show(?: me)?\s+|list\s+|get\s+)?(?:the\s+)?(?:live|active)(?:\s+(?:now|today|right now))?\b[?!.]*\s*/i;
const STATUS_LEAD = /^(?:(?:what(?:'s| is) (?:the )?|check (?:the )?|get (?:the )?|show (?:me )?(?:the )?)?status|state|lane)\b(?:\s+(?:of|for|on)(?=\s|$))?(?:\s+(?:(?:my|the)\s+)?listing(?=\s|$))?[:\s]*/i;
/** Words that say nothing about the need; dropped from both ends of a query. */
const FILLER = new Set(
  'a an the some any me us one good great best new live active mcp mcps server servers mcp-server agent agents a2a tool tools for that which who to can could will would with about of please i we something anything service services is are there do does able what which'.split(' '),
);
const MCP_WORDS = /\b(?:mcps?|servers?|tools?)\b/i;
const AGENT_WORDS = /\b(?:agents?|a2a)\b/i;

/** Strips lead-ins ("please", "can you") so the request starts at its verb. */
function withoutLeadIn(text: string): string {
  let t = text;
  for (let i = 0; i < 4; i++) {
    const next = t.replace(LEAD_IN, '');
    if (next === t) break;
    t = next;
  }
  return t;
}

function kindOf(text: string): 'agent' | 'mcp' | undefined {
  const mcp = MCP_WORDS.test(text);
  const agent = AGENT_WORDS.test(text);
  return mcp === agent ? undefined : mcp ? 'mcp' : 'agent';
}

/** The need itself: filler words and punctuation trimmed from both ends. */
function queryOf(text: string): string {
  const words = text.replace(/[?!.,;:]+(\s|$)/g, '$1').split(/\s+/).filter(Boolean);
  while (words.length && FILLER.has(words[0]!.toLowerCase())) words.shift();
  while (words.length && FILLER.has(words[words.length - 1]!.toLowerCase())) words.pop();
  return words.join(' ').slice(0, MAX_QUERY);
}

const withKind = (kind: 'agent' | 'mcp' | undefined) => (kind ? { kind } : {});

/** A plain-words request -> the operation it asks for, or a help answer. */
export function understand(raw: string): Understanding {
  if (raw.length > MAX_REQUEST_CHARS * 2) return help('too_long');
  const flat = cleanText(raw, MAX_REQUEST_CHARS + 1);
  if (flat.length > MAX_REQUEST_CHARS) return help('too_long');
  const t = withoutLeadIn(flat).trim();
  if (t === '' || /^[\s?!.,;:]*$/.test(t)) return help(flat === '' ? 'empty' : 'asked');
  const lower = t.toLowerCase();
  const url = URL_RE.exec(t)?.[0].replace(/[.,;:!?)\]}>'"]+$/, '');
  const verb = lower.split(/[\s,:;]+/)[0] ?? '';

  if (url) {
    if (LIST_VERBS.has(verb) || /\b(?:list|publish|register)\b/.test(lower)) return call('list', { url });
    if (SCORE_VERBS.has(verb) || /\bscore\b/.test(lower)) return call('score', { url });
    return help('url_without_verb');
  }
  const id = LISTING_ID.exec(t)?.[0];
  if (id) return call('status', { id });
  const status = STATUS_LEAD.exec(t);
  if (status) {
    const rest = t.slice(status[0].length).replace(/^["'`]+|["'`?!.]+$/g, '').trim();
    if (rest === '') return help('missing_argument', 'status');
    if (/^[A-Za-z0-9_-]{1,64}$/.test(rest) && /[_\d]/.test(rest)) return call('status', { id: rest });
    return call('status', { name: rest.slice(0, MAX_NAME) });
  }
  if (GREETING_OR_HELP.test(lower)) return help('asked');
  const live = LIVE_LEAD.exec(t);
  if (live) {
    const rest = t.slice(live[0].length);
    const q = queryOf(rest);
    return call('live', { ...withKind(kindOf(rest)), ...(q ? { q } : {}) });
  }
  // A verb whose argument is missing: say what it needs.
  if (LIST_VERBS.has(verb)) return help('missing_argument', 'list');
  if (verb === 'score' || verb === 'probe') return help('missing_argument', 'score');
  const find = FIND_LEAD.exec(t);
  if (find) {
    const rest = t.slice(find[0].length);
    const kind = kindOf(rest);
    const q = queryOf(rest);
    if (/\b(?:live|active)\b/i.test(rest)) return call('live', { ...withKind(kind), ...(q ? { q } : {}) });
    if (!q) return call('live', withKind(kind));
    return call('find', { q, ...withKind(kind) });
  }
  if (verb === 'find' || verb === 'search') return help('missing_argument', 'find');
  return help('unknown');
}
