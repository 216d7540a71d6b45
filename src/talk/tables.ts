// The talk domain's table: presence on the talk channel. Only src/talk/ may import this module.
import { typed, type Executor } from '../platform/db/executor.ts';

export interface TalkPresenceTable {
  listing_id: string;
  last_at: string; // the latest check-in
}

export interface TalkTables {
  talk_presence: TalkPresenceTable;
}

export const talkTables = (ex: Executor) => typed<TalkTables>(ex);
