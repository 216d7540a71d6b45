// Talk's part of the listing view: the `talk` object (SPEC.md 2.1).
import type { ListingViewPart } from '../listings/view-part.ts';
import { lastCheckIns } from './store.ts';
import { talkState, type TalkState } from './presence.ts';

export const talkViewPart: ListingViewPart<string, { talk: TalkState }> = {
  load: lastCheckIns,
  fields: (row, lastAt, v) => ({ talk: talkState({ live_since: row.live_since, talk_last_at: lastAt ?? null }, v.now, v.config.talkGraceDays) }),
};
