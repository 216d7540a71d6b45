// Posting to and reading a listing's inbox. Any domain above this one posts in its own transaction
// (postToInbox(trx, ...)), so a message exists exactly when the thing it reports happened.
import type { Executor } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { inboxTables as q } from './tables.ts';
import { cleanAction, cleanMessageText, whitelistFacts, type Fact, type InboxAction, type InboxKind } from './kinds.ts';

export interface NewInboxMessage {
  /** The addressee. */
  listing_id: string;
  kind: InboxKind;
  /** The listing the message comes from (an endorser, an inviter); none for Rollcall's own notes. */
  from_listing_id?: string | null;
  /** Facts; only the kind's whitelisted ones are kept (kinds.ts INBOX_KINDS). */
  data?: Record<string, unknown>;
  /** One short line (cleaned, at most 280 characters, emails and addresses masked). */
  text: string;
  /** The tool call the addressee would naturally make next; args must be valid for that tool. */
  action?: InboxAction;
}

export interface InboxMessage {
  id: string;
  listing_id: string;
  kind: InboxKind;
  from_listing_id: string | null;
  data: Record<string, Fact>;
  text: string;
  action: InboxAction | null;
  created_at: string;
  read_at: string | null;
}

type Row = { id: string; listing_id: string; kind: string; from_listing_id: string | null; data: string; text: string; action: string | null; created_at: string; read_at: string | null };

const toMessage = (r: Row): InboxMessage => ({
  id: r.id,
  listing_id: r.listing_id,
  kind: r.kind as InboxKind,
  from_listing_id: r.from_listing_id,
  data: JSON.parse(r.data) as Record<string, Fact>,
  text: r.text,
  action: r.action ? (JSON.parse(r.action) as InboxAction) : null,
  created_at: r.created_at,
  read_at: r.read_at,
});

const COLUMNS = ['id', 'listing_id', 'kind', 'from_listing_id', 'data', 'text', 'action', 'created_at', 'read_at'] as const;

/** Posts one message to a listing's inbox; returns it as stored. */
export async function postToInbox(trx: Executor, message: NewInboxMessage, now: string): Promise<InboxMessage> {
  const row: Row = {
    id: newId('msg'),
    listing_id: message.listing_id,
    kind: message.kind,
    from_listing_id: message.from_listing_id ?? null,
    data: JSON.stringify(whitelistFacts(message.kind, message.data ?? {})),
    text: cleanMessageText(message.text),
    action: (() => {
      const a = cleanAction(message.action);
      return a ? JSON.stringify(a) : null;
    })(),
    created_at: now,
    read_at: null,
  };
  await q(trx).insertInto('inbox_messages').values(row).execute();
  return toMessage(row);
}

export const INBOX_MAX_LIMIT = 100;

/** A listing's messages, newest first; `unreadOnly` keeps those never shown. */
export async function readInbox(ex: Executor, listingId: string, options: { unreadOnly?: boolean; limit?: number } = {}): Promise<InboxMessage[]> {
  const limit = Math.min(Math.max(1, options.limit ?? 20), INBOX_MAX_LIMIT);
  let sel = q(ex).selectFrom('inbox_messages').select(COLUMNS).where('listing_id', '=', listingId);
  if (options.unreadOnly) sel = sel.where('read_at', 'is', null);
  const rows = await sel.orderBy('seq', 'desc').limit(limit).execute();
  return rows.map(toMessage);
}

/** How many of a listing's messages are unread. */
export async function countUnread(ex: Executor, listingId: string): Promise<number> {
  const row = await q(ex)
    .selectFrom('inbox_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('listing_id', '=', listingId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks these messages of the listing read at `now` (already read ones keep their time); returns how many changed. */
export async function markRead(ex: Executor, listingId: string, ids: readonly string[], now: string): Promise<number> {
  if (!ids.length) return 0;
  const result = await q(ex)
    .updateTable('inbox_messages')
    .set({ read_at: now })
    .where('listing_id', '=', listingId)
    .where('id', 'in', [...ids])
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

/** Removes every message addressed to a listing (it was deleted). */
export async function deleteInboxOf(ex: Executor, listingId: string): Promise<void> {
  await q(ex).deleteFrom('inbox_messages').where('listing_id', '=', listingId).execute();
}
