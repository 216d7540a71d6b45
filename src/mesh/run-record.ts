// What a run of a composition records (execute_compose, one transaction after the calls). Every
// effect lands on the listing that did the work, with the run that caused it: each partner that
// answered gets an outcome (ok, quality 1: it answered; how well is the caller's to say with
// deposit_outcome) and a little attraction, which moves its rank only by the rank rules
// (traces/standing.ts: a claimed Live listing of another owner domain, acting with its owner
// token; anyone else's is recorded and moves nothing); each partner that failed by its own doing
// gets an outcome ok: false and a danger mark. The composer gets what a composer gets: used_with
// with the first partner that answered (the pair's composition intensity). A step the caller's
// arguments made fail, or that Rollcall held back, marks nobody; a run in which no partner was
// called records nothing.
import type { Executor } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { findListingsByIds } from '../listings/store.ts';
import { appendFeedEvent } from '../feed/store.ts';
import type { Subject } from '../metering/caller.ts';
import { deposit } from '../traces/store.ts';
import { subjectKey } from '../traces/subjects.ts';
import { recordOutcome } from '../traces/outcomes.ts';
import { systemDeposit } from '../traces/system.ts';
import { standingOf, takeRankMove } from '../traces/standing.ts';
import type { StepReport } from './execute.ts';
import { NOT_THE_PARTNER } from './run-hint.ts';
import type { Composition } from './store.ts';

/** used_with's attraction on a pair (the same as an endorsement's half: use is weaker than praise). */
export const USED_WITH_INTENSITY = 3;
/** A partner that answered a step: attraction on it (as used_with on a pair: it was used, how well is the caller's to say). */
export const ANSWERED_INTENSITY = 3;
/** A partner that failed in a run: a danger mark (as a failed probe), once per partner and caller per day. */
export const COMPOSE_DANGER = 3;

export interface RecordedOutcome {
  outcome_id: string;
  step: number;
  listing_id: string;
  ok: boolean;
  quality: number;
  moves_rank: boolean;
  why?: string;
}

export interface Recorded {
  used_with: { listing_id: string; partner_listing_id: string }[];
  outcomes: RecordedOutcome[];
  danger: string[];
}

/** Records one use of a pair in the caller's transaction: attraction on the pair, by `depositor`. */
export async function recordUse(trx: Executor, a: string, b: string, depositor: string, now: Date, body: string): Promise<void> {
  await deposit(trx, { channel: 'attraction', subject: subjectKey({ kind: 'pair', listing_id: a, partner_listing_id: b }), intensity: USED_WITH_INTENSITY, body, depositor, at: now });
}

/** A step that called its partner (answered or failed); a skipped one called nobody. */
const executed = (s: StepReport) => s.calls.length > 0;

export interface RunRecord {
  composition: Composition;
  steps: StepReport[];
  caller: Subject;
  /** The run's label, kept as each outcome's `from`. */
  from: string;
  now: Date;
}

export async function recordRun(trx: Executor, r: RunRecord): Promise<Recorded> {
  const { composition: c, caller, now } = r;
  const recorded: Recorded = { used_with: [], outcomes: [], danger: [] };
  const called = r.steps.filter(executed);
  if (!called.length) return recorded;
  const answered = called.filter((s) => s.status === 'ok');
  // used_with on the chain of partners that answered, the composer with the first of them.
  const chain = [...(c.listing_id ? [c.listing_id] : []), ...answered.map((s) => s.listing_id)];
  for (let i = 1; i < chain.length; i++) {
    if (chain[i] === chain[i - 1]) continue;
    await recordUse(trx, chain[i - 1]!, chain[i]!, caller.key, now, `used together in ${r.from}`);
    recorded.used_with.push({ listing_id: chain[i - 1]!, partner_listing_id: chain[i]! });
  }
  const standing = await standingOf(trx, caller);
  const rows = new Map((await findListingsByIds(trx, called.map((s) => s.listing_id))).map((row) => [row.id, row]));
  for (const s of called) {
    const partner = rows.get(s.listing_id);
    // Work for the caller's own listing is no value given to others; a step that failed for no fault of its partner marks nobody.
    if (!partner || partner.id === caller.listing_id) continue;
    if (s.status !== 'ok' && NOT_THE_PARTNER.has(s.reason ?? '')) continue;
    const ok = s.status === 'ok';
    let move: { moves: boolean; why?: string } = { moves: false };
    if (ok) {
      const moved = await takeRankMove(trx, standing, partner, now, 'outcome', { channel: 'attraction', intensity: ANSWERED_INTENSITY });
      move = moved;
      await deposit(trx, { channel: 'attraction', subject: subjectKey({ kind: 'listing', listing_id: partner.id }), intensity: moved.moves ? moved.intensity : ANSWERED_INTENSITY, body: `answered step ${s.step} of ${r.from}`, depositor: caller.key, at: now }, { moves: moved.moves });
    } else {
      const marked = await systemDeposit(trx, { kind: 'listing', listing_id: partner.id }, 'danger', COMPOSE_DANGER, now, {
        body: `execute_compose step failed: ${s.reason}`,
        oncePerDay: `compose danger ${partner.id} ${caller.key}`,
      });
      if (marked) recorded.danger.push(partner.id);
    }
    const outcome = await recordOutcome(trx, {
      listing_id: partner.id,
      ok,
      quality: ok ? 1 : 0,
      body: ok ? `execute_compose: step ${s.step} answered` : `execute_compose: step ${s.step} failed (${s.reason})`,
      from: r.from,
      depositor: caller.key,
      at: iso(now),
    });
    recorded.outcomes.push({ outcome_id: outcome.id, step: s.step, listing_id: partner.id, ok, quality: outcome.quality, moves_rank: move.moves, ...(ok && move.why ? { why: move.why } : {}) });
  }
  const failed = called.filter((s) => s.status === 'failed').length;
  await appendFeedEvent(trx, 'composition.executed', called[0]!.listing_id, iso(now), {
    composition_id: c.composition_id,
    answered: answered.length,
    failed,
    skipped: r.steps.length - called.length,
  });
  return recorded;
}
