// What a message may carry (the inbox is read at an open check-in, so nothing private goes in):
// per kind, the facts allowed in `data`; anything else given is dropped, never stored. Strings are
// cleaned, capped and scrubbed of emails and addresses; text supplied by other listings stays data.
import { cleanText } from '../listings/text.ts';
import { scrubPersonal } from '../feed/public.ts';

/** Kinds and the facts each may carry. A domain that posts a new fact adds its name here (one word). */
export const INBOX_KINDS = {
  collab_invitation: ['workflow_id', 'session_id', 'goal', 'role', 'product_id'],
  endorsement: ['channel', 'intensity', 'capability', 'day'],
  co_sign: ['co_sign_id', 'mutual', 'audience'],
  connector: ['day', 'refill_granted', 'events'],
  system: ['topic', 'lane', 'reason'],
  owner: ['method', 'topic'],
} as const satisfies Record<string, readonly string[]>;

export type InboxKind = keyof typeof INBOX_KINDS;

/** Kinds a listing sends (its owner acting): counted for the sender and capped for the recipient. The others are Rollcall's own notes. */
export const SENT_BY_LISTINGS: ReadonlySet<InboxKind> = new Set(['collab_invitation', 'endorsement', 'co_sign']);

/**
 * How Rollcall's words name a sending listing: by its id, its name quoted as JSON text (the name is
 * the sender's own words, shown as data, never as Rollcall's).
 */
export const quotedSender = (id: string, name: string | undefined): string => (name && name !== id ? `listing ${id} (named ${JSON.stringify(name)})` : `listing ${id}`);
export const INBOX_KIND_NAMES = Object.keys(INBOX_KINDS) as InboxKind[];

export type Fact = number | boolean | string | string[];

export const MAX_TEXT = 280;
const MAX_FACT_STRING = 200;
const MAX_LIST = 10;
const MAX_LIST_ITEM = 80;
const MAX_ACTION_JSON = 2000;

const clean = (s: string, max: number) => scrubPersonal(cleanText(s, max));

/** The kind's allowed facts of `given`, cleaned; other keys and other value types are dropped. */
export function whitelistFacts(kind: InboxKind, given: Record<string, unknown>): Record<string, Fact> {
  const out: Record<string, Fact> = {};
  for (const key of INBOX_KINDS[kind] as readonly string[]) {
    const v = given[key];
    if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
    else if (typeof v === 'boolean') out[key] = v;
    else if (typeof v === 'string' && v.trim() !== '') out[key] = clean(v, MAX_FACT_STRING);
    else if (Array.isArray(v)) out[key] = v.filter((x): x is string => typeof x === 'string').slice(0, MAX_LIST).map((x) => clean(x, MAX_LIST_ITEM));
  }
  return out;
}

export const cleanMessageText = (text: string): string => clean(text, MAX_TEXT);

/** A follow-up tool call the poster suggests: `args` must be valid input for `tool` (the poster's promise). */
export interface InboxAction {
  tool: string;
  args: Record<string, unknown>;
  why: string;
}

/** The action as stored, or null when it is not a plain tool call of reasonable size. */
export function cleanAction(action: InboxAction | undefined): InboxAction | null {
  if (!action || !/^[a-z][a-z0-9_]{0,63}$/.test(action.tool)) return null;
  const args = JSON.parse(JSON.stringify(action.args ?? {})) as Record<string, unknown>;
  if (JSON.stringify(args).length > MAX_ACTION_JSON) return null;
  return { tool: action.tool, args, why: clean(action.why, MAX_FACT_STRING) };
}
