// Funnel counts for the read surfaces and the feedback envelope: listings at each stage, and the
// discount state (codes issued and redeemed, the payments gate of SPEC.md 8.3), read from the
// seats-and-codes tables (founding.ts).
import type { Executor } from '../platform/db/executor.ts';
import { funnelTables as q } from './tables.ts';
import { foundingCounts, gateCounts } from './founding.ts';
import { FOUNDING_PERCENT_OFF, FOUNDING_SEATS, LATER_PERCENT_OFF } from './deal.ts';

import { PAYMENTS_GATE } from './prices.ts';

export { PAYMENTS_GATE } from './prices.ts';

export async function funnelCounts(ex: Executor): Promise<{ demoed: number; feedbacked: number; founding_verified: number }> {
  const r = await q(ex)
    .selectFrom('funnel_state')
    .select((eb) => [eb.fn.sum<number>('demoed').as('demoed'), eb.fn.sum<number>('feedbacked').as('feedbacked'), eb.fn.sum<number>('founding_verified').as('founding_verified')])
    .executeTakeFirstOrThrow();
  return { demoed: Number(r.demoed ?? 0), feedbacked: Number(r.feedbacked ?? 0), founding_verified: Number(r.founding_verified ?? 0) };
}

/** Discount codes issued and redeemed. */
export async function codeCounts(ex: Executor): Promise<{ issued: number; redeemed: number }> {
  const counts = await foundingCounts(ex);
  return { issued: counts.codes_issued, redeemed: counts.codes_redeemed };
}

/** Real feedback counted for the payments gate by kind: the funnel's own tally (founding.ts). */
export const realFeedbackByKind = (ex: Executor): Promise<{ agent: number; mcp: number }> => gateCounts(ex);

export async function discountState(ex: Executor) {
  const codes = await codeCounts(ex);
  const real = await realFeedbackByKind(ex);
  const stages = await funnelCounts(ex);
  const open = real.agent >= PAYMENTS_GATE.agent && real.mcp >= PAYMENTS_GATE.mcp;
  return {
    founding_seats: FOUNDING_SEATS,
    founding_percent_off: FOUNDING_PERCENT_OFF,
    seats_taken: stages.founding_verified,
    seats_left: Math.max(0, FOUNDING_SEATS - stages.founding_verified),
    later_percent_off: LATER_PERCENT_OFF,
    codes_issued: codes.issued,
    codes_redeemed: codes.redeemed,
    payments_open: open,
    payments_gate: {
      agent: { needed: PAYMENTS_GATE.agent, real: real.agent, missing: Math.max(0, PAYMENTS_GATE.agent - real.agent) },
      mcp: { needed: PAYMENTS_GATE.mcp, real: real.mcp, missing: Math.max(0, PAYMENTS_GATE.mcp - real.mcp) },
    },
  };
}
