// What the A2A door says back: a one-paragraph summary of an operation's result (the JSON itself
// travels beside it as a data part), the failure of one, and the help answer. Pure. Text that
// listings supply (names) is cleaned, capped and quoted as data; the caller's own text is never
// repeated.
import { cleanText } from '../../listings/text.ts';
import type { AppError } from '../../platform/errors.ts';
import { INTENTS, MAX_REQUEST_CHARS, type HelpReason, type Intent, type IntentId } from './intents.ts';

const quote = (v: unknown, max = 80) => JSON.stringify(cleanText(typeof v === 'string' ? v : String(v ?? ''), max));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const SHOWN_HITS = 5;

function hitLine(h: unknown, i: number): string {
  if (!isObject(h)) return '';
  const facts = [h.kind, h.source, typeof h.score === 'number' ? `score ${h.score}` : null].filter((f) => typeof f === 'string' && f !== '');
  const id = typeof h.listing_id === 'string' ? `, listing_id ${h.listing_id}` : typeof h.server === 'string' ? `, server ${quote(h.server, 120)}` : '';
  return `${i + 1}. ${quote(h.name)} (${facts.join(', ')}${id})`;
}

function searchSummary(r: Record<string, unknown>, liveOnly: boolean): string {
  const hits = Array.isArray(r.hits) ? r.hits : [];
  const count = typeof r.count === 'number' ? r.count : hits.length;
  const what = liveOnly ? (r.query ? 'Live listing(s) match' : 'Live listing(s), best ranked first') : 'match(es) in the catalog and the Live listings';
  if (count === 0) return liveOnly ? 'No Live listing matches.' : 'Nothing matches; try other words for the need.';
  const lines = hits.slice(0, SHOWN_HITS).map(hitLine).filter(Boolean);
  const more = hits.length > SHOWN_HITS ? `\n(${hits.length - SHOWN_HITS} more in the data part)` : '';
  return `${count} ${what}:\n${lines.join('\n')}${more}`;
}

/** One paragraph about an operation's result, for people and models reading the text part. */
export function summarize(operation: string, result: unknown): string {
  if (!isObject(result)) return `${operation} answered.`;
  const r = result;
  switch (operation) {
    case 'ard_search':
      return searchSummary(r, false);
    case 'search_active':
      return searchSummary(r, true);
    case 'list_yourself': {
      const reprobe = isObject(r.reprobe) ? r.reprobe : {};
      const head = !r.already_listed ? 'Listed' : `Already listed (re-probe ${reprobe.queued ? 'queued' : 'not due yet'})`;
      return `${head}: listing_id ${r.listing_id}, ${r.kind}, lane ${r.lane}. Rollcall probes it; send "status ${r.listing_id}" until the lane is active.`;
    }
    case 'check_status': {
      const probe = isObject(r.probe) ? r.probe : {};
      const score = typeof probe.score === 'number' ? `, probe score ${probe.score}` : '';
      const reason = typeof r.lane_reason === 'string' ? ` (${quote(r.lane_reason, 120)})` : '';
      return `Listing ${r.listing_id} ${quote(r.name)} (${r.kind}) is ${r.lane}${reason}${score}.`;
    }
    case 'score': {
      const failed = Array.isArray(r.checks) ? r.checks.filter((c) => isObject(c) && c.pass === false).map((c) => String((c as Record<string, unknown>).id)) : [];
      const ready = r.live_ready ? 'it would go Live if listed' : 'it would not go Live yet';
      return `Score ${r.score}/100 (${r.kind}); ${ready}${failed.length ? `; failed checks: ${failed.join(', ')}` : '; every check passes'}.`;
    }
    default:
      return `${operation} answered; the result is in the data part.`;
  }
}

/** The failure of an operation, as the failed task's status message says it. */
export function failureText(what: string, err: AppError): string {
  return `${what} failed: ${err.code}: ${cleanText(err.message, 500)}`;
}

export interface HelpContext {
  /** The intents whose operation this deployment serves. */
  intents: readonly Intent[];
  /** Tool names a data part may name. */
  tools: readonly string[];
  agentCard: string;
  mcpEndpoint: string;
}

const REASONS: Record<HelpReason, string> = {
  asked: 'Here is what I can do.',
  empty: 'Your message had no text. Here is what I can do.',
  unknown: 'I did not recognise that request. Here is what I can do.',
  too_long: `Your request is longer than ${MAX_REQUEST_CHARS} characters; send one short request.`,
  url_without_verb: 'Your message has a URL but does not say what to do with it: "list <url>" lists it, "score <url>" scores it without listing it.',
  missing_argument: 'That request needs its argument.',
  bad_data: 'A data part that runs a tool is {"tool": "<tool name>", "arguments": {...}}, with an object as arguments.',
};

/** The help answer: every request understood, with an example each, and the data-part form. */
export function helpAnswer(h: HelpContext, reason: HelpReason, intentId?: IntentId): { text: string; data: Record<string, unknown> } {
  const intent = intentId ? INTENTS.find((i) => i.id === intentId) : undefined;
  const head = reason === 'missing_argument' && intent ? `"${intent.say}" needs its argument, for example "${intent.examples[0]}".` : REASONS[reason];
  const requests = h.intents.map((i) => ({ say: i.say, does: i.does, example: i.examples[0], operation: i.operation }));
  const lines = requests.map((r) => `- ${r.say}: ${r.does} Example: "${r.example}"`);
  const text = [
    head,
    'Send one of these as text:',
    ...lines,
    `Or send a data part {"tool": "<tool name>", "arguments": {...}} to run any of the ${h.tools.length} tools of my agent card (${h.agentCard}); the same tools are at the MCP endpoint ${h.mcpEndpoint}.`,
  ].join('\n');
  return {
    text,
    data: {
      ok: true,
      understood: false,
      reason,
      requests,
      tool_call: { shape: { tool: '<tool name>', arguments: {} }, tools: h.tools },
      agent_card: h.agentCard,
      mcp: h.mcpEndpoint,
    },
  };
}
