// x402 payments for calls beyond the free allowance (SPEC.md 5.3). Only reached with
// X402_ENABLED=1, an exhausted allowance and a paid-for event (run.ts). The order is the x402 one:
// no payment -> 402 with the offer; a payment -> claimed once (its hash), verified by the
// facilitator outside any transaction, then the work runs with its paid unit in one transaction,
// then the payment settles. A payment that is refused, cannot be checked, or pays for work that
// fails is released and charges nothing; a payment that does not settle withholds the result and
// gives the unit back.
import type { Ctx } from '../platform/operation.ts';
import { AppError } from '../platform/errors.ts';
import { inTransaction } from '../platform/db/executor.ts';
import { iso } from '../platform/clock.ts';
import { meteredEvent, type EventId } from './events.ts';
import type { Subject } from './caller.ts';
import { chargeUnit } from './meter.ts';
import { utcDay } from './day.ts';
import { claimPayment, finishPayment, releasePayment, returnPaidUnit } from './store.ts';
import { decodePayment, encodeJson, offerFor, paymentError, proofKey, type Offer } from './x402-shapes.ts';
import { settlePayment, verifyPayment, type FacilitatorRequest, type SettleResponse } from './facilitator.ts';
import type { MeteredResult, PaymentReceipt, Work } from './work.ts';

export type { PaymentReceipt } from './work.ts';

type Refill = { action: string; grants_left_today: number };

/** What the 402 says beside the offer: the price and the free ways (refills, the reset) from quota_exhausted. */
function alternatives(offer: Offer, exhausted: AppError) {
  const d = (exhausted.details ?? {}) as { resets_at?: string; refills?: Refill[]; free_per_day?: number };
  const refills = d.refills ?? [];
  const ways = refills.filter((r) => r.grants_left_today > 0).map((r) => r.action);
  return {
    extras: { event_id: offer.event_id, price_cents: offer.price_cents, price_usd: offer.price_cents / 100, free_per_day: d.free_per_day, resets_at: d.resets_at, refills },
    text: `${ways.length ? `refill it with ${ways.join(', ')}, ` : ''}or wait for the reset at ${d.resets_at}`,
  };
}

/** Says the result is withheld when settlement could not be done after the work ran. */
const unsettled = (err: AppError) =>
  new AppError(err.status, err.code, `${err.message.replace(/; nothing was charged and the call did not run.*$/, '')}: the call ran but its payment could not be settled, so its result is withheld and the unit is not counted; this payment is spent here`).withHeaders(err.headers);

export async function payAndRun<T>(ctx: Ctx, subject: Subject, event: EventId, now: Date, proof: string | undefined, work: Work<T>, exhausted: AppError): Promise<MeteredResult<T>> {
  const ev = meteredEvent(event);
  const offer = offerFor(ctx.config, ev);
  const { extras, text } = alternatives(offer, exhausted);
  if (proof === undefined || proof.trim() === '') {
    throw paymentError(
      'payment_required',
      `the free daily allowance of ${event} (${ev.free_per_day}) is used up: this call costs $${ev.price_usd} (${offer.v1.maxAmountRequired} units of ${offer.v1.asset} on ${offer.v1.network}); pay with x402 (X-PAYMENT or PAYMENT-SIGNATURE header, or payment_proof), ${text}`,
      offer,
      extras,
    );
  }
  const decoded = decodePayment(proof, offer);
  if (!decoded.ok) throw paymentError('payment_invalid', `the x402 payment was refused (${decoded.reason}): ${decoded.message}`, offer, { ...extras, reason: decoded.reason }, 'payment_proof');

  const ex = ctx.db.kysely;
  const hash = proofKey(decoded.payment);
  const day = utcDay(now);
  const claimed = await claimPayment(ex, { proof_hash: hash, subject: subject.allowance, event_id: event, day, x402_version: decoded.version, network: decoded.requirements.network, amount: offer.v1.maxAmountRequired, created_at: iso(now) });
  if (!claimed) {
    throw paymentError('payment_reused', 'this x402 payment was already used: one payment pays for one call; sign a new one', offer, { ...extras, reason: 'payment_reused' }, 'payment_proof');
  }

  const request: FacilitatorRequest = { x402Version: decoded.version, paymentPayload: decoded.payment, paymentRequirements: decoded.requirements };
  let done: { meter: MeteredResult<T>['meter']; paid: boolean; result: T };
  let payer: string | undefined;
  try {
    const verdict = await verifyPayment(ctx.config, ctx.log, ctx.budgets, request);
    if (!verdict.isValid) {
      throw paymentError('payment_invalid', `the x402 facilitator refused the payment: ${verdict.invalidReason}`, offer, { ...extras, reason: verdict.invalidReason }, 'payment_proof');
    }
    payer = verdict.payer;
    done = await inTransaction(ex, async (trx) => {
      const charged = await chargeUnit(trx, subject, event, now, true);
      return { ...charged, result: await work(trx, subject) };
    });
  } catch (err) {
    await releasePayment(ex, hash);
    throw err;
  }
  // A refill (or the reset) freed a unit meanwhile: the call was free, the payment stays unspent.
  if (!done.paid) {
    await releasePayment(ex, hash);
    return { result: done.result, meter: done.meter, subject };
  }

  const giveBack = (status: 'settle_failed' | 'settle_unknown', reason: string, settled?: SettleResponse) =>
    inTransaction(ex, async (trx) => {
      await returnPaidUnit(trx, subject.allowance, day, event);
      await finishPayment(trx, hash, { status, reason, payer: settled?.payer ?? payer ?? null, tx: settled?.transaction || null, settled_at: null });
    });
  let settlement: SettleResponse;
  try {
    settlement = await settlePayment(ctx.config, ctx.log, ctx.budgets, request);
  } catch (err) {
    await giveBack('settle_unknown', err instanceof AppError ? err.code : 'unexpected_settle_error');
    throw err instanceof AppError ? unsettled(err) : err;
  }
  const receiptHeader = encodeJson(settlement);
  if (!settlement.success) {
    await giveBack('settle_failed', settlement.errorReason ?? 'settlement_failed', settlement);
    throw paymentError(
      'payment_failed',
      `the x402 payment did not settle (${settlement.errorReason}): the call's result is withheld and nothing was charged; sign a new payment`,
      offer,
      { ...extras, reason: settlement.errorReason },
      'payment_proof',
    ).withHeaders({ 'payment-response': receiptHeader, 'x-payment-response': receiptHeader });
  }
  await finishPayment(ex, hash, { status: 'settled', reason: null, payer: settlement.payer ?? payer ?? null, tx: settlement.transaction || null, settled_at: iso(ctx.clock.now()) });
  if (ctx.response) {
    ctx.response.headers['payment-response'] = receiptHeader;
    ctx.response.headers['x-payment-response'] = receiptHeader;
    ctx.response.meta['x402/payment-response'] = settlement;
  }
  const receipt: PaymentReceipt = {
    settled: true,
    ...(settlement.transaction ? { transaction: settlement.transaction } : {}),
    network: settlement.network,
    ...((settlement.payer ?? payer) ? { payer: settlement.payer ?? payer } : {}),
    scheme: 'exact',
    x402_version: decoded.version,
    amount: offer.v1.maxAmountRequired,
    asset: offer.v1.asset,
    pay_to: offer.v1.payTo,
    price_cents: offer.price_cents,
  };
  return { result: done.result, meter: done.meter, subject, payment: receipt };
}

/** A one-off purchase paid with x402 (a collab product): no allowance, just the price. */
export interface PurchaseCharge {
  price_cents: number;
  /** What is bought, e.g. `collab_product:cpr_...`: the offer's resource and the payment's label. */
  resource: string;
  description: string;
}

/**
 * Verifies and settles an x402 payment of `charge` by `subject` (claimed once, like a call's
 * payment); a missing or invalid payment is the 402 with the offer. The caller records what was
 * bought after this returns.
 */
export async function payForPurchase(ctx: Ctx, subject: Subject, charge: PurchaseCharge, proof: string | undefined): Promise<PaymentReceipt> {
  const offer = offerFor(ctx.config, { event_id: charge.resource, price_cents: charge.price_cents, description: charge.description });
  const extras = { resource: charge.resource, price_cents: charge.price_cents, price_usd: charge.price_cents / 100 };
  if (proof === undefined || proof.trim() === '') {
    throw paymentError('payment_required', `${charge.description} costs $${(charge.price_cents / 100).toFixed(2)}: pay with x402 (X-PAYMENT or PAYMENT-SIGNATURE header, or payment_proof)`, offer, extras, 'payment_proof');
  }
  const decoded = decodePayment(proof, offer);
  if (!decoded.ok) throw paymentError('payment_invalid', `the x402 payment was refused (${decoded.reason}): ${decoded.message}`, offer, { ...extras, reason: decoded.reason }, 'payment_proof');
  const ex = ctx.db.kysely;
  const now = ctx.clock.now();
  const hash = proofKey(decoded.payment);
  const claimed = await claimPayment(ex, { proof_hash: hash, subject: subject.allowance, event_id: charge.resource, day: utcDay(now), x402_version: decoded.version, network: decoded.requirements.network, amount: offer.v1.maxAmountRequired, created_at: iso(now) });
  if (!claimed) throw paymentError('payment_reused', 'this x402 payment was already used: sign a new one', offer, { ...extras, reason: 'payment_reused' }, 'payment_proof');
  const request: FacilitatorRequest = { x402Version: decoded.version, paymentPayload: decoded.payment, paymentRequirements: decoded.requirements };
  let settlement: SettleResponse;
  try {
    const verdict = await verifyPayment(ctx.config, ctx.log, ctx.budgets, request);
    if (!verdict.isValid) throw paymentError('payment_invalid', `the x402 facilitator refused the payment: ${verdict.invalidReason}`, offer, { ...extras, reason: verdict.invalidReason }, 'payment_proof');
    settlement = await settlePayment(ctx.config, ctx.log, ctx.budgets, request);
  } catch (err) {
    await releasePayment(ex, hash);
    throw err;
  }
  if (!settlement.success) {
    await finishPayment(ex, hash, { status: 'settle_failed', reason: settlement.errorReason ?? 'settlement_failed', payer: settlement.payer ?? null, tx: settlement.transaction || null, settled_at: null });
    throw paymentError('payment_failed', `the x402 payment did not settle (${settlement.errorReason}): nothing was bought; sign a new payment`, offer, { ...extras, reason: settlement.errorReason }, 'payment_proof');
  }
  await finishPayment(ex, hash, { status: 'settled', reason: null, payer: settlement.payer ?? null, tx: settlement.transaction || null, settled_at: iso(ctx.clock.now()) });
  return {
    settled: true,
    ...(settlement.transaction ? { transaction: settlement.transaction } : {}),
    network: settlement.network,
    ...(settlement.payer ? { payer: settlement.payer } : {}),
    scheme: 'exact',
    x402_version: decoded.version,
    amount: offer.v1.maxAmountRequired,
    asset: offer.v1.asset,
    pay_to: offer.v1.payTo,
    price_cents: charge.price_cents,
  };
}
