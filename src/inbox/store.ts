// Posting to and reading a listing's inbox. Any domain above this one posts in its own transaction
// (postToInbox(trx, ...)), so a message exists exactly when the thing it reports happened. A message
// a listing sends is counted for its sender and capped for its recipient per UTC day (taken in that
// transaction with conditional upserts, so no two instances pass a cap together): past a cap the
// whole call is refused with a 429, and nothing it would have done is left.
import type { Executor } from '../platform/db/executor.ts';
import { newId } from '../platform/ids.ts';
import { inboxTables as q } from './tables.ts';
import { sql } from 'kysely';
import { AppError } from '../platform/errors.ts';
import { cleanAction, cleanMessageText, SENT_BY_LISTINGS, whitelistFacts, type Fact, type InboxAction, type InboxKind } from './kinds.ts';

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

/** Messages one sender may put in one listing's inbox per UTC day. */
export const FROM_ONE_SENDER_PER_DAY = 5;
/** Messages from listings one inbox takes per UTC day, from every sender together. */
export const TO_ONE_INBOX_PER_DAY = 50;
/** Messages one listing may send per UTC day, to every inbox together. */
export const SENDS_PER_DAY = 100;

/** Counts one under `key` today while fewer than `max` were; false at the cap (one conditional upsert). */
async function takeDay(trx: Executor, key: string, day: string, max: number): Promise<boolean> {
  const row = await q(trx)
    .insertInto('inbox_counters')
    .values({ key, day, n: 1 })
    .onConflict((oc) =>
      oc
        .columns(['key', 'day'])
        .doUpdateSet({ n: sql`inbox_counters.n + 1` })
        .where('inbox_counters.n', '<', max),
    )
    .returning('n')
    .executeTakeFirst();
  return row !== undefined;
}

const untilTomorrow = (now: string) => Math.max(1, Math.ceil((Date.parse(`${now.slice(0, 10)}T00:00:00.000Z`) + 86_400_000 - Date.parse(now)) / 1000));

/** Takes the sender's and the recipient's counts for one message, or throws the 429 that says which bound it met. */
async function takeSend(trx: Executor, from: string, to: string, now: string): Promise<void> {
  const day = now.slice(0, 10);
  const refuse = (code: string, message: string) => new AppError(429, code, message, 'listing_id', { retry_after_s: untilTomorrow(now) }).withHeaders({ 'retry-after': String(untilTomorrow(now)) });
  if (!(await takeDay(trx, `pair:${from}:${to}`, day, FROM_ONE_SENDER_PER_DAY))) throw refuse('inbox_full', `${to}'s inbox has taken ${FROM_ONE_SENDER_PER_DAY} messages from ${from} today, the most one sender may put there in a UTC day`);
  if (!(await takeDay(trx, `to:${to}`, day, TO_ONE_INBOX_PER_DAY))) throw refuse('inbox_full', `${to}'s inbox has taken ${TO_ONE_INBOX_PER_DAY} messages from listings today, the most it takes in a UTC day`);
  if (!(await takeDay(trx, `from:${from}`, day, SENDS_PER_DAY))) throw refuse('send_limit', `${from} has sent ${SENDS_PER_DAY} messages today, the most one listing sends in a UTC day`);
}

/** Counts older than `beforeDay` bound nothing any more: the sweep deletes them. */
export async function pruneInboxCounters(ex: Executor, beforeDay: string): Promise<void> {
  await q(ex).deleteFrom('inbox_counters').where('day', '<', beforeDay).execute();
}

/**
 * Posts one message to a listing's inbox; returns it as stored. A kind a listing sends needs its
 * sender (anonymous callers post nothing) and counts against the day's bounds.
 */
export async function postToInbox(trx: Executor, message: NewInboxMessage, now: string): Promise<InboxMessage> {
  const from = message.from_listing_id ?? null;
  if (SENT_BY_LISTINGS.has(message.kind)) {
    if (from === null) throw new Error(`an inbox message of kind ${message.kind} needs the listing that sends it`);
    await takeSend(trx, from, message.listing_id, now);
  }
  const row: Row = {
    id: newId('msg'),
    listing_id: message.listing_id,
    kind: message.kind,
    from_listing_id: from,
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
