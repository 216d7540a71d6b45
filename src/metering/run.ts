// Running a metered operation: resolve whose allowance the call spends, take one unit in the
// transaction of the work (work that fails rolls its unit back), and past the allowance either
// refuse (refusals.ts: `quota_exhausted`, or `daily_cap_reached` for an always-free event) or, with
// X402_ENABLED and a paid-for event, take the x402 path (x402.ts).
import { z } from 'zod';
import type { Ctx } from '../platform/operation.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { AppError } from '../platform/errors.ts';
import { meteredEvent, type EventId } from './events.ts';
import { charge } from './meter.ts';
import { resolveSubject, type Claims } from './caller.ts';
import { payAndRun } from './x402.ts';
import type { MeteredResult, Work } from './work.ts';

export type { MeteredResult, PaymentReceipt, Work } from './work.ts';

/** Input fields every metered tool takes beside its own (spread into its zod object). */
export const meteredArgs = {
  payment_proof: z.string().max(16_384).optional().describe('An x402 payment (X-PAYMENT header) for a call past the free allowance.'),
};

export interface MeteredClaims extends Claims {
  payment_proof?: string;
}

export async function metered<T>(ctx: Ctx, claims: MeteredClaims, event: EventId, work: Work<T>): Promise<MeteredResult<T>> {
  const subject = await resolveSubject(ctx.db.kysely, ctx, claims);
  const now = ctx.clock.now();
  try {
    return await inTransaction(ctx.db.kysely, async (trx) => {
      const meter = await charge(trx, subject, event, now);
      return { result: await work(trx, subject), meter, subject };
    });
  } catch (err) {
    const payable = err instanceof AppError && err.code === 'quota_exhausted' && ctx.config.x402.enabled && !meteredEvent(event).always_free;
    if (!payable) throw err;
    return payAndRun(ctx, subject, event, now, claims.payment_proof ?? ctx.payment, work, err);
  }
}
