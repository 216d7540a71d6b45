// Who may move a listing's rank with a mark (an endorsement, an outcome, a trace on it). Only a
// claimed, Live listing acting with its owner token, on a listing of another owner domain: at most
// one mark per depositing domain, target and UTC day, and at most RANK_MARKS_PER_TARGET_PER_DAY
// marks from everyone on one target a day. Anything else is recorded and shown, and moves nothing.
import type { Executor } from '../platform/db/executor.ts';
import { ownerDomain } from '../platform/net/host-key.ts';
import { takeCount } from './limits.ts';

/** Rank-moving marks one listing may receive per UTC day, from all depositors together. */
export const RANK_MARKS_PER_TARGET_PER_DAY = 3;

/** The depositor as a claimed listing (it sent its owner token), when it is one. */
export interface Standing {
  listing_id: string;
  owner_domain: string;
  live: boolean;
}

export interface RankMove {
  moves: boolean;
  /** Why the mark moves nothing (it is still recorded). */
  why?: string;
}

/** Each kind of mark as a noun with its article, for the answers that name it. */
const MARK_NOUN = { endorse: 'an endorsement', outcome: 'an outcome', trace: 'a trace' } as const;

/**
 * Whether a mark from `from` on `target` moves its rank; when it does, the day's counts are taken
 * in `trx` (concurrent marks never pass a bound).
 */
export async function takeRankMove(trx: Executor, from: Standing | undefined, target: { id: string; url: string }, now: Date, what: 'endorse' | 'outcome' | 'trace'): Promise<RankMove> {
  if (!from) return { moves: false, why: 'marks from callers acting for no claimed listing are recorded but move no rank: act for your claimed listing with its owner token (Authorization: Bearer rco_...)' };
  if (!from.live) return { moves: false, why: `${from.listing_id} is not Live: only Live listings' marks move rank` };
  if (ownerDomain(target.url) === from.owner_domain) return { moves: false, why: `${target.id} belongs to your own owner domain (${from.owner_domain}): marks within one domain move no rank` };
  if ((await takeCount(trx, `domain:${from.owner_domain}`, now, `rank ${what} ${target.id}`, 1)) === undefined) {
    return { moves: false, why: `${from.owner_domain} already moved ${target.id}'s rank with ${MARK_NOUN[what]} today: one per domain, target and UTC day` };
  }
  if ((await takeCount(trx, `target:${target.id}`, now, 'rank marks', RANK_MARKS_PER_TARGET_PER_DAY)) === undefined) {
    return { moves: false, why: `${target.id} already gained ${RANK_MARKS_PER_TARGET_PER_DAY} rank-moving marks today: the rest are recorded` };
  }
  return { moves: true };
}
