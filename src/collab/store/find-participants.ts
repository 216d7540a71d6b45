// Reading a session's participants: all of them (of one session or several), one, or how many.
import type { Executor } from '../../platform/db/executor.ts';
import { collabTables as q } from '../tables.ts';
import { toParticipant, type Participant } from './row.ts';

export async function participantsOf(ex: Executor, sessionId: string): Promise<Participant[]> {
  const rows = await q(ex).selectFrom('collab_participants').selectAll().where('session_id', '=', sessionId).orderBy('invited_at').orderBy('listing_id').execute();
  return rows.map(toParticipant);
}

export async function findParticipant(ex: Executor, sessionId: string, listingId: string): Promise<Participant | undefined> {
  const row = await q(ex).selectFrom('collab_participants').selectAll().where('session_id', '=', sessionId).where('listing_id', '=', listingId).executeTakeFirst();
  return row && toParticipant(row);
}

export async function countParticipants(ex: Executor, sessionId: string): Promise<number> {
  const row = await q(ex).selectFrom('collab_participants').select((eb) => eb.fn.countAll<number>().as('n')).where('session_id', '=', sessionId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Per session: its participants (for lists). */
export async function participantsOfMany(ex: Executor, sessionIds: string[]): Promise<Map<string, Participant[]>> {
  const out = new Map<string, Participant[]>(sessionIds.map((id) => [id, []]));
  if (!sessionIds.length) return out;
  const rows = await q(ex).selectFrom('collab_participants').selectAll().where('session_id', 'in', sessionIds).orderBy('invited_at').orderBy('listing_id').execute();
  for (const r of rows) out.get(r.session_id)!.push(toParticipant(r));
  return out;
}
