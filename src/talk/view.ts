// Talk's part of the listing view: the `talk` object (SPEC.md 2.1), which depends on whether the
// listing is claimed (only claimed listings check in).
import type { Executor } from '../platform/db/executor.ts';
import type { ListingViewPart } from '../listings/view-part.ts';
import { ownersOf } from '../owners/store.ts';
import { lastCheckIns } from './store.ts';
import { talkState, type TalkState } from './presence.ts';

export interface PresenceRow {
  last_at: string | null;
  claimed_at: string | null;
}

/** Each listing's last check-in and its live claim's time (lapsed claims are no claim). */
export async function presenceOf(ex: Executor, ids: string[]): Promise<Map<string, PresenceRow>> {
  const [seen, owners] = await Promise.all([lastCheckIns(ex, ids), ownersOf(ex, ids)]);
  const out = new Map<string, PresenceRow>();
  for (const id of ids) {
    const owner = owners.get(id);
    const claimedAt = owner && owner.lapsed_at === null ? owner.claimed_at : null;
    const lastAt = seen.get(id) ?? null;
    if (claimedAt !== null || lastAt !== null) out.set(id, { last_at: lastAt, claimed_at: claimedAt });
  }
  return out;
}

export const talkViewPart: ListingViewPart<PresenceRow, { talk: TalkState }> = {
  load: presenceOf,
  fields: (row, p, v) => ({ talk: talkState({ live_since: row.live_since, talk_last_at: p?.last_at ?? null, claimed_at: p?.claimed_at ?? null }, v.now, v.config.talkGraceDays) }),
};
