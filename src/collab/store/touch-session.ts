// Work inside a session (a claim, a result, a message) makes it the most recently updated.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';

export async function touchSession(ex: Executor, id: string, now: string): Promise<void> {
  await q(ex).updateTable('collab_sessions').set({ updated_at: now }).where('id', '=', id).execute();
}
