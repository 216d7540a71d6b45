// The evidence a loop tick reads (TOOLS.md run_loop_tick: "feedback and outcomes since the last
// tick"): feedback by the caller or about the kernel's listing, outcomes deposited by the caller or
// about that listing, from the latest version's mark on (evidence-mark.ts). Each version carries
// its mark in its spec and improve_kernel passes it on, so no item is read by two ticks and none
// is skipped, whatever versions come between.
import type { Executor } from '../platform/db/executor.ts';
import type { Subject } from '../metering/caller.ts';
import { outcomesSince, type Outcome } from '../traces/outcomes.ts';
import { feedbackSince, type FeedbackItem } from '../feedback/store.ts';
import type { EvidenceMark } from './build.ts';
import { isUnread, markOf } from './evidence-mark.ts';
import type { KernelVersion } from './store.ts';

/** Items of each kind one tick reads at most. */
export const TICK_READ = 200;

export interface Evidence {
  /** Where this read started. */
  from: EvidenceMark;
  feedback: FeedbackItem[];
  outcomes: Outcome[];
  /** A read filled its limit: more unread evidence waits for the next tick. */
  more: boolean;
}

/** The millisecond before an ISO time: a read "after" it includes the time itself. */
const justBefore = (at: string) => new Date(Date.parse(at) - 1).toISOString();

/**
 * Unread feedback and outcomes for a caller's latest kernel, oldest first. When a read fills its
 * limit, what lies after the last item it could hold is left for the next tick (the mark stops
 * there), so a busy caller's evidence is read in order rather than skipped.
 */
export async function unreadEvidence(ex: Executor, subject: Subject, latest: KernelVersion): Promise<Evidence> {
  const from = markOf(latest);
  const since = justBefore(from.at);
  const listingId = latest.listing_id;
  const feedback = await feedbackSince(ex, { subject: subject.key, ...(listingId ? { listing_id: listingId } : {}) }, since, TICK_READ);
  const mine = await outcomesSince(ex, { depositor: subject.key }, since, TICK_READ);
  const about = listingId ? await outcomesSince(ex, { listing_id: listingId }, since, TICK_READ) : [];
  const fullUpTo = [feedback.map((f) => f.created_at), mine.map((o) => o.at), about.map((o) => o.at)].filter((ats) => ats.length >= TICK_READ).map((ats) => ats[ats.length - 1]!);
  const until = fullUpTo.length ? fullUpTo.reduce((a, b) => (a < b ? a : b)) : undefined;
  const keep = (item: { id: string; at: string }) => isUnread(from, item) && (until === undefined || item.at <= until);
  const seen = new Set<string>();
  return {
    from,
    more: until !== undefined,
    feedback: feedback.filter((f) => keep({ id: f.id, at: f.created_at })),
    outcomes: [...mine, ...about].filter((o) => keep(o) && !seen.has(o.id) && seen.add(o.id)).sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id)),
  };
}
