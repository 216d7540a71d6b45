// Badges and their rank_delta (SPEC.md 2.1, DESIGN.md "Rank"): active order = rank_delta + probe
// score (+ trail strength once traces exist). No hidden boosts.
export type Badge = 'founding_verified' | 'demoed_no_feedback' | 'never_demoed' | 'feedbacked';

export interface FunnelFlags {
  demoed: boolean;
  feedbacked: boolean;
  founding_verified: boolean;
}

export const RANK_DELTA: Record<Badge, number> = {
  founding_verified: 120,
  feedbacked: 0, // real feedback after the seats ran out (25% code): no penalty, no boost
  demoed_no_feedback: -5, // a soft penalty, milder than never_demoed
  never_demoed: -15,
};

export const BADGE_LABEL: Record<Badge, string> = {
  founding_verified: 'Founding verified',
  feedbacked: 'Feedback given',
  demoed_no_feedback: 'Demoed, awaiting feedback',
  never_demoed: 'Never demoed',
};

export function badgeFor(flags: FunnelFlags): Badge {
  if (flags.founding_verified) return 'founding_verified';
  if (flags.feedbacked) return 'feedbacked';
  if (flags.demoed) return 'demoed_no_feedback';
  return 'never_demoed';
}

/** The funnel's contribution to a listing's rank (DESIGN.md "Rank"). */
export const rankDelta = (flags: FunnelFlags): number => RANK_DELTA[badgeFor(flags)];

export const BADGE_POLICY = {
  founding_verified: {
    rank_delta: RANK_DELTA.founding_verified,
    how: 'Real ultra feedback (a 1-5 rating and one honest sentence) after a demo takes a founding seat: rank boost and the full value tools free.',
  },
  demoed_no_feedback: {
    rank_delta: RANK_DELTA.demoed_no_feedback,
    how: 'A soft rank penalty after a demo until ultra feedback arrives.',
  },
  never_demoed: {
    rank_delta: RANK_DELTA.never_demoed,
    how: 'The default for a Live listing; the call to action is complete_founding_path.',
  },
  feedbacked: {
    rank_delta: RANK_DELTA.feedbacked,
    how: 'Real feedback given after the founding seats ran out; it earns the 25% code.',
  },
} as const;
