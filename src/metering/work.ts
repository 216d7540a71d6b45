// The shapes a metered call runs and answers with (run.ts runs them; x402.ts runs the paid path).
import type { Executor } from '../platform/db/executor.ts';
import type { MeterView } from './meter.ts';
import type { Subject } from './caller.ts';

export type Work<T> = (trx: Executor, subject: Subject) => Promise<T>;

/** What a paid call's result carries (x402 SettlementResponse, plus what was paid). */
export interface PaymentReceipt {
  settled: boolean;
  transaction?: string;
  network: string;
  payer?: string;
  scheme: 'exact';
  x402_version: 1 | 2;
  /** Atomic units of `asset` paid (the event's price_cents at the asset's decimals). */
  amount: string;
  asset: string;
  pay_to: string;
  price_cents: number;
}

export interface MeteredResult<T> {
  result: T;
  meter: MeterView;
  subject: Subject;
  /** Present when the call was paid through x402. */
  payment?: PaymentReceipt;
}
