// A participant nobody invited (open join, bring-your-own) takes a seat, once.
import type { Executor } from '../../platform/db/executor.ts';
import { flag } from '../../platform/db/flag.ts';
import { collabTables as q } from '../tables.ts';

/** Adds a participant that was not invited (open join, bring-your-own); false when it was there already. */
export async function addParticipant(ex: Executor, sessionId: string, seat: { listing_id: string; role: string; status: 'invited' | 'joined'; byo: boolean }, now: string): Promise<boolean> {
  const res = await q(ex)
    .insertInto('collab_participants')
    .values({ session_id: sessionId, listing_id: seat.listing_id, role: seat.role, status: seat.status, byo: flag(seat.byo), invited_at: now, joined_at: seat.status === 'joined' ? now : null })
    .onConflict((oc) => oc.columns(['session_id', 'listing_id']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}
