// Structured survey answers on feedback items plus one row per answered
// scale, choice and amount (aggregates are GROUP BYs), and metering bonuses (a low
// pricing_fairness answer raises free allowances for some days).
import type { Kysely, Migration } from 'kysely';

export const m0023 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema.alterTable('feedback_items').addColumn('answers', 'text').execute();
    await k.schema
      .createTable('feedback_answers')
      .addColumn('feedback_id', 'text', (c) => c.notNull())
      .addColumn('question', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('num', 'double precision')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('feedback_answers_pk', ['feedback_id', 'question', 'value'])
      .execute();
    await k.schema.createIndex('feedback_answers_question').on('feedback_answers').columns(['question', 'value']).execute();
    await k.schema.createIndex('feedback_answers_created').on('feedback_answers').columns(['created_at', 'feedback_id']).execute();

    await k.schema.alterTable('meter_usage').addColumn('bonus', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await k.schema
      .createTable('meter_bonuses')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('units', 'integer', (c) => c.notNull())
      .addColumn('from_day', 'text', (c) => c.notNull())
      .addColumn('until_day', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('meter_bonuses_pk', ['subject', 'reason'])
      .execute();
  },
});
