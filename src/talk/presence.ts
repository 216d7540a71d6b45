// Talk presence (SPEC.md 3.2, DESIGN.md "Talk"): grace starts when a listing first goes Live and
// lasts TALK_GRACE_DAYS; after it, `present` needs a check-in within the last 7 days.
import { DAY_MS } from '../platform/clock.ts';

export const PRESENCE_WINDOW_DAYS = 7;

export interface TalkState {
  required: true;
  active: boolean;
  mode: 'grace' | 'present';
  reason: string;
  last_at?: string;
  grace_days_left?: number;
}

/** Days of onboarding grace left (rounded up), or null when grace has not started or is over. */
export function graceDaysLeft(liveSince: string | null, now: Date, graceDays: number): number | null {
  if (!liveSince) return null;
  const ends = new Date(liveSince).getTime() + graceDays * DAY_MS;
  return now.getTime() < ends ? Math.ceil((ends - now.getTime()) / DAY_MS) : null;
}

export function talkState(
  listing: { live_since: string | null; talk_last_at: string | null },
  now: Date,
  graceDays: number,
): TalkState {
  const t = now.getTime();
  const last = listing.talk_last_at ? new Date(listing.talk_last_at).getTime() : null;
  const recent = last !== null && t - last <= PRESENCE_WINDOW_DAYS * DAY_MS;
  if (recent) {
    return { required: true, active: true, mode: 'present', reason: `checked in within the last ${PRESENCE_WINDOW_DAYS} days`, last_at: listing.talk_last_at! };
  }
  if (!listing.live_since) {
    return {
      required: true,
      active: true,
      mode: 'grace',
      reason: `the ${graceDays}-day grace starts when the listing first goes Live`,
      grace_days_left: graceDays,
    };
  }
  const graceEnds = new Date(listing.live_since).getTime() + graceDays * DAY_MS;
  if (t < graceEnds) {
    const left = Math.ceil((graceEnds - t) / DAY_MS);
    return { required: true, active: true, mode: 'grace', reason: `onboarding grace: check in within ${left} day(s)`, grace_days_left: left };
  }
  const reason = `no check-in within the last ${PRESENCE_WINDOW_DAYS} days; check in to stay Live`;
  return last !== null
    ? { required: true, active: false, mode: 'present', reason, last_at: listing.talk_last_at! }
    : { required: true, active: false, mode: 'grace', reason: `grace ended: ${reason}`, grace_days_left: 0 };
}
