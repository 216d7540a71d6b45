// Talk presence (SPEC.md 3.2, DESIGN.md "Talk"): the weekly check-in is for claimed listings (only
// an owner can check in). Grace starts when a claimed listing first goes Live, or when it is
// claimed if that is later, and lasts TALK_GRACE_DAYS; after it, `present` needs a check-in within
// the last 7 days. An unclaimed listing's presence is its probes: it never needs a check-in.
import { DAY_MS } from '../platform/clock.ts';

export const PRESENCE_WINDOW_DAYS = 7;

export interface TalkState {
  /** false for an unclaimed listing: nobody can check in for it, so its probes are its presence. */
  required: boolean;
  active: boolean;
  mode: 'grace' | 'present';
  reason: string;
  last_at?: string;
  grace_days_left?: number;
}

export interface PresenceFacts {
  live_since: string | null;
  talk_last_at: string | null;
  /** When its current owner claimed it; null for an unclaimed listing. */
  claimed_at: string | null;
}

/** When the grace starts: the later of going Live and being claimed (null: not yet both). */
export function graceStart(liveSince: string | null, claimedAt: string | null): string | null {
  if (!liveSince || !claimedAt) return null;
  return liveSince > claimedAt ? liveSince : claimedAt;
}

/** Days of onboarding grace left (rounded up), or null when grace has not started or is over. */
export function graceDaysLeft(liveSince: string | null, claimedAt: string | null, now: Date, graceDays: number): number | null {
  const start = graceStart(liveSince, claimedAt);
  if (!start) return null;
  const ends = new Date(start).getTime() + graceDays * DAY_MS;
  return now.getTime() < ends ? Math.ceil((ends - now.getTime()) / DAY_MS) : null;
}

const UNCLAIMED: TalkState = {
  required: false,
  active: true,
  mode: 'present',
  reason: 'unclaimed: its probes are its presence; once its owner claims it, a check-in at least weekly keeps it Live',
};

export function talkState(listing: PresenceFacts, now: Date, graceDays: number): TalkState {
  if (listing.claimed_at === null) return UNCLAIMED;
  const t = now.getTime();
  const last = listing.talk_last_at ? new Date(listing.talk_last_at).getTime() : null;
  const recent = last !== null && t - last <= PRESENCE_WINDOW_DAYS * DAY_MS;
  if (recent) {
    return { required: true, active: true, mode: 'present', reason: `checked in within the last ${PRESENCE_WINDOW_DAYS} days`, last_at: listing.talk_last_at! };
  }
  const start = graceStart(listing.live_since, listing.claimed_at);
  if (!start) {
    return {
      required: true,
      active: true,
      mode: 'grace',
      reason: `the ${graceDays}-day grace starts when the listing first goes Live`,
      grace_days_left: graceDays,
    };
  }
  const graceEnds = new Date(start).getTime() + graceDays * DAY_MS;
  if (t < graceEnds) {
    const left = Math.ceil((graceEnds - t) / DAY_MS);
    return { required: true, active: true, mode: 'grace', reason: `onboarding grace: check in within ${left} day(s)`, grace_days_left: left };
  }
  const reason = `no check-in within the last ${PRESENCE_WINDOW_DAYS} days; check in to stay Live`;
  return last !== null
    ? { required: true, active: false, mode: 'present', reason, last_at: listing.talk_last_at! }
    : { required: true, active: false, mode: 'grace', reason: `grace ended: ${reason}`, grace_days_left: 0 };
}
