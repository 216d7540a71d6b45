// Budgets that bound what strangers can make Rollcall do to one host, whoever asks and however
// many listings they make of it, shared by every instance and keyed on the host key (a registrable
// domain, or an address: the same key as the per-host concurrency cap). 0 turns a budget off.
// - PROBE_HOST_PER_HOUR: outbound requests of any kind to a host per UTC hour, each counted before
//   it is made (a probe counts several ahead, reservation.ts). Public work (anything not an
//   owner's) may use PUBLIC_SHARE of it; the rest stays for the owners' own work (probes of claimed
//   listings, re-checks of an owner's proof, calls with an owner token), so strangers cannot
//   starve a claimed listing.
// - PUBLISH_HOST_PER_DAY: new listings of a host per UTC day from callers who do not own it,
//   counted with the listing's own writes (publishPart).
// - CALLER_FETCHES_PER_HOUR: what a caller asks Rollcall to fetch from places it names (a proof to
//   verify, an unknown URL to score) is paid from the caller's own hourly allowance (takeCallerFetch).
import { HOUR_MS, DAY_MS, type Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import { OutboundError } from '../net/guarded-client.ts';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Executor } from '../db/executor.ts';
import { DbCounters, RedisCounters, type BudgetCounters } from './counters.ts';
import { known, mapPart, type Part } from '../db/together.ts';
import { HostReservation } from './reservation.ts';

export type BudgetShare = 'public' | 'owner';

/** The share of a host's hourly requests public work may use (the rest waits for owners). */
export const PUBLIC_SHARE = 0.8;

/**
 * Requests are taken ahead (reservation.ts) only from a public share at least this many times
 * larger than one take: what running work holds unused at once then stays a few percent of the
 * hour's budget (at the defaults, 480 requests and 8 taken ahead). Below it every request is
 * taken one by one, and a refusal always means the hour's requests were made.
 */
export const AHEAD_SHARE = 40;

export interface HostBudgetLimits {
  requestsPerHour: number;
  publishesPerDay: number;
  /** Fetches of places a caller names (a proof to verify, an unknown URL to score) per caller and UTC hour. */
  callerFetchesPerHour: number;
}

const secondsUntil = (next: number, now: number) => Math.max(1, Math.ceil((next - now) / 1000));

/** The 429 a caller waiting on an answer gets when a host's budget has no room, with Retry-After. */
export const hostBudgetError = (message: string, retryAfterS: number, field?: string) =>
  new AppError(429, 'host_budget', message, field, { retry_after_s: retryAfterS }).withHeaders({ 'retry-after': String(retryAfterS) });

export class HostBudgets {
  constructor(
    private readonly counters: BudgetCounters,
    private readonly clock: Clock,
    readonly limits: HostBudgetLimits,
  ) {}

  private hourOf(now: Date) {
    return { period: now.toISOString().slice(0, 13), retryAfterS: secondsUntil(Math.floor(now.getTime() / HOUR_MS + 1) * HOUR_MS, now.getTime()) };
  }

  private requestLimit(share: BudgetShare): number {
    const all = this.limits.requestsPerHour;
    return share === 'owner' ? all : Math.max(1, Math.floor(all * PUBLIC_SHARE));
  }

  /**
   * Counts one fetch a caller asks Rollcall to make of a place it names (a verification, a score of
   * an unknown URL): paid from the caller's own hourly allowance (`caller`: its address or owner
   * domain), never from the host's. The 429 `caller_budget` past it.
   */
  async takeCallerFetch(caller: string, field?: string): Promise<void> {
    const limit = this.limits.callerFetchesPerHour;
    if (limit === 0) return;
    const { period, retryAfterS } = this.hourOf(this.clock.now());
    if (await this.counters.takeBelow(`fetches:${caller}`, period, limit, 2 * HOUR_MS)) return;
    throw new AppError(429, 'caller_budget', `you have asked for ${limit} verifications and scores of unknown URLs this hour, the most one caller may; retry in ${retryAfterS} s`, field, { retry_after_s: retryAfterS, limit }).withHeaders({
      'retry-after': String(retryAfterS),
    });
  }

  /** Seconds until a new hour gives every host its requests again. */
  hourRetryAfterS(): number {
    return this.hourOf(this.clock.now()).retryAfterS;
  }

  /** Counts one request to `host`, or throws OutboundError `host_budget` when its hour has no room for `share`. */
  async admit(host: string, share: BudgetShare): Promise<void> {
    if (this.limits.requestsPerHour === 0) return;
    const { period, retryAfterS } = this.hourOf(this.clock.now());
    const limit = this.requestLimit(share);
    if (await this.counters.takeBelow(`requests:${host}`, period, limit, 2 * HOUR_MS)) return;
    throw new OutboundError('host_budget', `${host} has had its ${limit} outbound requests${share === 'public' ? ' open to anyone' : ''} this hour; retry in ${retryAfterS} s`);
  }

  /**
   * Takes `n` of `host`'s public requests this hour at once, or none when fewer are left: the
   * period they were counted in, or undefined.
   */
  async takeAhead(host: string, n: number): Promise<string | undefined> {
    const limit = this.requestLimit('public');
    if (this.limits.requestsPerHour === 0 || n * AHEAD_SHARE > limit) return undefined;
    const { period } = this.hourOf(this.clock.now());
    return (await this.counters.takeBelow(`requests:${host}`, period, limit, 2 * HOUR_MS, n)) ? period : undefined;
  }

  /**
   * takeAhead for `works` pieces of work on `host` at once (`ahead` requests each), as a part of the
   * caller's batch (platform/db/together.ts; in Redis taken now): the period they were counted in,
   * or undefined when they were not (the work then takes its requests one by one).
   */
  async takeAheadPart(host: string, ahead: number, works: number): Promise<Part<string | undefined>> {
    const limit = this.requestLimit('public');
    if (this.limits.requestsPerHour === 0 || ahead * AHEAD_SHARE > limit) return known(undefined);
    const { period } = this.hourOf(this.clock.now());
    return mapPart(await this.counters.takePart(`requests:${host}`, period, limit, 2 * HOUR_MS, ahead * works), (taken) => (taken ? period : undefined));
  }

  /** Uncounts `n` requests of `host` taken ahead in `period` and not made (BudgetCounters.giveBack). */
  giveBackRequests(host: string, period: string, n: number): Promise<Part<void>> {
    return this.counters.giveBack(`requests:${host}`, period, n);
  }

  /**
   * The admit hook of one piece of work that makes several requests to `host` (a probe): see
   * HostReservation. `isOwner` says whether the work is an owner's; it is asked only when the
   * public share has no room. `takenIn`: the take ahead was made already (takeAheadPart, in the
   * period given; none when it was refused). Undefined when the budget is off.
   */
  reserve(host: string, ahead: number, isOwner: () => Promise<boolean>, takenIn?: { period: string | undefined }): HostReservation | undefined {
    return this.limits.requestsPerHour === 0 ? undefined : new HostReservation(this, host, ahead, isOwner, takenIn);
  }

  /** The admit hook of outbound requests of `share` (undefined when the budget is off). */
  admitter(share: BudgetShare): ((host: string) => Promise<void>) | undefined {
    return this.limits.requestsPerHour === 0 ? undefined : (host) => this.admit(host, share);
  }

  /** Seconds to wait when `host` has no request left this hour for `share`; undefined when it has room. */
  async noRoomFor(host: string, share: BudgetShare): Promise<number | undefined> {
    if (this.limits.requestsPerHour === 0) return undefined;
    const { period, retryAfterS } = this.hourOf(this.clock.now());
    return (await this.counters.count(`requests:${host}`, period)) >= this.requestLimit(share) ? retryAfterS : undefined;
  }

  /**
   * Counts one new listing of `host` today, as a part of the batch that writes the listing
   * (platform/db/together.ts; in Redis it is taken now): the part throws the 429 `host_budget`
   * when the day's are used, so the listing is not written and the count rolls back with it.
   */
  async publishPart(host: string, field: string): Promise<Part<void>> {
    const limit = this.limits.publishesPerDay;
    if (limit === 0) return known(undefined);
    const now = this.clock.now();
    const take = await this.counters.takePart(`publishes:${host}`, now.toISOString().slice(0, 10), limit, 2 * DAY_MS);
    return mapPart(take, (taken) => {
      if (taken) return;
      const retryAfterS = secondsUntil(Math.floor(now.getTime() / DAY_MS + 1) * DAY_MS, now.getTime());
      throw hostBudgetError(
        `${host} has had its ${limit} new listings today from callers who do not own it; retry in ${retryAfterS} s, or claim the URL (claim_listing {url}), which lists it once you prove control`,
        retryAfterS,
        field,
      );
    });
  }
}

/** The budgets of a process: counted in Redis when it is configured (the database while it is unreachable), else in the database. */
export function openHostBudgets(config: Pick<Config, 'probeHostPerHour' | 'publishHostPerDay' | 'callerFetchesPerHour' | 'redisPrefix'>, db: Executor, clock: Clock, redis?: Redis): HostBudgets {
  const inDb = new DbCounters(db);
  const counters = redis ? new RedisCounters(redis, config.redisPrefix, inDb) : inDb;
  return new HostBudgets(counters, clock, { requestsPerHour: config.probeHostPerHour, publishesPerDay: config.publishHostPerDay, callerFetchesPerHour: config.callerFetchesPerHour });
}
