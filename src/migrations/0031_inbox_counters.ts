// What listings send to inboxes is counted per UTC day: to one recipient, from one sender to it,
// and from one sender in all (inbox/store.ts caps each).
import type { Kysely, Migration } from 'kysely';

export const m0031 = (): Migration => ({
  async up(k: Kysely<any>) {
    await k.schema
      .createTable('inbox_counters')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('inbox_counters_pk', ['key', 'day'])
      .execute();
    await k.schema.createIndex('inbox_counters_day').on('inbox_counters').column('day').execute();
  },
});
