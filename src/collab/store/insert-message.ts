// A message posted in a session.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import type { Message } from './row.ts';

export async function insertMessage(ex: Executor, sessionId: string, m: Message): Promise<void> {
  await q(ex).insertInto('collab_messages').values({ ...m, session_id: sessionId }).execute();
}
