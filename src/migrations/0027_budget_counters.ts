// Budgets shared by every instance: per key (a budget and a host) and period (a UTC hour or day),
// how much was used (src/platform/budget).
import type { Kysely, Migration } from 'kysely';

export const m0027 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('budget_counters')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('budget_counters_pk', ['key', 'period'])
      .execute();
    await k.schema.createIndex('budget_counters_period').on('budget_counters').column('period').execute();
  },
});
