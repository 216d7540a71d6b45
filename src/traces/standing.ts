// Who may move a listing's rank with a mark (an endorsement, an outcome, a trace on it), and by how
// much (docs/decisions/rank-moving-marks.md). Only a claimed, Live listing acting with its owner
// token whose owner has held the claim for CLAIM_AGE_FOR_MARKS_MS, on a listing of another owner
// group: at most one mark per depositing owner group (the tenants of one shared host together, or
// one domain), target and UTC day; at most RANK_MARKS_PER_TARGET_PER_DAY marks from everyone on one
// target a day; and one owner domain's marks add at most RANK_POINTS_PER_DOMAIN_PER_WEEK to one
// target's rank in a UTC week (a mark past it moves what is left). Anything else is recorded and
// shown, and moves nothing.
import type { Executor } from '../platform/db/executor.ts';
import { DAY_MS } from '../platform/clock.ts';
import { ownerDomain, ownerGroup } from '../platform/net/host-key.ts';
import { known, together } from '../platform/db/together.ts';
import { addCountPart, countedPart, takeCount } from './limits.ts';
import { findListingById } from '../listings/store.ts';
import type { Subject } from '../metering/caller.ts';

/** Rank-moving marks one listing may receive per UTC day, from all depositors together. */
export const RANK_MARKS_PER_TARGET_PER_DAY = 3;
/** A listing's marks move rank only once its owner has held the claim this long. */
export const CLAIM_AGE_FOR_MARKS_MS = 7 * DAY_MS;
/** Rank points one owner domain's marks add to one target in a UTC week (attraction, before decay). */
export const RANK_POINTS_PER_DOMAIN_PER_WEEK = 5;

/** The depositor as a claimed listing (it sent its owner token), when it is one. */
export interface Standing {
  listing_id: string;
  owner_domain: string;
  live: boolean;
  /** When its owner's claim was made. */
  claimed_at: string;
}

export interface RankMove {
  moves: boolean;
  /** How much of the mark moves the field (and the rank): its intensity, or what this week leaves of it. */
  intensity: number;
  /** Why the mark moves nothing, or less than asked (it is still recorded). */
  why?: string;
}

/** The caller as a claimed listing (it acts with its owner token), for the rank rules of its marks. */
export async function standingOf(ex: Executor, caller: Subject): Promise<Standing | undefined> {
  if (caller.listing_id === undefined || caller.owner_domain === undefined || caller.claimed_at === undefined) return undefined;
  const row = await findListingById(ex, caller.listing_id);
  return row && { listing_id: row.id, owner_domain: caller.owner_domain, live: row.lane === 'active', claimed_at: caller.claimed_at };
}

/** Each kind of mark as a noun with its article, for the answers that name it. */
const MARK_NOUN = { endorse: 'an endorsement', outcome: 'an outcome', trace: 'a trace' } as const;

/** The last day (Sunday) of the UTC week (Monday to Sunday) of `now`: the key of the week's counts, kept until it ends. */
export function utcWeekEnd(now: Date): Date {
  const day = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  return new Date(day.getTime() + ((7 - day.getUTCDay()) % 7) * DAY_MS);
}

/** Rank points are counted in thousandths (the counters are whole numbers; outcomes' intensities are not). */
const MILLI = 1000;

/**
 * Whether a mark from `from` on `target` moves its rank, and by how much of `intensity`; when it
 * moves, the day's and the week's counts are taken in `trx`. Only attraction adds rank points;
 * other channels move the field (as danger does) under the same daily bounds.
 */
export async function takeRankMove(
  trx: Executor,
  from: Standing | undefined,
  target: { id: string; url: string },
  now: Date,
  what: 'endorse' | 'outcome' | 'trace',
  mark: { channel: string; intensity: number },
): Promise<RankMove> {
  const none = (why: string): RankMove => ({ moves: false, intensity: 0, why });
  if (!from) return none('marks from callers acting for no claimed listing are recorded but move no rank: act for your claimed listing with its owner token (Authorization: Bearer rco_...)');
  if (!from.live) return none(`${from.listing_id} is not Live: only Live listings' marks move rank`);
  const heldMs = now.getTime() - Date.parse(from.claimed_at);
  if (heldMs < CLAIM_AGE_FOR_MARKS_MS) {
    const from7 = new Date(Date.parse(from.claimed_at) + CLAIM_AGE_FOR_MARKS_MS).toISOString();
    return none(`${from.listing_id}'s owner has held its claim for less than 7 days: its marks move rank from ${from7}`);
  }
  const group = ownerGroup(from.owner_domain);
  const targetDomain = ownerDomain(target.url);
  if (targetDomain === from.owner_domain) return none(`${target.id} belongs to your own owner domain (${from.owner_domain}): marks within one domain move no rank`);
  if (ownerGroup(targetDomain) === group) return none(`${target.id} is under ${group}, as your listing is: marks within one owner group move no rank`);
  const points = mark.channel === 'attraction';
  const week = utcWeekEnd(now);
  const pointsScope = `rank points ${target.id}`;
  const owner = `domain:${from.owner_domain}`;
  const who = group === from.owner_domain ? from.owner_domain : `an owner domain under ${group} (${from.owner_domain} or another)`;
  const movedToday = () => none(`${who} already moved ${target.id}'s rank today, so ${MARK_NOUN[what]} from it moves nothing more: one mark per owner group, target and UTC day`);
  const targetFull = () => none(`${target.id} already gained ${RANK_MARKS_PER_TARGET_PER_DAY} rank-moving marks today: the rest are recorded`);
  // Read first, so a mark the week's points refuse takes none of the day's marks from others.
  const [groupToday, targetToday, used] = await together(trx, [
    countedPart(trx, `group:${group}`, now, `rank ${target.id}`),
    countedPart(trx, `target:${target.id}`, now, 'rank marks'),
    points ? countedPart(trx, owner, week, pointsScope) : known(0),
  ] as const);
  if (groupToday >= 1) return movedToday();
  if (targetToday >= RANK_MARKS_PER_TARGET_PER_DAY) return targetFull();
  let intensity = mark.intensity;
  if (points) {
    const left = Math.max(0, RANK_POINTS_PER_DOMAIN_PER_WEEK * MILLI - used) / MILLI;
    if (left <= 0) return none(`${from.owner_domain} has added ${RANK_POINTS_PER_DOMAIN_PER_WEEK} rank points to ${target.id} this UTC week, the most one owner domain may`);
    intensity = Math.min(intensity, left);
  }
  // The takes are the guard: of concurrent marks, only as many as the bounds allow move.
  if ((await takeCount(trx, `group:${group}`, now, `rank ${target.id}`, 1)) === undefined) return movedToday();
  if ((await takeCount(trx, `target:${target.id}`, now, 'rank marks', RANK_MARKS_PER_TARGET_PER_DAY)) === undefined) return targetFull();
  if (points) await together(trx, [addCountPart(trx, owner, week, pointsScope, Math.round(intensity * MILLI))]);
  return intensity < mark.intensity
    ? { moves: true, intensity, why: `${from.owner_domain} may add ${RANK_POINTS_PER_DOMAIN_PER_WEEK} rank points to ${target.id} a UTC week: this mark moves ${intensity} of its ${mark.intensity}` }
    : { moves: true, intensity };
}
