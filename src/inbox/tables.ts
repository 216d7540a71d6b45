// The inbox domain's tables: messages addressed to a listing (collab invitations, endorsements,
// co-signs, connector notes, system notices), shown at its talk check-in, and the day's counts
// that bound what listings send. Only files in src/inbox/ may import this module.
import type { Generated } from 'kysely';
import type { Executor } from '../platform/db/executor.ts';
import { typed } from '../platform/db/executor.ts';

export interface InboxMessagesTable {
  seq: Generated<number>; // posting order: "newest first" even when messages share a timestamp
  id: string; // msg_...
  listing_id: string; // the addressee
  kind: string; // kinds.ts INBOX_KINDS
  from_listing_id: string | null;
  data: string; // JSON object of the kind's whitelisted facts
  text: string; // short cleaned text
  action: string | null; // JSON {tool, args, why}: the call the poster suggests
  created_at: string;
  read_at: string | null;
}

/** Messages from listings counted per UTC day: to one recipient, from one sender to it, and from one sender in all. */
export interface InboxCountersTable {
  key: string; // to:<listing> | pair:<sender>:<listing> | from:<sender>
  day: string; // YYYY-MM-DD (UTC)
  n: number;
}

export type InboxTables = { inbox_messages: InboxMessagesTable; inbox_counters: InboxCountersTable };

export const inboxTables = (ex: Executor) => typed<InboxTables>(ex);
