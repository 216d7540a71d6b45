// x402 payments taken for calls beyond the free allowance: one row per signed payment,
// keyed by its hash, so a proof pays for one call only, across instances.
import type { Kysely, Migration } from 'kysely';

export const m0017 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('x402_payments')
      .addColumn('proof_hash', 'text', (c) => c.primaryKey())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('x402_version', 'integer', (c) => c.notNull())
      .addColumn('network', 'text', (c) => c.notNull())
      .addColumn('amount', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('payer', 'text')
      .addColumn('tx', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('settled_at', 'text')
      .execute();
    await k.schema.createIndex('x402_payments_subject_day').on('x402_payments').columns(['subject', 'day']).execute();
  },
});
