// A session's messages: how many, and the latest ones.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import type { Message } from './row.ts';

export async function countMessages(ex: Executor, sessionId: string): Promise<number> {
  const row = await q(ex).selectFrom('collab_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('session_id', '=', sessionId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The session's latest messages, oldest first. */
export async function recentMessages(ex: Executor, sessionId: string, limit: number): Promise<Message[]> {
  const rows = await q(ex).selectFrom('collab_messages').select(['id', 'from_listing_id', 'body', 'created_at']).where('session_id', '=', sessionId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.reverse();
}
