// The inbox domain's table: messages addressed to a listing (collab invitations, endorsements,
// co-signs, connector notes, system notices), shown at its talk check-in. Only files in src/inbox/
// may import this module.
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

export type InboxTables = { inbox_messages: InboxMessagesTable };

export const inboxTables = (ex: Executor) => typed<InboxTables>(ex);
