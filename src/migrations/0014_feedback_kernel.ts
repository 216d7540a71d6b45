// Feedback items (ultra form) with their themes and once-a-day counts, and kernel
// versions per caller with a head row that numbers them atomically.
import type { Kysely, Migration } from 'kysely';

export const m0014 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('feedback_items')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text')
      .addColumn('source', 'text')
      .addColumn('agent_name', 'text')
      .addColumn('sku', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull())
      .addColumn('audience', 'text')
      .addColumn('surface', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('structured', 'integer', (c) => c.notNull())
      .addColumn('meta', 'text', (c) => c.notNull())
      .addColumn('counted', 'integer', (c) => c.notNull())
      .execute();
    await k.schema.createIndex('feedback_items_subject').on('feedback_items').columns(['subject', 'created_at']).execute();
    await k.schema.createIndex('feedback_items_listing').on('feedback_items').columns(['listing_id', 'created_at']).execute();
    await k.schema.createIndex('feedback_items_created').on('feedback_items').columns(['created_at']).execute();

    await k.schema
      .createTable('feedback_themes')
      .addColumn('feedback_id', 'text', (c) => c.notNull())
      .addColumn('theme', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('feedback_themes_pk', ['feedback_id', 'theme'])
      .execute();
    await k.schema.createIndex('feedback_themes_created').on('feedback_themes').columns(['created_at', 'feedback_id']).execute();

    await k.schema
      .createTable('feedback_counted')
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('body_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('feedback_counted_pk', ['subject', 'day', 'body_hash'])
      .execute();

    await k.schema
      .createTable('kernel_versions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('listing_id', 'text')
      .addColumn('agent_name', 'text', (c) => c.notNull())
      .addColumn('spec', 'text', (c) => c.notNull())
      .addColumn('artifact', 'text', (c) => c.notNull())
      .addColumn('system_prompt_short', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('diff', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('kernel_versions_subject_version', ['subject', 'version'])
      .execute();
    await k.schema.createIndex('kernel_versions_listing').on('kernel_versions').columns(['listing_id', 'created_at']).execute();

    await k.schema
      .createTable('kernel_heads')
      .addColumn('subject', 'text', (c) => c.primaryKey())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
});
